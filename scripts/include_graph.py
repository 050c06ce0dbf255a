#!/usr/bin/env python3
"""The include graph between synmt's top-level source directories, and the layering rule.

core/ is the floor; preprocess/, eval/ and parse/ stand on it side by side (no includes between
them); binarize/ (synmt-binarize) and trainer/ stand above those, side by side. Prints every directory-level edge with the number of includes
and, with --check, exits 1 listing the includes that break the rule (docs/architecture.md).
A tool's main (<dir>/tools/) counts as part of its directory.
"""
import argparse
import collections
import pathlib
import re
import sys

LAYERS = {"core": 0, "preprocess": 1, "eval": 1, "parse": 1, "binarize": 2, "trainer": 2}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)


def edges(root):
    found = collections.defaultdict(list)
    for directory in LAYERS:
        for path in sorted((root / directory).rglob("*")):
            if path.suffix not in (".h", ".cpp"):
                continue
            for target in INCLUDE.findall(path.read_text(encoding="utf-8")):
                if target in LAYERS and target != directory:
                    found[(directory, target)].append(str(path.relative_to(root)))
    return found


def allowed(source, target):
    return LAYERS[target] < LAYERS[source]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent, type=pathlib.Path)
    parser.add_argument("--check", action="store_true", help="exit 1 when an include breaks the layering")
    args = parser.parse_args()
    found = edges(args.root)
    bad = []
    for (source, target), files in sorted(found.items()):
        ok = allowed(source, target)
        print(f"{source:>10} -> {target:<10} {len(files):4d} includes{'' if ok else '   BREAKS THE LAYERING'}")
        if not ok:
            bad.extend(f"  {f} includes {target}/" for f in sorted(set(files)))
    if bad:
        print("includes against the layering (core < preprocess | eval | parse < binarize | trainer):")
        print("\n".join(bad))
    return 1 if bad and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
