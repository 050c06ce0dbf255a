"""Write one results table (Markdown for reading, long-format CSV for analysis) from what the DAG
measured: per cell the value (a seed group's mean ± sample standard deviation), the paired-bootstrap
marks against each comparison row, Δ to the first comparison row, optionally the bootstrap 95%
interval, and the paper's own number beside it; for every comparison the paper makes (a row
against its comparison row, per column) a verdict computed from both (verdict.py), and a tally of
the verdicts under the table. Where both rows of a comparison are seed groups, a note gives the
seed-level test too (Welch's t-test over the runs' scores): the bootstrap of the concatenated
outputs resamples test sentences and does not see how much training runs differ.

Everything printed comes from the inputs (scores, significance tests, training summaries, the runs'
provenance, the paper's YAML), never from the clock, so the same results give byte-identical files.
"""
import json
import os
import statistics
import sys

import yaml
from scipy import stats  # Welch's t-test across seeds: the t distribution's tail, not hand-written

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from experiment import MARK_LEVELS, METRIC_NAMES, marks_for  # noqa: E402
from experiment import system_for as experiment_system  # noqa: E402
from table_io import write_table  # noqa: E402
import metrics_io  # noqa: E402
import run_record  # noqa: E402
import verdict as verdicts  # noqa: E402

SCALE_NOTES = {
    "smoke": "smoke scale: tiny models on a few hundred sentences for a few dozen updates; the values only prove the wiring and mean nothing",
    "mini": "mini scale: the data of this repository's mirror, budgets sized for one machine; differences between systems are often within noise, read the marks",
    "paper": "paper scale: the papers' corpora and hyper-parameters",
    "demo": "demo: Multi30k on 2 CPU cores",
}


def load_json(path):
    with open(path) as f:
        return json.load(f)


def lookup(obj, key, path):
    for part in key.split("."):
        if not isinstance(obj, dict) or part not in obj:
            raise KeyError(f"{path}: no key '{key}'")
        obj = obj[part]
    return obj


def has_key(obj, key):
    for part in key.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return False
        obj = obj[part]
    return True


def load_summaries(summary_paths):
    """The training summaries (results/systems/RUN/summary.json), read once: path -> content."""
    return {path: load_json(path) for path in sorted(summary_paths)}


def lr_halvings(run_dir):
    """The updates at whose validation a run halved its learning rate (the halving took effect for
    the training after it), from the run's training record (metrics.jsonl); None for a run that does
    not halve on a plateau (config.json, the options the trainer ran with, its defaults included)
    or has no such record of its options. Where a budget cap stops runs that are still improving, a
    halving shortly before the cap lowers the final perplexity at once, so whether and when it
    happened is part of reading a row."""
    config_path = os.path.join(run_dir, "config.json")
    config = load_json(config_path) if os.path.exists(config_path) else {}
    if not config.get("train", {}).get("halve_lr_on_plateau"):
        return None
    path = os.path.join(run_dir, "metrics.jsonl")
    if not os.path.exists(path):
        sys.exit(f"{path}: missing; the run halves its rate on a plateau and its training record says when")
    lr_at = {}  # update -> rate; a resumed run repeats the validations since its last state: the last one stands
    try:
        for number, record in metrics_io.records(path):
            if record.get("type") == "valid":
                if "step" not in record or "lr" not in record:
                    raise metrics_io.RecordError(path, number, "a validation record without 'step' and 'lr'")
                lr_at[record["step"]] = record["lr"]
    except metrics_io.RecordError as e:
        sys.exit(str(e))
    steps = sorted(lr_at)
    return [before for before, after in zip(steps, steps[1:]) if lr_at[after] < lr_at[before]]


def epochs_reached(summaries):
    """Per system, its runs' epochs and updates from the training summaries (path -> content), so that
    a reader sees where the convergence rule or the cap stopped each row; for runs that halve their
    rate on a plateau, the updates at which they did."""
    by_system = {}
    for path, s in sorted(summaries.items()):
        run = os.path.basename(os.path.dirname(path))
        system, _, seed = run.rpartition(".s")
        if not system or not seed.isdigit():
            system, seed = run, ""
        value = f"{s['epochs']} / {s['steps']}"
        halved = lr_halvings(os.path.dirname(path))
        if halved is not None:
            value += f" (lr halved at update{'s' if len(halved) > 1 else ''} {', '.join(map(str, halved))})" if halved else " (lr not halved)"
        by_system.setdefault(system, []).append(value)
    return [f"{system} {', '.join(values)}" for system, values in sorted(by_system.items())]


