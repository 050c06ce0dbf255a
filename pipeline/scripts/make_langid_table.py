"""Table of the language-identification filter: pairs in, dropped by reason, kept, per corpus."""
import csv
import json
import os

REASONS = ["source_wrong_language", "target_wrong_language", "both_sides_wrong_language"]


def main(sm):
    rows = []
    for spec, path in zip(sm.params.sets, sm.input.reports):
        r = json.load(open(path))
        row = {"set": spec["name"], "corpus": f"{spec['corpus']} {spec['stem']}", "langs": f"{spec['src']}-{spec['tgt']}",
               "pairs in": r["pairs_in"]}
        for reason in REASONS:
            row[reason.replace("_", " ")] = r["dropped"].get(reason, 0)
        row["kept"] = r["kept"]
        row["kept %"] = f"{100.0 * r['kept'] / max(1, r['pairs_in']):.2f}"
        top = sorted(((n, l) for l, n in r["source_languages"].items() if l != spec["src"]), reverse=True)[:3]
        row["other source labels"] = ", ".join(f"{l}:{n}" for n, l in top)
        top = sorted(((n, l) for l, n in r["target_languages"].items() if l != spec["tgt"]), reverse=True)[:3]
        row["other target labels"] = ", ".join(f"{l}:{n}" for n, l in top)
        rows.append(row)
    cols = list(rows[0].keys())
    os.makedirs(os.path.dirname(sm.output.md), exist_ok=True)
    with open(sm.output.csv + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    os.replace(sm.output.csv + ".tmp", sm.output.csv)
    lines = [f"# {sm.params.title}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(r[c]) for c in cols) + " |" for r in rows]
    lines += ["", "A pair is kept when langdetect's top language of each side is the expected one (Pascal's rule)."]
    with open(sm.output.md + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(sm.output.md + ".tmp", sm.output.md)


main(snakemake)  # noqa: F821 (injected by Snakemake)
