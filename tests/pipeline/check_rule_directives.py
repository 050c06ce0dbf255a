#!/usr/bin/env python3
"""Every rule that runs something (shell:, script: or run:) has a log: and a benchmark: directive,
as the Snakemake catalog's rules do: a failed job leaves its log, every job its time and memory.
Rules that only gather targets (all, parses: listed by name) run nothing and are exempt. Prints 'N passed, N failed'."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RULE = re.compile(r"^(?:rule|checkpoint) (\w+):\n((?:[ \t]+.*\n|\n)*)", re.M)

# by name: a rule whose directives this check cannot read (another indentation, a directive it does
# not know) is a failure, never skipped as one that runs nothing
EXEMPT = {"all", "parses"}
RUNS = {"shell", "script", "run", "wrapper", "notebook"}

missing, checked = [], 0
for path in sorted(glob.glob(os.path.join(ROOT, "pipeline", "rules", "*.smk"))) + [os.path.join(ROOT, "Snakefile")]:
    for name, body in RULE.findall(open(path, encoding="utf-8").read() + "\n"):
        first = re.search(r"^([ \t]+)\S", body, re.M)  # the body's own indentation, whatever it is
        directives = set(re.findall(rf"^{first.group(1)}(\w+):", body, re.M)) if first else set()
        if name in EXEMPT:
            continue
        if not directives & RUNS:
            missing.append(f"{os.path.relpath(path, ROOT)}: rule {name} has no shell:, script: or run: this check can read")
            continue
        checked += 1
        for need in ("log", "benchmark"):
            if need not in directives:
                missing.append(f"{os.path.relpath(path, ROOT)}: rule {name} has no {need}:")
print("\n".join(missing))
print(f"{checked} rules checked; {checked - len({m.split(' has')[0] for m in missing})} passed, "
      f"{len({m.split(' has')[0] for m in missing})} failed")
sys.exit(1 if missing or checked < 40 else 0)
