"""Assemble one results table (Markdown + CSV) from score JSONs and training summaries.

Every number comes from a file the pipeline measured; the table says at which scale and on which
hardware it was measured.
"""
import csv
import json
import os


def load(path):
    with open(path) as f:
        return json.load(f)


def main(sm):
    rows = []
    for system, score_path, summary_path in zip(sm.params.systems, sm.input.scores, sm.input.summaries):
        score, summary = load(score_path), load(summary_path)
        slice_n = sm.params.slices[system]
        score["signature"] = score["signature"].replace("|", "\\|")  # keep Markdown cells intact
        rows.append({
            "system": system,
            "pair": sm.params.pairs[system],
            "BLEU": f"{score['score']:.2f}",
            "signature": score["signature"],
            "train_minutes": f"{summary['train_seconds'] / 60:.1f}",
            "epochs": summary["epochs"],
            "best_valid_ppl": f"{summary['best_valid_ppl']:.2f}",
            "tgt_tokens_per_s": f"{summary['tgt_tokens_per_s']:.0f}",
            "hardware": summary["hardware"],
            "scale": "full corpus" if slice_n == 0 else f"first {slice_n} lines of each split",
        })
    os.makedirs(os.path.dirname(sm.output.md), exist_ok=True)
    cols = list(rows[0].keys())
    with open(sm.output.csv + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    os.replace(sm.output.csv + ".tmp", sm.output.csv)
    lines = [f"# {sm.params.title}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(r[c]) for c in cols) + " |" for r in rows]
    lines += ["", "BLEU: synmt-score (sacreBLEU-compatible, cased, detokenised, 13a) on the split named in the title."]
    with open(sm.output.md + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(sm.output.md + ".tmp", sm.output.md)


main(snakemake)  # noqa: F821 (injected by Snakemake)
