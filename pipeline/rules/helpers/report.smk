# Helpers of report.smk (Snakemake's linter wants rules and functions in separate files).


REPORT = config.get("report", {})
EXPERIMENT_TABLES = [t for t in config["experiment"]["tables"] if t != "langid_filter"]


def table_first_metric_column(table):
    """The first hypothesis-scored column of a table (the length-bucket figure's test set), or None."""
    return next((c for c in TABLES[table]["columns"] if "metric" in c), None)


def table_row_runs(table, pair):
    """(row label, first run) of every measured row on a pair: the runs a figure shows."""
    out = []
    for row in TABLES[table]["rows"]:
        system = experiment.system_for(row, {"pair": pair})
        if system:
            runs = experiment.runs_of(SYSTEMS, system, pair)
            if runs:
                out.append((row["label"], runs[0]))
    return out


def trained_row_runs(table, pair):
    """(row label, run whose training a curve shows): a decode-only row shows its first member's."""
    return [(label, SYSTEMS[r]["ensemble"][0] if "ensemble" in SYSTEMS[r] else r) for label, r in table_row_runs(table, pair)]


def heatmap_spec(name):
    return next(h for h in REPORT.get("heatmaps", []) if h["name"] == name)


def report_figures():
    """(caption, PNG path, paper figure reference) of every figure of the experiment's report."""
    figs = []
    for t in EXPERIMENT_TABLES:
        if not table_runs(t):
            continue  # data statistics only (e.g. sentence counts): no curves, no lengths
        figs.append((f"{t}: training and validation curves (first run of each row)", f"{RESULTS}/figures/curves/{t}.png", ""))
        if table_first_metric_column(t) is not None:
            figs.append((f"{t}: BLEU by source length", f"{RESULTS}/figures/length/{t}.png", REPORT.get("length_paper_ref", "")))
    for h in REPORT.get("heatmaps", []):
        figs.append((h.get("caption", f"{h['tensor']} of {h['run']}"), f"{RESULTS}/figures/heatmap/{h['name']}.png", h.get("paper_ref", "")))
    return figs


def experiment_runs():
    return sorted({r for t in EXPERIMENT_TABLES for r in table_runs(t) if "ensemble" not in SYSTEMS[r]})
