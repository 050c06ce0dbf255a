"""What an experiment configuration means, as plain data: systems expanded into training runs
(one per pair and seed), and results tables resolved into cells (which runs, which score files,
which significance tests). Pure functions without Snakemake, shared by the Snakefile (to build the
DAG) and by make_table.py (to read what the DAG produced), and testable on their own.

Naming: a system with `pair: P` and no `seeds` is one run named like the system; `pairs: [P, Q]`
gives runs `SYSTEM.P`, `SYSTEM.Q`; `seeds: [1, 2, 3]` appends `.s1`, `.s2`, `.s3` (train.seed is
set to the seed). A table row names a system; a column names a pair and a test set; the cell holds
every run of that system on that pair (a seed group when there are several). A run on a pair
with `scores_as: P` (the same validation and test sets, other training data: a language-filtered
copy) or on a multi-task pair built from P (multitask_parse: {from: P}, Pascal's +C&H) fills P's
columns (`test_pair`).
"""
import copy
import functools
import os

import yaml

HYP_METRICS = ("bleu", "chrf", "ribes", "bleu_tok")
METRIC_NAMES = {"bleu": "BLEU", "chrf": "chrF", "ribes": "RIBES", "bleu_tok": "BLEU (tok.)", "da": "DA", "ua": "UA"}
# statistics of induced trees (trees.SPLIT.json) that synmt-trees paired-bs tests over sentences
TREE_METRICS = ("da", "ua")
DEFAULT_MARKS = ["†", "‡"]  # p < 0.05, p < 0.01
MARK_LEVELS = (0.05, 0.01)
# symbol pairs [p < 0.05, p < 0.01] for a row compared with several rows: each comparison gets its
# own pair, so that a cell's marks say which comparison they come from (SA-NMT's Table 3 marked
# SA-NMT-hard "‡‡‡‡" against four rows before)
MARK_SETS = (("†", "‡"), ("△", "▲"), ("◇", "◆"), ("○", "●"), ("☆", "★"))
# BLEU tokenisers that segment a script written without spaces
UNSPACED_BLEU_TOKENIZERS = ("ja-mecab", "zh", "char")


class ConfigError(ValueError):
    pass


# A wall-clock budget makes a result depend on the machine and on what else runs beside it; a
# table must come out the same anywhere (budgets in updates, epochs or a convergence rule).
WALL_CLOCK_KEY = "max_minutes"


def refuse_wall_clock(where, train_options):
    if (train_options or {}).get(WALL_CLOCK_KEY):
        raise ConfigError(f"{where}.{WALL_CLOCK_KEY}: a wall-clock budget makes the result depend on the machine; "
                          "bound the training by max_epochs / max_steps and patience instead")


def system_pairs(name, spec):
    if ("pair" in spec) == ("pairs" in spec):
        raise ConfigError(f"systems.{name}: give exactly one of 'pair' or 'pairs'")
    return [spec["pair"]] if "pair" in spec else list(spec["pairs"])


def expand_systems(systems, pairs):
    """{run id: run spec}; a run spec is the system's spec with one `pair`, its train.seed set, and
    `system`, `seed` recording where it came from."""
    runs = {}
    for name, spec in systems.items():
        plist = system_pairs(name, spec)
        if "ensemble" not in spec and not {"model", "train"} <= set(spec):
            raise ConfigError(f"systems.{name}: needs 'model' and 'train' (or 'ensemble' of other runs)")
        if "ensemble" in spec and ("pairs" in spec or "seeds" in spec):
            raise ConfigError(f"systems.{name}: an ensemble names its member runs and one pair")
        for p in plist:
            if p not in pairs:
                raise ConfigError(f"systems.{name}: unknown pair '{p}'")
        refuse_wall_clock(f"systems.{name}.train", spec.get("train"))
        seeds = spec.get("seeds")
        if seeds is not None and (not seeds or len(set(seeds)) != len(seeds)):
            raise ConfigError(f"systems.{name}.seeds: a non-empty list of distinct seeds")
        for p in plist:
            for seed in seeds if seeds is not None else [None]:
                run_id = name + (f".{p}" if "pairs" in spec else "") + (f".s{seed}" if seed is not None else "")
                if run_id in runs:
                    raise ConfigError(f"systems.{name}: run name '{run_id}' clashes with another system's run")
                run = {k: copy.deepcopy(v) for k, v in spec.items() if k not in ("pairs", "seeds")}
                run["pair"] = p
                run["test_pair"] = test_pair(pairs, p)
                if seed is not None:
                    run.setdefault("train", {})["seed"] = seed
                run["system"] = name
                run["seed"] = seed if seed is not None else run.get("train", {}).get("seed", 1)
                runs[run_id] = run
    for run_id, run in runs.items():
        if "extends" in run:
            run["extended_run"] = extended_run(runs, run_id, run)
        for member in run.get("ensemble", []):
            if member not in runs:
                raise ConfigError(f"systems.{run['system']}.ensemble: '{member}' is not a run (systems expand to: {sorted(runs)[:8]}...)")
            if runs[member]["pair"] != run["pair"]:
                raise ConfigError(f"systems.{run['system']}.ensemble: '{member}' translates another pair")
            if runs[member].get("ensemble"):
                raise ConfigError(f"systems.{run['system']}.ensemble: '{member}' is an ensemble itself")
    return runs