def seeds_by_system(runs):
    """{system: {seed, ...}} of a table's trained runs: which seeds each row's mean is over (a system
    that only decodes other runs' checkpoints has no seed of its own; its budget names its runs)."""
    out = {}
    for r in runs.values():
        if not r.get("decode_only"):
            out.setdefault(r["system"], set()).add(r["seed"])
    return out


def hardware_line(summaries):
    """The hardware the runs trained on (summaries: path -> content); where there is more than one kind
    (e.g. a few runs on a lent GPU, the rest on CPUs), each kind names its runs, so a reader sees which
    rows ran where."""
    runs_on = {}
    for path, s in sorted(summaries.items()):
        for kind in run_record.hardware(s):  # a run resumed elsewhere is named under each kind
            runs_on.setdefault(kind, []).append(os.path.basename(os.path.dirname(path)))
    if len(runs_on) <= 1:
        return "; ".join(runs_on) or "n/a"
    return "; ".join(f"{hw} ({len(r)} run{'s' if len(r) > 1 else ''}: {', '.join(r)})" for hw, r in sorted(runs_on.items()))


# metrics shown on another scale than the scorer's: RIBES.py scores in [0, 1], papers print x 100
DISPLAY_SCALE = {"ribes": 100.0}


def cell_value(path, column):
    data = load_json(path)
    if "metric" in column:
        return DISPLAY_SCALE.get(column["metric"], 1.0) * float(data["score"]), data.get("signature", "")
    return float(lookup(data, column["stat"]["key"], path)), ""


def signature_notes(signatures):
    """The notes' signature lines from {metric: {signature: column labels}}. Columns of one metric
    can be scored differently (BLEU with 13a for Ja-En, on MeCab tokens for En-Ja): one line per
    signature, naming its columns when a metric has more than one."""
    notes = []
    for metric, by_sig in sorted(signatures.items()):
        scale = f" (scores x {DISPLAY_SCALE[metric]:g}, as the papers print them)" if metric in DISPLAY_SCALE else ""
        for sig, labels in by_sig.items():
            which = f" ({', '.join(labels)})" if len(by_sig) > 1 else ""
            notes.append(f"{METRIC_NAMES.get(metric, metric)} signature{which}: `{sig}`{scale}.")
    return notes


def fmt(x, decimals):
    return "" if x is None else f"{x:.{decimals}f}"


def signed(x, decimals):
    return "" if x is None else f"{x:+.{decimals}f}"


def paper_cell(paper, row, column):
    """(text, value) of the paper's number for a cell, or ('', None)."""
    if paper is None or column.get("paper") is None:
        return "", None
    v = paper["rows"].get(row["paper"], {}).get(column["paper"])
    if v is None:
        return "", None
    mark = paper.get("marks", {}).get(row["paper"], {}).get(column["paper"], "")
    if isinstance(v, dict):
        text = f"{v['value']}"
        if "sd" in v:
            text += f" ± {v['sd']}"
        if "var" in v:
            text += f" ± {v['var']} (variance)"
        if "ci" in v:
            text += f" [{v['ci'][0]}, {v['ci'][1]}]"
        return text + mark, float(v["value"])
    return f"{v}{mark}", float(v)


def seed_summary(values):
    """(mean, sample standard deviation or None for a single run, number of runs) of a cell's runs."""
    return statistics.fmean(values), (statistics.stdev(values) if len(values) > 1 else None), len(values)


def runs_note(rows, columns, cells, measured, runs):
    """The note that lists every run's own score in a seed group, so that a page's seed-by-seed
    reading quotes generated figures: "ROW (seeds 1, 2, 3): COLUMN a, b, c; ..." per row with more
    than one run, columns in table order; a column whose runs have other seeds than the row's
    first listed column names its own ("COLUMN (seeds 1, 3) a, b"); None when no cell has several
    runs."""
    parts = []
    for row in rows:
        seeds, texts = None, []
        for ci, col in enumerate(columns):
            c = cells.get((row["label"], ci))
            if c is None or len(c["runs"]) < 2:
                continue
            col_seeds = [runs[r]["seed"] for r in c["runs"]]
            seeds = seeds or col_seeds
            own = "" if col_seeds == seeds else f" (seeds {', '.join(str(x) for x in col_seeds)})"
            texts.append(f"{col['label']}{own} " + ", ".join(fmt(v, col["decimals"]) for v in measured[(row["label"], ci)]))
        if texts:
            parts.append(f"{row['label']} (seeds {', '.join(str(x) for x in seeds)}): " + "; ".join(texts))
    return ("Each run (seed order): " + " · ".join(parts) + ".") if parts else None


