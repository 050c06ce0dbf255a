#!/usr/bin/env python3
"""The validation perplexity of several runs side by side, epoch by epoch: the last validation of
each epoch from each run's metrics.jsonl (the trainer's log), so that runs can be compared at equal
training (the results pages' "at epoch 10 ..." sentences read from here, not from a plot).

usage: scripts/analysis/valid_by_epoch.py RUN_DIR [RUN_DIR ...] [--every N]
  prints a Markdown table: one row per epoch (every N-th, and the last), one column per run
  (its directory's name); an empty cell where a run had not reached that epoch.
"""
import argparse
import json
import os
import sys


def last_validation_per_epoch(metrics_path):
    """{epoch: valid_ppl of the epoch's last validation}; a line that is not JSON is an error naming
    the file and line (a truncated log must not pass for a shorter run)."""
    out = {}
    with open(metrics_path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                raise SystemExit(f"{metrics_path}:{n}: not a JSON line ({e.msg})")
            if record.get("type") == "valid" and "valid_ppl" in record:
                out[int(record["epoch"])] = float(record["valid_ppl"])
    return out


def table(runs, every=1):
    """Markdown lines for {name: {epoch: ppl}}."""
    epochs = sorted({e for curve in runs.values() for e in curve})
    if not epochs:
        return ["(no validations)"]
    shown = [e for e in epochs if e % every == 0 or e == epochs[-1]]
    lines = ["| epoch | " + " | ".join(runs) + " |", "|---|" + "---|" * len(runs)]
    for e in shown:
        lines.append(f"| {e} | " + " | ".join(f"{c[e]:.2f}" if e in c else "" for c in runs.values()) + " |")
    return lines


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="run directories holding metrics.jsonl")
    parser.add_argument("--every", type=int, default=1, help="print every N-th epoch (and the last)")
    a = parser.parse_args(argv)
    runs = {}
    for d in a.runs:
        path = os.path.join(d, "metrics.jsonl")
        if not os.path.exists(path):
            raise SystemExit(f"{path}: no such file (not a run directory?)")
        runs[os.path.basename(os.path.normpath(d))] = last_validation_per_epoch(path)
    print("\n".join(table(runs, a.every)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
