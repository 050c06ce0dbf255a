"""Sentence counts of one pair through its data stages (rule data_counts; Pascal's Table 1).

Keys: raw_train (pairs fetched), cleaned_train (kept by length cleaning), filtered_train (kept by
the language filter, when the pair filters), train (the final training set), valid, test, and
before_filter / after_filter: the training pairs entering and leaving the language filter in the
pair's filter_order (Table 1's "train" and "filtered train"); order: filter_first | clean_first.
Keys that do not apply (no filter) are left out.
"""
import json
import sys

sys.stderr = open(snakemake.log[0], "w")


def lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


clean = json.load(open(snakemake.input.clean))
langid = json.load(open(snakemake.input.langid[0])) if snakemake.input.langid else None
order = snakemake.params.order
counts = {
    "raw_train": lines(snakemake.input.raw),
    "cleaned_train": clean["kept"],
    "filtered_train": langid["kept"] if langid else None,
    "train": lines(snakemake.input.train),
    "valid": lines(snakemake.input.valid),
    "test": lines(snakemake.input.test),
    "order": order,
}
if langid:
    counts["before_filter"], counts["after_filter"] = langid["pairs_in"], langid["kept"]
else:  # no filter: the training set before filtering is the cleaned one
    counts["before_filter"], counts["after_filter"] = clean["kept"], None
if counts["train"] != (counts["after_filter"] if order == "clean_first" else counts["cleaned_train"]):
    raise SystemExit(f"{snakemake.input.train}: {counts['train']} lines, but the stage reports say otherwise ({counts})")
counts = {k: v for k, v in counts.items() if v is not None}  # a table shows an absent key as "–"
with open(snakemake.output[0], "w") as f:
    json.dump(counts, f, indent=2, sort_keys=True)
    f.write("\n")
