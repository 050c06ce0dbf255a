#!/usr/bin/env python3
"""BLEU by source-sentence length for two seed groups, with the paired bootstrap in every length
bucket: whether a system's lead grows with sentence length (the reading of Pascal's Figure 3),
tested rather than read off bars. The figure rule (length_figure) shows one run per row and no test;
this reads the groups' concatenated outputs (results/<exp>/groups/<row>/<pair>/hyp.<test>.txt: N
runs' translations of the test set, one run after another), keeps in each bucket every run's line
of each sentence the bucket holds, and runs `synmt-score paired-bs --runs N` on them (a resample
draws test sentences, as the tables' tests do).

Source length counts whitespace-separated tokens (str.split(), as length_buckets.py and
synmt-score --buckets-src). --buckets gives inclusive upper bounds; longer sentences form one more,
open bucket.

  length_significance.py --src SRC -r REF --runs N --baseline NAME=HYP SYSTEM_NAME=HYP
                         [--buckets 10,15] [--samples 1000] [--seed 12345] [--score-bin build/bin/synmt-score]
  -> a Markdown table on stdout: bucket, sentences, both groups' BLEU, Δ, bootstrap p
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipeline", "scripts", "plots"))
from length_bucket_io import bucket_of, read_lines  # noqa: E402  (the length figure's reading and buckets)


def bucket_labels(bounds):
    lows = [1] + [b + 1 for b in bounds]
    return [f"{lo}-{hi}" for lo, hi in zip(lows, bounds)] + [f">{bounds[-1]}"]


def runs_subset(lines, indices, runs, path):
    """Each run's lines of the given sentences, run after run: `runs` runs of len(lines) / runs sentences."""
    m = len(lines) // runs
    if m * runs != len(lines):
        raise ValueError(f"{path}: {len(lines)} lines are not {runs} runs of one test set")
    return [lines[r * m + i] for r in range(runs) for i in indices]


def named(spec):
    name, sep, path = spec.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=FILE, got {spec!r}")
    return name, path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", required=True, help="the test set's source, one sentence per line")
    ap.add_argument("-r", "--ref", required=True, help="the test set's reference (once, not repeated)")
    ap.add_argument("--runs", type=int, required=True, help="runs in each group's concatenated output")
    ap.add_argument("--baseline", type=named, required=True, help="NAME=HYP of the baseline group")
    ap.add_argument("system", type=named, help="NAME=HYP of the compared group")
    ap.add_argument("--buckets", default="10,15", help="inclusive upper bounds of the length buckets")
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--score-bin", default="build/bin/synmt-score")
    a = ap.parse_args(argv)
    bounds = [int(b) for b in a.buckets.split(",")]
    if bounds != sorted(set(bounds)) or bounds[0] < 1:
        ap.error(f"--buckets {a.buckets}: increasing positive bounds")
    src, ref = read_lines(a.src), read_lines(a.ref)
    if len(src) != len(ref):
        sys.exit(f"{a.src}: {len(src)} lines, {a.ref}: {len(ref)}: not one test set")
    (base_name, base_path), (sys_name, sys_path) = a.baseline, a.system
    base, hyp = read_lines(base_path), read_lines(sys_path)
    for path, lines in ((base_path, base), (sys_path, hyp)):
        if len(lines) != a.runs * len(src):
            sys.exit(f"{path}: {len(lines)} lines, expected {a.runs} runs of {len(src)} sentences (--runs)")
    groups = {}
    for i, line in enumerate(src):
        groups.setdefault(bucket_of(len(line.decode("utf-8").split()), bounds), []).append(i)
    print(f"| source words | sentences | {base_name} | {sys_name} | Δ | p |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for b, label in enumerate(bucket_labels(bounds)):
            idx = groups.get(b, [])
            if not idx:
                print(f"| {label} | 0 |  |  |  |  |")
                continue
            files = {}
            for key, lines in (("ref", [ref[i] for _ in range(a.runs) for i in idx]),
                               ("base", runs_subset(base, idx, a.runs, base_path)), ("sys", runs_subset(hyp, idx, a.runs, sys_path))):
                files[key] = os.path.join(tmp, f"{key}.{b}.txt")
                with open(files[key], "wb") as f:
                    f.write(b"\n".join(lines) + b"\n")
            out = subprocess.run([a.score_bin, "paired-bs", "-r", files["ref"], "--metric", "bleu", "--samples", str(a.samples),
                                  "--seed", str(a.seed), "--runs", str(a.runs), "--format", "json", "--baseline", files["base"],
                                  files["sys"]], check=True, capture_output=True, text=True).stdout
            base_entry, sys_entry = json.loads(out)[:2]
            delta = sys_entry["score"] - base_entry["score"]
            print(f"| {label} | {len(idx)} | {base_entry['score']:.2f} | {sys_entry['score']:.2f} | {delta:+.2f} | "
                  f"{sys_entry['p_value']:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
