#!/usr/bin/env python3
"""The include graph between synmt's top-level source directories, and the layering rule.

core/ is the floor; preprocess/, eval/ and parse/ stand on it side by side (no includes between
them); binarize/ (the data stage as a library: synmt-binarize, and the source syntax the trainer's
parsed-source reader maps the same way) stands above those, and trainer/ on top. Prints every
directory-level edge with the number of includes
and, with --check, exits 1 listing the includes that break the rule (docs/architecture.md).
A tool's main (<dir>/tools/) counts as part of its directory.

Inside trainer/ the floors are checked the same way (docs/architecture.md): the files at trainer/'s
top (device, runtime, archive I/O) < data/, comm/, loop/ (the batches, the communicators, the
torch-free pieces of a training loop) < nn/ (layers) < parser/ (the builtin parser) < models/ (the
model interface, checkpoints, the registry, then the families) < decode/ < train/ < tools/. A file
includes its own directory and the floors below it; inside models/, the families' directories
stand on models/'s own files and only models/families.cpp, the registration list, includes them.
"""
import argparse
import collections
import pathlib
import re
import sys

LAYERS = {"core": 0, "preprocess": 1, "eval": 1, "parse": 1, "binarize": 2, "trainer": 3}
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


TRAINER_FLOORS = {"": 0, "data": 1, "comm": 1, "loop": 1, "nn": 2, "parser": 3, "models": 4, "decode": 5, "train": 6, "tools": 7}
TRAINER_INCLUDE = re.compile(r'^\s*#\s*include\s+"trainer/([^"]+)"', re.M)


def trainer_part(rel):
    """(floor directory, family or '') of a path relative to trainer/."""
    parts = rel.split("/")
    if len(parts) == 1:
        return "", ""
    family = parts[1] if parts[0] == "models" and len(parts) > 2 else ""
    return parts[0], family


def trainer_breaks(root):
    """Includes inside trainer/ against its floors, as 'file includes target (why)'."""
    bad = []
    base = root / "trainer"
    for path in sorted(base.rglob("*")):
        if path.suffix not in (".h", ".cpp"):
            continue
        rel = str(path.relative_to(base))
        floor, family = trainer_part(rel)
        if floor not in TRAINER_FLOORS:
            bad.append(f"  trainer/{rel}: directory '{floor}' has no floor in include_graph.py")
            continue
        for target in TRAINER_INCLUDE.findall(path.read_text(encoding="utf-8")):
            tfloor, tfamily = trainer_part(target)
            if tfloor not in TRAINER_FLOORS:
                bad.append(f"  trainer/{rel} includes trainer/{target}: no such floor")
            elif tfloor != floor and TRAINER_FLOORS[tfloor] >= TRAINER_FLOORS[floor]:
                bad.append(f"  trainer/{rel} includes trainer/{target} ({floor or 'top'} -> {tfloor}: not a lower floor)")
            elif floor == tfloor == "models" and tfamily and tfamily != family and not (not family and rel == "models/families.cpp"):
                bad.append(f"  trainer/{rel} includes trainer/{target} (only models/families.cpp includes a family)")
    return bad


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
        print("includes against the layering (core < preprocess | eval | parse < binarize < trainer):")
        print("\n".join(bad))
    inner = trainer_breaks(args.root)
    print(f"trainer floors: {len(inner)} includes against them")
    if inner:
        print("includes against trainer's floors (top < data | comm | loop < nn < parser < models < decode < train < tools):")
        print("\n".join(inner))
    return 1 if (bad or inner) and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