def extended_run(runs, run_id, run):
    """The run that `run` (a system with `extends: SYSTEM`) carries on: SYSTEM's run on the same pair
    with the same seed. It resumes that run's training state under a higher epoch cap (a longer
    budget without training the first epochs again; the Snakefile copies the state in), so model
    and train must equal the source's but for a larger max_epochs, which the trainer checks too (it
    resumes only a state of the same computation)."""
    where = f"systems.{run['system']}.extends"
    source = run["extends"]
    found = [r for r, spec in runs.items() if spec["system"] == source and spec["pair"] == run["pair"] and spec["seed"] == run["seed"]]
    if not found:
        raise ConfigError(f"{where}: no run of system '{source}' on pair '{run['pair']}' with seed {run['seed']} (run {run_id})")
    src = runs[found[0]]
    if "extends" in src:
        raise ConfigError(f"{where}: '{source}' extends another system itself; extend that one with a higher max_epochs")
    if src.get("model") != run.get("model"):
        raise ConfigError(f"{where}: run {run_id}'s model differs from {found[0]}'s; an extended run trains the same model")
    mine = {k: v for k, v in run.get("train", {}).items() if k != "max_epochs"}
    theirs = {k: v for k, v in src.get("train", {}).items() if k != "max_epochs"}
    if mine != theirs:
        differ = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
        raise ConfigError(f"{where}: run {run_id}'s train section differs from {found[0]}'s in {differ}; only max_epochs may change")
    if not run.get("train", {}).get("max_epochs", 0) > src.get("train", {}).get("max_epochs", 0):
        raise ConfigError(f"{where}: run {run_id} needs a larger train.max_epochs than {found[0]}'s")
    return found[0]


def test_pair(pairs, pair):
    """The pair whose table columns a run on `pair` fills (itself unless scores_as / multitask_parse)."""
    spec = pairs[pair]
    return spec.get("scores_as") or spec.get("multitask_parse", {}).get("from") or pair


SEED_SEP = "@s"  # "SYSTEM@sN": the run of SYSTEM with seed N, a one-run group (seed_matched)


def runs_of(runs, system, pair):
    """The runs of `system` evaluated on `pair` (trained on it, or on a multi-task mix built from it);
    for "SYSTEM@sN" only its run with seed N."""
    system, _, seed = system.partition(SEED_SEP)
    found = sorted((r for r, spec in runs.items() if spec["system"] == system and spec.get("test_pair", spec["pair"]) == pair
                    and (not seed or str(spec["seed"]) == seed)),
                   key=lambda r: (runs[r]["seed"], r))
    # two runs of one seed in one cell (pairs: [P, P_filtered] with P_filtered scoring as P) would
    # read as a seed group of two: mean, sd and a test across "seeds" that are not seeds
    seeds = [runs[r]["seed"] for r in found]
    if len(set(seeds)) != len(seeds):
        raise ConfigError(f"systems.{system}: {', '.join(found)} are all scored on {pair} with the same seed; "
                          "give the pairs separate systems")
    return found


