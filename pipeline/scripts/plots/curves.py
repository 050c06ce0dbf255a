#!/usr/bin/env python3
"""Training and validation curves of one or more systems, from the metrics.jsonl files synmt-train
writes, so that runs can be compared by how they trained and not only by their final scores.

Panels: training loss (solid) and NLL (dashed) per target token against the update; validation
perplexity (log scale); validation BLEU when a file has it; auxiliary loss terms (aux_<name>) when a
file has them. One colour per system. A resumed run restarts from an earlier update: the records it
supersedes (same type, update >= the restart's) are dropped.

  curves.py --metrics NAME=PATH [NAME=PATH ...] --out PREFIX [--title T]   -> PREFIX.png, PREFIX.svg
"""
import argparse
import json
import math
import os
import sys

from matplotlib.ticker import LogFormatter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_io import InputError, named_paths, plt, run, save_figure  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import metrics_io  # noqa: E402  (the scripts folder: the record reader the table scripts use)

REQUIRED = {"train": ("step", "loss"), "valid": ("step", "valid_ppl")}


def number(value, path, line, key):
    if value is None:  # nlohmann::json writes NaN and infinities as null
        return math.nan
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(path, line, f"'{key}' is not a number: {json.dumps(value)}")
    return float(value)


def read_metrics(path):
    """{"train": [record...], "valid": [record...]}, records as dicts of floats, in update order."""
    series = {"train": [], "valid": []}
    try:
        recs = list(metrics_io.records(path))
    except metrics_io.RecordError as e:
        raise InputError(e.path, e.line, e.message) from None
    for line_no, rec in recs:
        if not isinstance(rec.get("type"), str):
            raise InputError(path, line_no, "expected a JSON object with a string field \"type\"")
        kind = rec["type"]
        if kind not in REQUIRED:  # e.g. skipped_update
            continue
        for key in REQUIRED[kind]:
            if key not in rec:
                raise InputError(path, line_no, f"a \"{kind}\" record without \"{key}\"")
        values = {k: number(v, path, line_no, k) for k, v in rec.items()
                  if k in ("step", "epoch", "loss", "nll", "valid_ppl", "valid_tokens", "valid_bleu") or k.startswith("aux_")}
        if not math.isfinite(values["step"]):
            raise InputError(path, line_no, "\"step\" is not a finite number")
        kept = series[kind]
        while kept and kept[-1]["step"] >= values["step"]:  # superseded by a resumed run
            kept.pop()
        kept.append(values)
    if not series["train"] and not series["valid"]:
        raise InputError(path, 0, "no \"train\" or \"valid\" records")
    return series


def plot_series(ax, records, key, colour, label, style="-"):
    points = [(r["step"], r[key]) for r in records if key in r]
    if points:
        ax.plot([p[0] for p in points], [p[1] for p in points], style, color=colour, label=label,
                marker="o" if len(points) < 30 else None, markersize=3, linewidth=1.2)
    return bool(points)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metrics", nargs="+", required=True, metavar="NAME=PATH", help="a system's metrics.jsonl")
    parser.add_argument("--out", required=True, metavar="PREFIX", help="writes PREFIX.png and PREFIX.svg")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    systems = [(name, read_metrics(path)) for name, path in named_paths(parser, args.metrics, "--metrics")]

    has_bleu = any("valid_bleu" in r for _, s in systems for r in s["valid"])
    aux_keys = sorted({k for _, s in systems for r in s["train"] for k in r if k.startswith("aux_")})
    panels = ["loss", "ppl"] + (["bleu"] if has_bleu else []) + (["aux"] if aux_keys else [])
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.4), squeeze=False)
    ax = dict(zip(panels, axes[0]))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (name, s) in enumerate(systems):
        c = colours[i % len(colours)]
        plot_series(ax["loss"], s["train"], "loss", c, f"{name} loss")
        plot_series(ax["loss"], s["train"], "nll", c, f"{name} NLL", "--")
        plot_series(ax["ppl"], s["valid"], "valid_ppl", c, name)
        if has_bleu:
            plot_series(ax["bleu"], s["valid"], "valid_bleu", c, name)
        for j, key in enumerate(aux_keys):
            plot_series(ax["aux"], s["train"], key, c, f"{name} {key[4:]}", ["-", "--", ":", "-."][j % 4])
    titles = {"loss": ("training loss / NLL per token", "loss"), "ppl": ("validation perplexity", "perplexity"),
              "bleu": ("validation BLEU", "BLEU"), "aux": ("auxiliary loss terms per token", "value")}
    for key, a in ax.items():
        a.set_title(titles[key][0])
        a.set_xlabel("update")
        a.set_ylabel(titles[key][1])
        a.grid(True, alpha=0.3)
        if a.get_lines():
            a.legend(fontsize=7)
    if any(r["valid_ppl"] > 0 for _, s in systems for r in s["valid"]):
        ax["ppl"].set_yscale("log")
        ax["ppl"].yaxis.set_major_formatter(LogFormatter())  # 60, not 6 x 10^1
        ax["ppl"].yaxis.set_minor_formatter(LogFormatter(labelOnlyBase=False, minor_thresholds=(2, 0.5)))
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    save_figure(fig, args.out)


if __name__ == "__main__":
    run(main)
