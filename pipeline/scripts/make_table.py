"""Assemble one results table (Markdown + CSV) from score JSONs, training summaries and the
paired-bootstrap test of every row against the table's baseline (the first row).

Every number comes from a file the pipeline measured; the table says at which scale and on which
hardware it was measured.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table_io import write_table  # noqa: E402

NAMES = {"bleu": "BLEU", "chrf": "chrF", "ribes": "RIBES"}


def load(path):
    with open(path) as f:
        return json.load(f)


def main(sm):
    metrics = sm.params.metrics
    scores = iter(sm.input.scores)
    per_system = {s: {m: load(next(scores)) for m in metrics} for s in sm.params.systems}
    tested = {}
    if sm.input.significance:
        for row in load(sm.input.significance[0]):
            tested[row["system"]] = row
    hyp_of = {s: f"/{s}/hyp." for s in sm.params.systems}
    rows = []
    for system, summary_path in zip(sm.params.systems, sm.input.summaries):
        summary = load(summary_path)
        slice_n = sm.params.slices[system]
        row = {"system": system, "pair": sm.params.pairs[system]}
        for m in metrics:
            row[NAMES[m]] = f"{per_system[system][m]['score']:.2f}"
        match = next((r for path, r in tested.items() if hyp_of[system] in path), None)
        if match is None:
            row["p (vs baseline)"] = ""
        elif match["baseline"]:
            row["p (vs baseline)"] = "baseline"
        else:
            row["p (vs baseline)"] = f"{match['p_value']:.4f}"
        if match is not None:
            row[f"{NAMES[metrics[0]]} mean +- 95% CI"] = f"{match['mean']:.2f} +- {match['ci']:.2f}"
        row.update({
            "train_minutes": f"{summary['train_seconds'] / 60:.1f}",
            "epochs": summary["epochs"],
            "best_valid_ppl": f"{summary['best_valid_ppl']:.2f}",
            "tgt_tokens_per_s": f"{summary['tgt_tokens_per_s']:.0f}",
            "hardware": summary["hardware"],
            "scale": "full corpus" if slice_n == 0 else f"first {slice_n} lines of each split",
        })
        rows.append(row)
    cols = list(dict.fromkeys(c for r in rows for c in r))
    notes = []
    for m in metrics:
        sig = per_system[sm.params.systems[0]][m]["signature"]
        notes.append(f"{NAMES[m]} signature: `{sig}` (synmt-score; sacreBLEU-compatible, cased, detokenised).")
    if tested:
        first = next(iter(tested.values()))
        notes.append(f"p-values: paired bootstrap against the first row, `{first['signature']}`.")
    write_table(sm.output.csv, sm.output.md, sm.params.title, cols, rows, notes)


main(snakemake)  # noqa: F821 (injected by Snakemake)
