"""Assemble one results table (Markdown + CSV) from score JSONs, training summaries and the
paired-bootstrap test of every row against the table's baseline (the first row).

Every number comes from a file the pipeline measured; the table says at which scale and on which
hardware it was measured.
"""
import csv
import json
import os

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
    os.makedirs(os.path.dirname(sm.output.md), exist_ok=True)
    cols = list(dict.fromkeys(c for r in rows for c in r))
    with open(sm.output.csv + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    os.replace(sm.output.csv + ".tmp", sm.output.csv)
    lines = [f"# {sm.params.title}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(r.get(c, "")) for c in cols) + " |" for r in rows]
    lines += [""]
    for m in metrics:
        sig = per_system[sm.params.systems[0]][m]["signature"]
        lines.append(f"{NAMES[m]} signature: `{sig}` (synmt-score; sacreBLEU-compatible, cased, detokenised).")
    if tested:
        first = next(iter(tested.values()))
        lines.append(f"p-values: paired bootstrap against the first row, `{first['signature']}`.")
    with open(sm.output.md + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(sm.output.md + ".tmp", sm.output.md)


main(snakemake)  # noqa: F821 (injected by Snakemake)
