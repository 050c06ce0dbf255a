# Helpers of trees.smk (Snakemake's linter wants rules and functions in separate files).


def induced_trees_spec(system):
    """How a system's head scores become trees (systems.NAME.induced_trees; SA-NMT's defaults)."""
    spec = {"tensor": "phi", "rows": "heads", "decoder": "cle"}
    spec.update(SYSTEMS[system].get("induced_trees", {}))
    return spec


def gold_spec(pair, split):
    """The pair's gold treebank of split `split` (one entry of gold_trees)."""
    for spec in PAIR[pair].gold_trees:
        if spec["split"] == split:
            return spec
    raise ValueError(f"pairs.{pair}: no gold_trees entry with split '{split}' (needed for induced trees / the gate analysis)")


def gold_treebank(pair, split, side="src"):
    """A pair's gold treebank side (gold_trees.src / .tgt) of split `split`: the mirror file, or
    its first `sentences` sentences (rule gold_treebank_head) when the entry asks for a subset."""
    spec = gold_spec(pair, split)
    if side not in spec:
        raise ValueError(f"pairs.{pair}: no gold_trees.{side} for split '{split}' (needed for the gate analysis)")
    if "sentences" in spec:
        return f"{WORK}/{pair}/gold/{split}.{side}.conllu"
    return gold_treebank_file(pair, split, side)


def gold_treebank_file(pair, split, side):
    """The mirror path of a gold treebank side, whole."""
    # a mirror file: its time says nothing (treebank_file)
    return ancient(f"{config['mirror']}/{gold_spec(pair, split)[side]}")


def _tree_significance_inputs(w):
    n = len(experiment.runs_of(SYSTEMS, w.system, w.pair))
    return {
        "baseline": experiment.group_hyp_file(RESULTS, w.baseline, w.pair, w.split, w.metric),
        "system": experiment.group_hyp_file(RESULTS, w.system, w.pair, w.split, w.metric),
        "gold": f"{RESULTS}/groups/references/{w.pair}/{w.split}.x{n}.conllu",
    }
