# Shared by every stage: the configuration read once (corpora, pairs resolved with their defaults
# and checks, systems expanded into runs, parsers), the wildcard constraints, and the names every
# stage uses. Each stage's own helpers live at the top of its rules file (fetch.smk, data.smk,
# parse.smk, train.smk, decode.smk, eval.smk, tables.smk, report.smk, trees.smk).
import json
import os
import shlex
import sys

sys.path.insert(0, os.path.join(workflow.basedir, "pipeline", "scripts"))
import experiment  # noqa: E402  (pipeline/scripts/experiment.py: runs and tables as plain data)
import pairs  # noqa: E402  (pipeline/scripts/pairs.py: each pair resolved once)

PYTHON = sys.executable  # the interpreter running Snakemake (the project venv, with matplotlib)
WORK = config["work_dir"]
RESULTS = config["results_dir"]
BIN = config["bin_dir"]
PAIRS = config["pairs"]  # the raw entries, as the rules hand parts of them to the tools
PARSERS = config.get("parsers", {})


def _config_checked(make, *args):
    """A configuration error stops the workflow at start-up with its config path, no traceback."""
    try:
        return make(*args)
    except experiment.ConfigError as e:
        raise ValueError(str(e)) from None


# Built-in corpora (the shared mirror's and the papers' paper-scale ones) are always known; a
# user's corpora files add to them. A name defined twice is an error naming both files.
BUILTIN_CORPORA = ["pipeline/config/corpora.yaml", "pipeline/config/corpora_paper.yaml"]
_user_corpora = config.get("corpora", [])
CORPORA, CORPUS_FILE = _config_checked(
    pairs.load_corpora, BUILTIN_CORPORA + ([_user_corpora] if isinstance(_user_corpora, str) else list(_user_corpora)), BUILTIN_CORPORA
)
# every pair with its defaults filled in (sub-words, parsers, filter order, gold treebanks, ...)
PAIR = _config_checked(pairs.resolve_pairs, PAIRS, CORPORA, CORPUS_FILE, PARSERS)

# A system trains one run per pair and seed (experiment.expand_systems); SYSTEMS holds the runs,
# which is what every rule's {system} wildcard names.
SYSTEM_SPECS = config["systems"]
SYSTEMS = _config_checked(experiment.expand_systems, SYSTEM_SPECS, PAIRS)


def _alternatives(names):
    return "|".join(sorted(names))


def _group_names():
    """A seed group: a system, or one of its runs by seed ("SYSTEM@sN", experiment.seed_matched)."""
    return f"(?:{_alternatives(SYSTEM_SPECS)})(?:{experiment.SEED_SEP}[0-9]+)?"


# a pair's gold_trees (a parallel treebank such as PUD) is one more split: its words, tokenised
# already, through the pair's sub-words and binarisation (induced trees, gate analysis)
GOLD_SPLITS = set().union(*(p.gold_splits for p in PAIR.values()))
SPLITS = set().union(*(p.splits for p in PAIR.values())) if PAIR else {"train", "valid", "test"}
NO_NAME = "(?!x)x"  # a regex that matches nothing: a wildcard with no allowed value

# the language filter's place (pairs.Pair.filter_order): on the raw training text, or on the
# cleaned one (Pascal's Table 1)
FILTER_FIRST_RE = _alternatives(p for p in PAIR if PAIR[p].filter_order == "filter_first") or NO_NAME
CLEAN_FIRST_RE = _alternatives(p for p in PAIR if PAIR[p].filter_order == "clean_first") or NO_NAME

# Pairs whose data is a multi-task mix built from another pair (Pascal's +C&H, multitask.smk)
MULTITASK_PAIRS = {name: p.multitask_from for name, p in PAIR.items() if p.multitask_from}
MULTITASK_PAIR_RE = _alternatives(MULTITASK_PAIRS) or NO_NAME
MULTITASK_GLOSSARIES = "'<TR>' '<PA>'"  # never split by BPE

LANGID_SETS = {s["name"]: s for s in config.get("langid_report", {}).get("sets", [])}
for _name, _spec in LANGID_SETS.items():
    if _spec["corpus"] not in CORPORA:
        raise ValueError(f"langid_report set {_name}: corpus '{_spec['corpus']}' is in no corpora file")


wildcard_constraints:
    pair=_alternatives(PAIRS),
    system=_alternatives(SYSTEMS),
    table=_alternatives(config["tables"]),
    split=_alternatives(SPLITS),
    lset="|".join(sorted(s["name"] for s in config.get("langid_report", {}).get("sets", []))) or "none",


def pair_of(system):
    return PAIRS[SYSTEMS[system]["pair"]]


def as_list(x):
    return x if isinstance(x, list) else [x]
