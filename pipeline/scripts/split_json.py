"""Each top-level key of a JSON object written to its own file, PREFIX.KEY.json (sorted keys,
atomic), so that a table's measured row can read one of them. Usage: split_json.py IN.json PREFIX"""
import json
import os
import sys


def main():
    path, prefix = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        sys.exit(f"{path}: expected an object of objects")
    for key, value in data.items():
        out = f"{prefix}.{key}.json"
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            json.dump(value, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