def seed_matched(runs, system, rids, other, orids, where):
    """The two groups a bootstrap compares. Groups of equal size are compared whole (each a seed
    group's concatenated hypotheses). A one-run row against a seed group (or a seed group against a
    one-run row) is compared with the group's run of the same seed: the mini tables give the papers'
    headline rows 3 seeds and the other rows one, and a one-run row is then tested seed for seed.
    Returns (system, other) as group names, "SYSTEM@sN" for a restricted group."""
    if len(rids) == len(orids):
        return system, other
    if 1 not in (len(rids), len(orids)):
        raise ConfigError(f"{where}: seed groups of {len(rids)} and {len(orids)} runs: a bootstrap compares groups of "
                          "the same size, or one run with the run of its seed in the other group")
    single = rids[0] if len(rids) == 1 else orids[0]
    seed = runs[single]["seed"]
    group = other if len(rids) == 1 else system
    pool = orids if len(rids) == 1 else rids
    if not any(runs[r]["seed"] == seed for r in pool):
        raise ConfigError(f"{where}: the one-run side has seed {seed}, which the other group ({group}) does not train")
    if len(rids) == 1:
        return system, f"{other}{SEED_SEP}{seed}"
    return f"{system}{SEED_SEP}{seed}", other


def _column(table, i, c, pairs):
    where = f"tables.{table}.columns[{i}]"
    if "label" not in c:
        raise ConfigError(f"{where}: needs a label")
    if c.get("pair") not in pairs:
        raise ConfigError(f"{where} ({c['label']}): unknown pair '{c.get('pair')}'")
    has_metric, has_stat = "metric" in c, "stat" in c
    if has_metric == has_stat:
        raise ConfigError(f"{where} ({c['label']}): give exactly one of 'metric' ({'|'.join(HYP_METRICS)}) or 'stat'")
    if has_metric and c["metric"] not in HYP_METRICS:
        raise ConfigError(f"{where} ({c['label']}): metric '{c['metric']}' is not one of {HYP_METRICS}")
    if has_stat and not {"file", "key"} <= set(c["stat"]):
        raise ConfigError(f"{where} ({c['label']}): stat needs 'file' (in the run's folder) and 'key'")
    pair_spec = pairs[c["pair"]]
    if c.get("metric") == "ribes" and pair_spec.get("bleu", {}).get("tokenize") in UNSPACED_BLEU_TOKENIZERS \
            and "tokenize" not in pair_spec.get("ribes", {}):
        # RIBES splits on spaces: scored on an unsegmented reference, a sentence is one word
        raise ConfigError(f"{where} ({c['label']}): RIBES on pair {c['pair']}, whose BLEU segments the target "
                          f"({pair_spec['bleu']['tokenize']}), needs the pair's ribes: {{tokenize: ...}} "
                          f"(none if its references are segmented already)")
    tested = None
    if has_stat and "bootstrap" in c["stat"]:  # induced trees' DA/UA, tested by a paired bootstrap over sentences
        parts = c["stat"]["file"].split(".")
        if c["stat"]["bootstrap"] not in TREE_METRICS or len(parts) != 3 or parts[0] != "trees" or parts[2] != "json":
            raise ConfigError(f"{where} ({c['label']}): stat.bootstrap is one of {TREE_METRICS}, for a trees.SPLIT.json file "
                              f"(got bootstrap '{c['stat']['bootstrap']}' on '{c['stat']['file']}')")
        tested = {"split": parts[1], "metric": c["stat"]["bootstrap"]}
    split = c.get("test", "test")
    if split not in pair_splits(pairs[c["pair"]]):
        raise ConfigError(f"{where} ({c['label']}): pair {c['pair']} has no split '{split}' (has {sorted(pair_splits(pairs[c['pair']]))})")
    out = dict(c)
    out["test"] = split
    if tested:
        out["tested"] = tested
    out.setdefault("paper", c["label"])
    out.setdefault("decimals", 2)
    return out


def pair_splits(pair_spec):
    """Every split name of a pair: train, valid, test and its extra test sets."""
    names = {"train", "valid", "test"}
    return names | set(pair_spec.get("test_sets", {}))


def measured_path(template, col, where):
    """A measured row's file for one column: {pair} is the column's pair, {split} the split of the
    column's stat file when it is named NAME.SPLIT.json (trees.ewt.json: ewt), so one row can read
    each column's treebank split (e.g. the tree baselines on EWT and on PUD)."""
    parts = col.get("stat", {}).get("file", "").split(".")
    split = parts[1] if len(parts) == 3 and parts[2] == "json" else None
    if "{split}" in template and split is None:
        raise ConfigError(f"{where}: measured '{template}' uses {{split}}, but column '{col['label']}' reads "
                          f"'{col.get('stat', {}).get('file')}', not a NAME.SPLIT.json file")
    return template.format(pair=col["pair"], split=split)


PAPERS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "papers")