def seed_level_p(measured, cell, base):
    """Welch's two-sided t-test p-value of two seed groups' per-run values (both with 2 or more runs
    and some spread), else None."""
    a, b = measured.get(cell, []), measured.get(base, [])
    if len(a) < 2 or len(b) < 2 or (statistics.pstdev(a) == 0 and statistics.pstdev(b) == 0):
        return None
    return float(stats.ttest_ind(a, b, equal_var=False).pvalue)


def comparison_verdict(paper, rows, row, col, ci, comp, cell, measured, decimals):
    """('vs ROW: paper +1.30‡ · here +0.87† · agrees', verdict) for one comparison in one column, or
    ('', None) when the paper or the measurement lacks one of the two rows."""
    if paper is None or col.get("paper") is None:
        return "", None
    base_row = next(r for r in rows if r["label"] == comp["row"])
    _, p_row = paper_cell(paper, row, col)
    _, p_base = paper_cell(paper, base_row, col)
    if p_row is None or p_base is None or (comp["row"], ci) not in measured or (row["label"], ci) not in measured:
        return "", None
    paper_delta = round(p_row - p_base, 6)
    paper_mark = verdicts.paper_marks(paper, row["paper"], col["paper"], base_row.get("paper"))
    paper_sig = verdicts.paper_significance(paper, row["paper"], col["paper"], base_row.get("paper"))
    measured_delta = statistics.fmean(measured[(row["label"], ci)]) - statistics.fmean(measured[(comp["row"], ci)])
    test = next((x for x in cell["tests"] if x["row"] == comp["row"]), None)
    mark, sig, conflicting = "", None, False
    if test is not None:
        base, entry = load_json(test["file"])[:2]
        sig = entry["score"] != base["score"] and entry["p_value"] < MARK_LEVELS[0]  # what marks_for marks
        mark = marks_for(entry["p_value"], test["marks"]) if entry["score"] != base["score"] else ""
        tested_delta = DISPLAY_SCALE.get(col.get("metric"), 1.0) * (entry["score"] - base["score"])
        if tested_delta * measured_delta < 0 and mark:
            # what the test compares points the other way than Δ, significantly: the one-seed pair
            # (a one-run row against a group's run of that seed), or two groups' concatenated
            # outputs, whose corpus scores are not the means of their runs' scores (BLEU of a
            # concatenation weighs long outputs more); that says nothing for Δ's direction
            what = f"seed-{test['seed']} pair" if "seed" in test else "concatenated runs"
            mark = f" ({what} {tested_delta:+.{decimals}f}{mark})"
            sig, conflicting = False, True
    result = verdicts.verdict(paper_delta, paper_sig, measured_delta, sig, conflicting)
    return verdicts.verdict_text(comp["row"], paper_delta, paper_mark, measured_delta, mark, result, decimals), result



def paper_marks_note(paper, recorded):
    """The verdict note's sentence on the paper's own marks: unknown (printed, not legible), not
    recorded (its differences count as unmarked), or nothing where they are recorded."""
    if paper.get("marks_unknown"):
        return (" The paper marks significance in this table, but its marks are not recorded here (not legible in the "
                "text transcribed): a same-sign difference agrees only where it is significant here, as against a marked one.")
    if recorded:
        return ""
    return " The paper's significance marks are not recorded for this table: its differences count as unmarked."


def pvalue_commands(columns, paired_flags, results, boot):
    """The note's commands that reproduce a metric column's p-values: the significance rule's own
    sub-command and flags (paired_flags: column index -> {"command", "flags", "ext"}, from
    eval.smk's score_flags), one command per distinct form, naming its columns where they differ.
    PAIR, TEST, N, BASELINE and SYSTEM stay placeholders (a column's pair and test set, the number
    of runs in the compared group, the rows' group names)."""
    forms = {}  # command text -> the labels of the columns it reproduces
    for i, col in enumerate(columns):
        if "metric" not in col:
            continue
        p = paired_flags[i] if i in paired_flags else paired_flags[str(i)]
        flags = f" {p['flags']}" if p["flags"] else ""
        ext = p["ext"]
        text = (f"`synmt-score paired-bs -r {results}/groups/references/PAIR/TEST.xN.{ext} --metric {p['command']}{flags} "
                f"--samples {boot['samples']} --seed {boot['seed']} --runs N --baseline {results}/groups/BASELINE/PAIR/hyp.TEST.{ext} "
                f"{results}/groups/SYSTEM/PAIR/hyp.TEST.{ext}`")
        forms.setdefault(text, []).append(col["label"])
    if len(forms) == 1:
        return f"To reproduce a p-value: {next(iter(forms))}."
    return "To reproduce a p-value: " + "; ".join(f"{', '.join(labels)}: {text}" for text, labels in forms.items()) + "."


