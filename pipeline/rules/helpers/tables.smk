# Helpers of tables.smk (Snakemake's linter wants rules and functions in separate files).


def _resolve(table):
    try:
        return experiment.resolve_table(table, config["tables"][table], SYSTEMS, PAIRS, RESULTS)
    except experiment.ConfigError as e:
        raise ValueError(str(e)) from None

TABLES = {name: _resolve(name) for name in config["tables"]}
for _name in config["experiment"]["tables"]:
    if _name == "langid_filter":
        if not LANGID_SETS:
            raise ValueError("experiment.tables: langid_filter needs a langid_report block")
    elif _name not in TABLES:
        raise ValueError(f"experiment.tables: unknown table '{_name}'")


def table_runs(table):
    return sorted({r for c in TABLES[table]["cells"] for r in c["runs"]})


def trained_runs(runs):
    """The runs whose training produced these runs' models: a decode-only run stands for its
    members (their hardware and dates go into a table's header)."""
    return sorted({m for r in runs for m in SYSTEMS[r].get("ensemble", [r])})


def table_inputs(table):
    t = TABLES[table]
    inputs = {
        "values": sorted({f for c in t["cells"] for f in c["values"]}),
        "tests": sorted({x["file"] for c in t["cells"] for x in c["tests"]} | {c["ci_file"] for c in t["cells"] if "ci_file" in c}),
        "summaries": [f"{RESULTS}/systems/{r}/summary.json" for r in trained_runs(table_runs(table))],
        "provenance": [f"{RESULTS}/systems/{r}/provenance.json" for r in trained_runs(table_runs(table))],
    }
    if t["paper"]:
        inputs["paper"] = f"pipeline/papers/{t['paper']['file']}.yaml"
    return inputs


def run_budget(run):
    """A run's training budget in words, from its config (updates / epochs, never wall-clock alone)."""
    if "ensemble" in SYSTEMS[run]:
        members, which = SYSTEMS[run]["ensemble"], SYSTEMS[run]["decode"].get("checkpoint", "best")
        probes = SYSTEMS[run]["decode"].get("model_options", {})
        with_options = "".join(f", {k} = {v}" for k, v in sorted(probes.items()))
        if len(members) == 1:
            return f"{members[0]} decoded from its {which}.pt{with_options} ({run_budget(members[0])})"
        return f"ensemble of {', '.join(members)} ({which}.pt{with_options})"
    t = SYSTEMS[run].get("train", {})
    if t.get("lr") == 0:  # a checkpoint of the initial parameters (e.g. a pre-trained parser before NMT training)
        steps = t.get("max_steps", 0)
        return f"no training (learning rate 0; the initial parameters, saved after {steps} update{'s' if steps != 1 else ''})"
    parts = []
    if t.get("patience"):  # the convergence rule: the same words for every row trained by it
        metric = "BLEU" if t.get("keep_best") == "bleu" else "perplexity"
        per_epoch = t.get("valid_per_epoch", 1)
        every = "epoch" if per_epoch == 1 else f"1/{per_epoch} epoch" if per_epoch else f"{t['valid_interval']} updates"
        parts.append(f"until {t['patience']} validations (every {every}) without a better dev {metric}")
    if t.get("max_steps"):
        parts.append(f"{t['max_steps']} update{'s' if t['max_steps'] != 1 else ''}")
    parts.append(f"≤ {t.get('max_epochs', 10)} epochs")
    return ", ".join(parts)