@functools.lru_cache(maxsize=None)
def _paper_tables(path):
    """A paper YAML's tables, read once per start-up (every table of an experiment checks its keys)."""
    with open(path) as f:
        return (yaml.safe_load(f) or {}).get("tables", {})


def check_paper_keys(table, paper, rows, columns, papers_dir=PAPERS_DIR):
    """Every row's and column's paper key (its label unless `paper:` says otherwise; null: none)
    must be a row / column of the paper's table: a misspelt key would leave the paper cell empty
    and drop the comparison from the verdicts and the tally without a word."""
    path = os.path.join(papers_dir, f"{paper['file']}.yaml")
    if not os.path.exists(path):
        raise ConfigError(f"tables.{table}.paper: no paper file {os.path.normpath(path)}")
    tables = _paper_tables(path)
    if paper["table"] not in tables:
        raise ConfigError(f"tables.{table}.paper: {os.path.normpath(path)} has no table '{paper['table']}'")
    paper_rows = tables[paper["table"]].get("rows", {})
    paper_columns = {k for cells in paper_rows.values() for k in cells}
    for r in rows:
        if r["paper"] is not None and r["paper"] not in paper_rows:
            raise ConfigError(f"tables.{table}: row '{r['label']}': the paper's {paper['table']} has no row '{r['paper']}' "
                              f"(rows: {', '.join(map(str, paper_rows))}; `paper: null` for a row the paper does not have)")
    for c in columns:
        if c.get("paper") is not None and c["paper"] not in paper_columns:
            raise ConfigError(f"tables.{table}: column '{c['label']}': the paper's {paper['table']} has no column '{c['paper']}' "
                              f"(columns: {', '.join(sorted(map(str, paper_columns)))}; `paper: null` for a column it does not have)")


def row_comparisons(compare, default_marks, where):
    """A row's `compare` list as [{"row", "marks", ...}]: marks given in the file stay; the others take,
    in order, the table's default pair and then the next pairs of MARK_SETS that no other comparison
    of the row uses. ConfigError when two comparisons of the row would share a symbol."""
    comparisons = [{"row": c} if isinstance(c, str) else dict(c) for c in compare]
    for c in comparisons:
        if "marks" in c and len(c["marks"]) != len(MARK_LEVELS):
            raise ConfigError(f"{where}.compare: marks are [p<0.05, p<0.01] symbols")
    used = [tuple(c["marks"]) for c in comparisons if "marks" in c]
    pool = [tuple(default_marks)] + [m for m in MARK_SETS if m != tuple(default_marks)]
    for c in comparisons:
        if "marks" not in c:
            free = next((m for m in pool if m not in used), None)
            if free is None:
                raise ConfigError(f"{where}.compare: more comparisons than mark pairs; give each its `marks`")
            c["marks"] = list(free)
            used.append(free)
    symbols = [s for c in comparisons for s in c["marks"]]
    if len(set(symbols)) != len(symbols):
        raise ConfigError(f"{where}.compare: two comparisons share a mark symbol ({', '.join(c['row'] for c in comparisons)}), "
                          "so a cell's marks would not say which comparison they come from")
    return comparisons


