"""Table of the builtin parsers: treebanks, sizes, dev/test UAS and LAS (CoNLL 2018 scoring: gold
tokenisation, punctuation included), UPOS accuracy, parsing speed, training time and hardware."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table_io import write_table  # noqa: E402


def main(sm):
    rows = []
    for name, path in zip(sm.params.names, sm.input.summaries):
        s = json.load(open(path))
        tests = s.get("test", {})
        base = {"parser": name, "train": " + ".join(os.path.basename(t) for t in s["train_conllu"]),
                "train sentences": s["train_sentences"], "epochs": f"{s.get('kept_epoch', s['best_epoch'])}/{s['epochs']}",  # the epoch in parser.pt
                "dev UAS": f"{s['dev_uas']:.2f}", "dev LAS": f"{s['dev_las']:.2f}",
                "train minutes": f"{s['train_seconds'] / 60:.1f}", "hardware": s["hardware"]}
        for test, t in tests.items() or [("-", None)]:
            row = dict(base)
            row["test"] = test
            row["test UAS"] = f"{t['uas']:.2f}" if t else ""
            row["test LAS"] = f"{t['las']:.2f}" if t else ""
            row["test UPOS"] = f"{t['upos']:.2f}" if t else ""
            row["sentences/s"] = f"{t['sentences_per_second']:.0f}" if t else ""
            rows.append(row)
    cols = ["parser", "train", "train sentences", "epochs", "dev UAS", "dev LAS", "test", "test UAS", "test LAS",
            "test UPOS", "sentences/s", "train minutes", "hardware"]
    write_table(sm.output.csv, sm.output.md, sm.params.title, cols, rows,
                ["UAS/LAS as the CoNLL 2018 evaluation script computes them (gold tokenisation, punctuation "
                 "included, LAS on universal labels); sentences/s: parsing the test set on the training hardware. "
                 "Treebanks written PATH@A:B use sentences A..B-1 only (languages without a UD training set here)."])


main(snakemake)  # noqa: F821 (injected by Snakemake)
