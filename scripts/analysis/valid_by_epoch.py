#!/usr/bin/env python3
"""The validation perplexity of several runs side by side, epoch by epoch: the last validation of
each epoch from each run's metrics.jsonl (the trainer's log), so that runs can be compared at equal
training (the results pages' "at epoch 10 ..." sentences read from here, not from a plot).

usage: .venv/bin/python scripts/analysis/valid_by_epoch.py RUN_DIR [RUN_DIR ...] [--every N]
  prints a Markdown table: one row per epoch (every N-th, and the last), one column per run
  (its directory's name); an empty cell where a run had not reached that epoch. A run without its
  summary.json (still training, or stopped before its end) is marked "(unfinished)" in its column
  header, so that it does not read as a run the rule stopped early.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipeline", "scripts", "plots"))
from curves import read_metrics  # noqa: E402  (the curves figure's reader: records a resumed run superseded are dropped)
from plot_io import InputError  # noqa: E402


def last_validation_per_epoch(metrics_path):
    """{epoch: valid_ppl of the epoch's last validation}; a damaged line is an error naming the file
    and line (a truncated log must not pass for a shorter run)."""
    try:
        records = read_metrics(metrics_path)["valid"]
    except InputError as e:
        raise SystemExit(str(e)) from None
    return {int(r["epoch"]): r["valid_ppl"] for r in records if "epoch" in r}


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
        name = os.path.basename(os.path.normpath(d))
        if not os.path.exists(os.path.join(d, "summary.json")):
            name += " (unfinished)"
        runs[name] = last_validation_per_epoch(path)
    print("\n".join(table(runs, a.every)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