def resolve_table(table, spec, runs, pairs, results):
    """The table as cells: rows x columns, each cell with its runs and the files to read."""
    columns = [_column(table, i, c, pairs) for i, c in enumerate(spec["columns"])]
    labels = [r["label"] for r in spec["rows"]]
    if len(set(labels)) != len(labels):
        raise ConfigError(f"tables.{table}.rows: row labels must be unique")
    default_marks = spec.get("marks", DEFAULT_MARKS)
    baseline = spec.get("baseline")
    if baseline is not None and baseline not in labels:
        raise ConfigError(f"tables.{table}.baseline: '{baseline}' is not a row label")
    rows = []
    for i, r in enumerate(spec["rows"]):
        where = f"tables.{table}.rows[{i}] ({r['label']})"
        compare = r.get("compare")
        if compare is None:
            compare = [baseline] if baseline is not None and baseline != r["label"] else []
        comparisons = row_comparisons(compare, default_marks, where)
        for c in comparisons:
            if c["row"] not in labels or c["row"] == r["label"]:
                raise ConfigError(f"{where}.compare: '{c['row']}' is not another row of the table")
        if "measured" in r and ("system" in r or r.get("compare")):
            raise ConfigError(f"{where}: a 'measured' row reads a file, it has no system and no comparisons")
        rows.append({"label": r["label"], "system": r.get("system"), "paper": r.get("paper", r["label"]),
                     "comparisons": comparisons, "measured": r.get("measured")})
    if spec.get("paper"):
        check_paper_keys(table, spec["paper"], rows, columns)
    by_label = {r["label"]: r for r in rows}
    cells = {}
    for r in rows:
        for ci, col in enumerate(columns):
            if r["measured"] is not None:
                # a row measured without a run (e.g. a left-branching baseline): stat columns only
                path = measured_path(r["measured"], col, f"tables.{table}, row '{r['label']}'") if "stat" in col else None
                cells[(r["label"], ci)] = {"runs": [], "values": [f"{results}/{path}"], "tests": []} if path else None
                continue
            system = system_for(r, col)
            if system is None:
                cells[(r["label"], ci)] = None  # a row quoted from the paper only
                continue
            rids = runs_of(runs, system, col["pair"])
            if not rids:
                raise ConfigError(f"tables.{table}: row '{r['label']}' (system {system}) has no run on pair {col['pair']}")
            cell = {"runs": rids, "values": [value_file(results, rid, col) for rid in rids], "tests": []}
            if column_test(col):
                for c in r["comparisons"]:
                    other = system_for(by_label[c["row"]], col)
                    if other is None:
                        raise ConfigError(f"tables.{table}: row '{r['label']}' is compared with '{c['row']}', which has no system on {col['pair']}")
                    orids = runs_of(runs, other, col["pair"])
                    tested, against = seed_matched(runs, system, rids, other, orids,
                                                   f"tables.{table}: '{r['label']}' against '{c['row']}' on {col['pair']}")
                    test = {"row": c["row"], "marks": c["marks"], "file": significance_file(results, col, against, tested)}
                    if (tested, against) != (system, other):  # one side restricted to the run of one seed
                        restricted = tested if tested != system else against
                        test["seed"] = int(restricted.rpartition(SEED_SEP)[2])
                        test["seed_row"] = r["label"] if tested != system else c["row"]  # the seed group's row
                    cell["tests"].append(test)
                if spec.get("ci", False):
                    cell["ci_file"] = significance_file(results, col, system, system)
            cells[(r["label"], ci)] = cell
    return {"name": table, "title": spec["title"], "columns": columns, "rows": rows,
            "cells": [{"row": k[0], "column": k[1], **v} for k, v in cells.items() if v is not None],
            "paper": spec.get("paper"), "ci": spec.get("ci", False), "notes": spec.get("notes", [])}


def system_for(row, col):
    """The system of a row in a column: one system for the whole row, or {pair: system} when the
    row's runs differ per pair (e.g. another batch size for one language pair); None: paper only."""
    s = row["system"]
    return s.get(col["pair"]) if isinstance(s, dict) else s


def value_file(results, run_id, col):
    if "metric" in col:
        return f"{results}/systems/{run_id}/{col['metric']}.{col['test']}.json"
    return f"{results}/systems/{run_id}/{col['stat']['file']}"


def column_test(col):
    """(split, metric) of a column's paired significance tests: a translation metric on its test
    set, or a tested stat (induced trees' DA/UA on their treebank split); None: untested."""
    if "metric" in col:
        return col["test"], col["metric"]
    if "tested" in col:
        return col["tested"]["split"], col["tested"]["metric"]
    return None


def significance_file(results, col, baseline_system, system):
    """The paired bootstrap of `system` against `baseline_system` (both seed groups: their runs'
    hypotheses, or trees, concatenated) on one pair, test set and metric; baseline == system gives
    the bootstrap interval of one group."""
    split, metric = column_test(col)
    return f"{results}/significance/{col['pair']}/{split}/{metric}/{baseline_system}--{system}.json"


def group_hyp_file(results, system, pair, split, metric):
    if metric in TREE_METRICS:
        return f"{results}/groups/{system}/{pair}/trees.{split}.conllu"
    ext = "tok" if metric == "bleu_tok" else "txt"
    return f"{results}/groups/{system}/{pair}/hyp.{split}.{ext}"


def marks_for(p_value, marks):
    """The comparison's symbol for a p-value: marks[1] below 0.01, marks[0] below 0.05, else ''."""
    if p_value is None:
        return ""
    if p_value < MARK_LEVELS[1]:
        return marks[1]
    if p_value < MARK_LEVELS[0]:
        return marks[0]
    return ""