def main(sm):
    t = sm.params.table
    results = os.path.dirname(os.path.dirname(sm.output.md))  # RESULTS/tables/NAME.md
    runs = sm.params.runs
    boot = sm.params.bootstrap
    exp = sm.params.experiment
    paper = None
    paper_doc = None
    if t["paper"]:
        paper_doc = yaml.safe_load(open(sm.input.paper))
        if t["paper"]["table"] not in paper_doc.get("tables", {}):
            raise KeyError(f"{sm.input.paper}: no table '{t['paper']['table']}'")
        paper = paper_doc["tables"][t["paper"]["table"]]
    columns = t["columns"]
    cells = {(c["row"], c["column"]): c for c in t["cells"]}
    signatures = {}  # metric -> {signature: the labels of the columns scored with it}, in column order
    measured = {}  # (row, column) -> the runs' values: one per seed of the row's group
    for key, c in list(cells.items()):
        col = columns[key[1]]
        if not c["runs"] and "stat" in col and not has_key(load_json(c["values"][0]), col["stat"]["key"]):
            del cells[key]  # a measured row without this statistic (the undirected chain has no DA): "–"
            continue
        vals = []
        for f in c["values"]:
            v, sig = cell_value(f, col)
            vals.append(v)
            if sig:
                labels = signatures.setdefault(col.get("metric"), {}).setdefault(sig, [])
                if col["label"] not in labels:
                    labels.append(col["label"])
        measured[key] = vals
    any_tests = any(c["tests"] for c in cells.values())
    any_comparisons = any(r["comparisons"] for r in t["rows"])
    md_cols = ["system"]
    for col in columns:
        md_cols.append(col["label"])
        if any_comparisons:
            md_cols.append(f"Δ ({col['label']})")
        if t["ci"] and "metric" in col:
            md_cols.append(f"95% CI ({col['label']})")
        if paper is not None and col.get("paper") is not None:  # paper: null = no paper counterpart
            md_cols.append(f"paper ({col['paper']})")
            if any_comparisons:
                md_cols.append(f"verdict ({col['label']})")
    md_rows, csv_rows = [], []
    all_verdicts = []
    seed_notes = {}  # "ROW vs BASE" -> ["COLUMN p = 0.19", ...]
    paper_marks_recorded = paper is not None and bool(paper.get("marks"))
    for row in t["rows"]:
        md = {"system": row["label"]}
        for ci, col in enumerate(columns):
            d = col["decimals"]
            ptext, pvalue = paper_cell(paper, row, col)
            if paper is not None and col.get("paper") is not None:
                md[f"paper ({col['paper']})"] = ptext
            c = cells.get((row["label"], ci))
            csv = {"row": row["label"], "system": (experiment_system(row, col) or ""), "column": col["label"], "pair": col["pair"],
                   "test": col["test"], "statistic": col.get("metric") or col["stat"]["key"], "paper": ptext,
                   "paper_value": "" if pvalue is None else pvalue}
            if c is None:
                md[col["label"]] = "–" if row.get("measured") else "(paper only)"
                csv_rows.append(csv)
                continue
            mean, sd, n = seed_summary(measured[(row["label"], ci)])
            marks, pvals = "", []
            for test in c["tests"]:
                base, entry = load_json(test["file"])[:2]
                # identical scores: sacreBLEU's p-value is then 1/(samples+1), which is no evidence
                # of a difference; no mark
                if entry["score"] != base["score"]:
                    marks += marks_for(entry["p_value"], test["marks"])
                pvals.append(f"vs {test['row']}: {entry['p_value']:.4f}")
            text = fmt(mean, d) + (f" ± {fmt(sd, d)}" if sd is not None else "") + (f" (n={n})" if n > 1 else "") + (f" {marks}" if marks else "")
            md[col["label"]] = text
            delta = None
            if row["comparisons"] and (row["comparisons"][0]["row"], ci) in measured:
                delta = mean - statistics.fmean(measured[(row["comparisons"][0]["row"], ci)])
                md[f"Δ ({col['label']})"] = signed(delta, d)
            lo = hi = None
            if "ci_file" in c:
                b = load_json(c["ci_file"])[0]
                scale = DISPLAY_SCALE.get(col.get("metric"), 1.0)
                lo, hi = scale * (b["mean"] - b["ci"]), scale * (b["mean"] + b["ci"])
                md[f"95% CI ({col['label']})"] = f"[{fmt(lo, d)}, {fmt(hi, d)}]"
            seed_tests = []
            for comp in row["comparisons"]:
                p = seed_level_p(measured, (row["label"], ci), (comp["row"], ci))
                if p is not None:
                    seed_tests.append(f"vs {comp['row']}: {p:.4f}")
                    seed_notes.setdefault(f"{row['label']} vs {comp['row']}", []).append(f"{col['label']} p = {p:.2f}")
            texts = []
            for comp in row["comparisons"]:
                text, result = comparison_verdict(paper, t["rows"], row, col, ci, comp, c, measured, d)
                if text:
                    texts.append(text)
                    all_verdicts.append(result)
            if texts:
                md[f"verdict ({col['label']})"] = "; ".join(texts)
            csv.update({"n": n, "value": fmt(mean, 4), "sd": fmt(sd, 4), "marks": marks, "p_values": "; ".join(pvals),
                        "p_seeds": "; ".join(seed_tests),
                        "verdicts": "; ".join(texts),
                        "delta": signed(delta, 4), "ci_low": fmt(lo, 4), "ci_high": fmt(hi, 4),
                        "runs": " ".join(c["runs"]),
                        "budget": "; ".join(sorted({runs[r]["budget"] for r in c["runs"]}))})
            csv_rows.append(csv)
        md_rows.append(md)
    csv_cols = ["row", "system", "column", "pair", "test", "statistic", "n", "value", "sd", "marks", "p_values", "p_seeds", "delta",
                "ci_low", "ci_high", "paper", "paper_value", "verdicts", "runs", "budget"]

    # header: scale, hardware, budget, date and commit from the results, signatures, bootstrap
    prov = [load_json(p) for p in sm.input.provenance]
    dates = sorted({p["date"] for p in prov})
    summaries = load_summaries(sm.input.summaries)
    # summaries and provenance list the same runs in the same order (helpers/tables.smk)
    commits = sorted({c for path, p in zip(sm.input.summaries, prov) for c in run_record.commits(summaries[path], p)})
    slices = sorted({r["slice"] for r in runs.values()})
    # gold treebanks cut to their first sentences (gold_trees.sentences)
    gold_subsets = sorted({(split, n) for r in runs.values() for split, n in r.get("gold_sentences", {}).items()})
    scale = exp.get("scale", "")
    header = [
        f"Experiment `{exp['name']}`, scale **{scale}**: {SCALE_NOTES.get(scale, scale)}."
        + ("" if slices in ([0], []) else f" Corpora sliced to the first {', '.join(str(s) for s in slices if s)} lines of each split.")
        + "".join(f" Gold trees of `{split}`: its first {n} sentences only." for split, n in gold_subsets),
    ]
    if runs:  # a table of data statistics only (e.g. sentence counts) has no runs to describe
        header += [
            f"Hardware: {hardware_line(summaries)}.",
            "Training budget: " + "; ".join(f"{s}: {b}" for s, b in sorted({(r['system'], r['budget']) for r in runs.values()})) + ".",
            "Seeds (runs per system): " + "; ".join(f"{s}: {', '.join(str(n) for n in sorted(seeds))}"
                                                    for s, seeds in sorted(seeds_by_system(runs).items())) + ".",
            f"Results recorded {dates[0] if len(dates) == 1 else dates[0] + ' to ' + dates[-1]}" if dates else "Results recorded: n/a",
        ]
        reached = epochs_reached(summaries)
        if reached:
            header.insert(-1, "Training reached (epochs / updates per run): " + "; ".join(reached) + ".")
        header[-1] += f" at commit {', '.join(commits)}." if commits else "."
    else:
        header.append("Data statistics of the pipeline's stages (no trained systems).")
    if paper is not None:
        caption = f": {paper['caption'].rstrip('.')}" if paper.get("caption") else ""
        header.append(f"Paper column: {paper.get('source', t['paper']['table'])} of {paper_doc.get('citation', t['paper']['file']).rstrip('.')}"
                      f"{caption}. Compare the direction and size of differences, not absolute values.")
    notes = []
    notes += signature_notes(signatures)
    if any_tests or t["ci"]:
        seen = []
        for row in t["rows"]:
            for c in row["comparisons"]:
                seen.append(f"{c['marks'][0]} p < 0.05, {c['marks'][1]} p < 0.01 against {c['row']}")
        if seen:
            notes.append("Marks: " + "; ".join(dict.fromkeys(seen)) + ".")
        matched = sorted({(x.get("seed_row", x["row"]), x["seed"]) for c in cells.values() for x in c["tests"] if "seed" in x})
        if matched:
            notes.append("A one-run row and a seed group are tested with the group's run of the same seed (one run each): "
                         + "; ".join(f"{row}'s seed-{seed} run" for row, seed in matched)
                         + ". Δ stays the difference to the group's mean.")
        if any("metric" in col for col in t["columns"]):
            notes.append(f"Paired bootstrap resampling (sacreBLEU's --paired-bs; no mark where both scores are identical), {boot['samples']} resamples, seed {boot['seed']}; "
                         "a seed group is tested on the concatenation of its runs' hypotheses against the reference repeated once per run, "
                         "resampled by test sentence (a resample keeps every run's translation of each sentence it draws: N runs, --runs N). "
                         "Δ is the difference of means to the first compared row. "
                         + pvalue_commands(t["columns"], sm.params.paired_flags, results, boot))
        if any("tested" in col for col in t["columns"]):
            notes.append(f"Attachment scores (DA, UA) are tested by paired bootstrap resampling over the treebank's sentences (the same "
                         f"procedure; a sentence's words are resampled together), {boot['samples']} resamples, seed {boot['seed']}; "
                         "a seed group is tested on the concatenation of its runs' trees against the gold trees repeated once per run, "
                         "resampled by sentence (every run's tree of a drawn sentence: --runs N). "
                         "Δ is the difference of means to the first compared row. To reproduce a p-value: "
                         f"`synmt-trees paired-bs --gold {results}/groups/references/PAIR/SPLIT.xN.conllu --metric da|ua --samples {boot['samples']} "
                         f"--seed {boot['seed']} --runs N --baseline {results}/groups/BASELINE/PAIR/trees.SPLIT.conllu {results}/groups/SYSTEM/PAIR/trees.SPLIT.conllu`.")
    if any(len(v) > 1 for v in measured.values()):
        notes.append("Seed groups: mean ± sample standard deviation (n − 1) over the runs.")
        each = runs_note(t["rows"], columns, cells, measured, runs)
        if each:
            notes.append(each)
    if seed_notes:
        notes.append("Across seeds (Welch's t-test over the runs' scores, two-sided; the bootstrap above resamples test "
                     "sentences of the concatenated outputs and does not see how much training runs differ): "
                     + "; ".join(f"{k}: {', '.join(v)}" for k, v in seed_notes.items()) + ".")
    notes += t.get("notes", [])
    if paper is not None and verdicts.mark_legend(paper) and any(
            (paper.get("marks") or {}).get(r.get("paper"), {}).get(c.get("paper")) for r in t["rows"] for c in t["columns"]):
        notes.append(f"The paper column's marks are the paper's own tests: {verdicts.mark_legend(paper)}.")
    if paper is not None and any_comparisons:
        notes.append("Verdict, per comparison the paper makes (\"paper\": its difference and marks; \"here\": the measured Δ and "
                     "the bootstrap mark): agrees = same sign, and significant here where the paper's was; not significant = "
                     "neither agreement nor a significant contradiction; contradicts = significant here with the opposite sign; "
                     "untested = a statistic without a significance test, its sign only."
                     + paper_marks_note(paper, paper_marks_recorded))
        notes.append(verdicts.tally_line(verdicts.tally(all_verdicts)))
    write_table(sm.output.csv, sm.output.md, t["title"], md_cols, md_rows, notes, header=header, csv_cols=csv_cols,
                csv_rows=csv_rows)


if __name__ == "__main__":  # run by Snakemake's script: directive; imported by the tests
    main(snakemake)  # noqa: F821 (injected by Snakemake)
