#!/usr/bin/env python3
"""The validation perplexity of several runs side by side, epoch by epoch: the last validation of
each epoch from each run's metrics.jsonl (the trainer's log), so that runs can be compared at equal
training (the results pages' "at epoch 10 ..." sentences read from here, not from a plot).

usage: .venv/bin/python scripts/analysis/valid_by_epoch.py RUN_DIR [RUN_DIR ...] [--every N] [--rescale-to RUN_DIR]
  prints a Markdown table: one row per epoch (every N-th, and the last), one column per run
  (its directory's name); an empty cell where a run had not reached that epoch. A run without its
  summary.json (still training, or stopped before its end) is marked "(unfinished)" in its column
  header, so that it does not read as a run the rule stopped early.

  --rescale-to RUN_DIR: runs whose vocabularies differ (e.g. +C&H's BPE, learnt on the translation
  pairs and the parse linearisations together) split the same dev references into different numbers
  of tokens, so their per-token perplexities are not comparable. The invariant is the dev set's total
  log-likelihood, ln(ppl) x valid_tokens (both in each validation record); this option prints each
  run's perplexity over RUN_DIR's token count, exp(ln(ppl) x tokens / RUN_DIR's tokens): the
  perplexity the same likelihood gives in that run's segmentation. Meaningful only when the runs
  validate on the same sentences (the same pair's dev set, however segmented): the caller's claim.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipeline", "scripts", "plots"))
from curves import read_metrics  # noqa: E402  (the curves figure's reader: records a resumed run superseded are dropped)
from script_io import InputError  # noqa: E402


def last_validations(metrics_path):
    """{epoch: the epoch's last validation record}; a damaged line is an error naming the file and
    line (a truncated log must not pass for a shorter run)."""
    try:
        records = read_metrics(metrics_path)["valid"]
    except InputError as e:
        raise SystemExit(str(e)) from None
    return {int(r["epoch"]): r for r in records if "epoch" in r}


def last_validation_per_epoch(metrics_path):
    """{epoch: valid_ppl of the epoch's last validation}."""
    return {e: r["valid_ppl"] for e, r in last_validations(metrics_path).items()}


def valid_tokens(metrics_path, records):
    """The dev set's token count, the same in every validation of a run (an error naming the file
    otherwise: a log from before the trainer recorded it, or a run whose dev set changed)."""
    counts = {r.get("valid_tokens") for r in records.values()}
    if None in counts:
        raise SystemExit(f"{metrics_path}: a validation record without \"valid_tokens\" (a log from an older trainer?)")
    if len(counts) != 1 or not min(counts) > 0:
        raise SystemExit(f"{metrics_path}: the validations' \"valid_tokens\" differ or are not positive ({sorted(counts)}): not one dev set")
    return counts.pop()


def rescaled(records, tokens, ref_tokens):
    """{epoch: ppl over ref_tokens}: the same total dev log-likelihood, ln(ppl) x tokens, spread over
    the reference segmentation's token count."""
    return {e: math.exp(math.log(r["valid_ppl"]) * tokens / ref_tokens) for e, r in records.items()}


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
    parser.add_argument("--rescale-to", metavar="RUN_DIR", help="every run's perplexity over this run's dev token count (see above)")
    a = parser.parse_args(argv)
    ref_tokens = None
    if a.rescale_to:
        ref_path = metrics_of(a.rescale_to)
        ref_tokens = valid_tokens(ref_path, last_validations(ref_path))
    runs = {}
    for d in a.runs:
        path = metrics_of(d)
        name = os.path.basename(os.path.normpath(d))
        if not os.path.exists(os.path.join(d, "summary.json")):
            name += " (unfinished)"
        records = last_validations(path)
        if ref_tokens is None:
            runs[name] = {e: r["valid_ppl"] for e, r in records.items()}
        else:
            runs[name] = rescaled(records, valid_tokens(path, records), ref_tokens)
    if ref_tokens is not None:
        print(f"(perplexities over {ref_tokens:.0f} dev tokens, the segmentation of {os.path.basename(os.path.normpath(a.rescale_to))})\n")
    print("\n".join(table(runs, a.every)))
    return 0


def metrics_of(run_dir):
    path = os.path.join(run_dir, "metrics.jsonl")
    if not os.path.exists(path):
        raise SystemExit(f"{path}: no such file (not a run directory?)")
    return path


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
