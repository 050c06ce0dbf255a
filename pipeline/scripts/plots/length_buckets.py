#!/usr/bin/env python3
"""BLEU by source-sentence length, one bar per system in each length bucket: the usual way the
syntax papers show where a model helps (long sentences), measured with the project's own scorer.

Source length is the number of whitespace-separated tokens of the source line (Python's str.split(),
as synmt-score --buckets-src counts words). --buckets gives upper bounds, each inclusive; sentences
longer than the last bound form one more, open bucket: 10,20 -> 0-10, 11-20, >20 (synmt-score's
buckets and labels). Each bucket's BLEU is corpus BLEU of the bucket's lines, computed by running
`synmt-score bleu -r REF --format json HYP` on them; an empty bucket has no score (no bar, empty CSV cell).

  length_buckets.py --src SRC --ref REF --hyp NAME=HYP [...] [--buckets 10,20,30,40,50]
                    [--score-bin synmt-score] --out PREFIX [--csv OUT.csv]
  -> PREFIX.png, PREFIX.svg (and OUT.csv: bucket, n, one BLEU column per system)
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from length_bucket_io import bucket_of, read_lines  # noqa: E402
from plot_io import InputError, named_paths, plt, replace_atomically, run, save_figure  # noqa: E402


def parse_bounds(parser, spec):
    try:
        bounds = [int(b) for b in spec.split(",")]
    except ValueError:
        parser.error(f"--buckets: expected increasing integers like 10,20,30, got '{spec}'")
    if not bounds or bounds[0] < 0 or any(b <= a for a, b in zip(bounds, bounds[1:])):
        parser.error(f"--buckets: expected increasing non-negative integers, got '{spec}'")
    return bounds


def bleu(score_bin, ref_lines, hyp_lines, tmp, what):
    ref, hyp = os.path.join(tmp, "ref"), os.path.join(tmp, "hyp")
    for path, lines in ((ref, ref_lines), (hyp, hyp_lines)):
        with open(path, "wb") as f:
            f.write(b"".join(line + b"\n" for line in lines))
    try:
        done = subprocess.run([score_bin, "bleu", "-r", ref, "--format", "json", hyp], capture_output=True, text=True)
    except OSError as e:
        raise InputError(score_bin, 0, f"cannot run the scorer: {e.strerror}") from None
    if done.returncode != 0:
        raise InputError(score_bin, 0, f"failed on {what} (exit {done.returncode}): {done.stderr.strip()}")
    try:
        return float(json.loads(done.stdout)["score"])
    except (ValueError, KeyError, TypeError):
        raise InputError(score_bin, 0, f"no JSON with a \"score\" on {what}: {done.stdout[:200]!r}") from None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", required=True, help="source text (its lengths define the buckets)")
    parser.add_argument("--ref", required=True, help="reference translations")
    parser.add_argument("--hyp", nargs="+", required=True, metavar="NAME=HYP", help="a system's detokenised hypotheses")
    parser.add_argument("--buckets", default="10,20,30,40,50", help="inclusive upper bounds (default: %(default)s)")
    parser.add_argument("--score-bin", default="synmt-score", help="the synmt-score executable (default: from PATH)")
    parser.add_argument("--out", required=True, metavar="PREFIX", help="writes PREFIX.png and PREFIX.svg")
    parser.add_argument("--csv", help="also write the numbers here")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    bounds = parse_bounds(parser, args.buckets)
    systems = named_paths(parser, args.hyp, "--hyp")

    src, ref = read_lines(args.src), read_lines(args.ref)
    hyps = [(name, path, read_lines(path)) for name, path in systems]
    for path, lines in [(args.ref, ref)] + [(p, h) for _, p, h in hyps]:
        if len(lines) != len(src):
            raise InputError(path, 0, f"{len(lines)} lines, but the source {args.src} has {len(src)}")
    members = [[] for _ in range(len(bounds) + 1)]
    for i, line in enumerate(src):
        try:
            words = line.decode("utf-8").split()
        except UnicodeDecodeError as e:
            raise InputError(args.src, i + 1, f"not UTF-8 ({e.reason})") from None
        members[bucket_of(len(words), bounds)].append(i)
    labels = [f"{0 if k == 0 else bounds[k - 1] + 1}-{b}" for k, b in enumerate(bounds)] + [f">{bounds[-1]}"]

    scores = {}  # (system, bucket) -> BLEU
    with tempfile.TemporaryDirectory(prefix="synmt-buckets-") as tmp:
        for name, path, lines in hyps:
            for k, ids in enumerate(members):
                if ids:
                    scores[name, k] = bleu(args.score_bin, [ref[i] for i in ids], [lines[i] for i in ids], tmp,
                                           f"{path}, source length {labels[k]}")

    n_buckets, n_sys = len(members), len(hyps)
    fig, ax = plt.subplots(figsize=(max(5.0, 0.9 * n_buckets * max(1, n_sys) / 2 + 2), 3.6))
    width = 0.8 / n_sys
    for j, (name, _, _) in enumerate(hyps):
        xs = [k + (j - (n_sys - 1) / 2) * width for k in range(n_buckets) if (name, k) in scores]
        ys = [scores[name, k] for k in range(n_buckets) if (name, k) in scores]
        bars = ax.bar(xs, ys, width, label=name)
        ax.bar_label(bars, fmt="%.1f", fontsize=6, padding=1)
    ax.set_xticks(range(n_buckets), [f"{labels[k]}\n(n={len(ids)})" for k, ids in enumerate(members)])
    ax.set_xlim(-0.5, n_buckets - 0.5)
    ax.margins(y=0.12)
    ax.set_xlabel("source length (words)")
    ax.set_ylabel("BLEU")
    ax.set_title(args.title or "BLEU by source length")
    ax.grid(True, axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, args.out)

    if args.csv:
        def write_csv(f):
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["bucket", "n"] + [name for name, _, _ in hyps])
            for k, ids in enumerate(members):
                w.writerow([labels[k], len(ids)] +
                           [f"{scores[name, k]:.2f}" if (name, k) in scores else "" for name, _, _ in hyps])
        replace_atomically(args.csv, write_csv)


if __name__ == "__main__":
    run(main)
