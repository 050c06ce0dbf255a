# Tables: each configured table (rows = systems or seed groups, columns = pair x test set x
# statistic) resolved into cells by experiment.resolve_table, then written as Markdown + CSV by
# make_table.py beside the paper's own numbers (pipeline/papers/<paper>.yaml).


def _resolve(table):
    try:
        return experiment.resolve_table(table, config["tables"][table], SYSTEMS, PAIRS, RESULTS)
    except experiment.ConfigError as e:
        raise ValueError(str(e)) from None


TABLES = {name: _resolve(name) for name in config["tables"]}
for _name in config["experiment"]["tables"]:
    if _name not in TABLES:
        raise ValueError(f"experiment.tables: unknown table '{_name}'")


def table_runs(table):
    return sorted({r for c in TABLES[table]["cells"] for r in c["runs"]})


def table_inputs(table):
    t = TABLES[table]
    inputs = {
        "values": sorted({f for c in t["cells"] for f in c["values"]}),
        "tests": sorted({x["file"] for c in t["cells"] for x in c["tests"]} | {c["ci_file"] for c in t["cells"] if "ci_file" in c}),
        "summaries": [f"{RESULTS}/systems/{r}/summary.json" for r in table_runs(table) if "ensemble" not in SYSTEMS[r]],
        "provenance": [f"{RESULTS}/systems/{r}/provenance.json" for r in table_runs(table) if "ensemble" not in SYSTEMS[r]],
    }
    if t["paper"]:
        inputs["paper"] = f"pipeline/papers/{t['paper']['file']}.yaml"
    return inputs


def run_budget(run):
    """A run's training budget in words, from its config (updates / epochs, never wall-clock alone)."""
    if "ensemble" in SYSTEMS[run]:
        return "ensemble of " + ", ".join(SYSTEMS[run]["ensemble"])
    t = SYSTEMS[run].get("train", {})
    parts = []
    if t.get("max_steps"):
        parts.append(f"{t['max_steps']} updates")
    parts.append(f"≤ {t.get('max_epochs', 10)} epochs")
    if t.get("max_minutes"):
        parts.append(f"≤ {t['max_minutes']} min")
    return ", ".join(parts)


rule provenance:
    """When and from which commit a run's results were recorded: the date is the training
    summary's modification time, never the clock of whoever regenerates a table."""
    input:
        summary=f"{RESULTS}/systems/{{system}}/summary.json",
    output:
        f"{RESULTS}/systems/{{system}}/provenance.json",
    log:
        f"{WORK}/logs/provenance/{{system}}.log",
    shell:
        "(commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown);"
        " if [ -n \"$(git status --porcelain --untracked-files=no 2>/dev/null | head -1)\" ]; then commit=$commit+dirty; fi;"
        " printf '{{\"commit\": \"%s\", \"date\": \"%s\"}}\\n' $commit $(date -u -r {input.summary} +%Y-%m-%d) > {output}) 2> {log}"


rule table:
    input:
        unpack(lambda w: table_inputs(w.table)),
    output:
        md=f"{RESULTS}/tables/{{table}}.md",
        csv=f"{RESULTS}/tables/{{table}}.csv",
    params:
        table=lambda w: TABLES[w.table],
        experiment=config["experiment"],
        bootstrap=config["bootstrap"],
        runs=lambda w: {r: {"system": SYSTEMS[r]["system"], "pair": SYSTEMS[r]["pair"], "seed": SYSTEMS[r]["seed"],
                            "slice": PAIRS[SYSTEMS[r]["pair"]].get("slice", 0), "budget": run_budget(r)}
                        for r in table_runs(w.table)},
        results=RESULTS,
    log:
        f"{WORK}/logs/tables/{{table}}.log",
    benchmark:
        f"{WORK}/benchmarks/tables/{{table}}.tsv"
    script:
        "../scripts/make_table.py"


rule langid_table:
    input:
        reports=[f"{RESULTS}/reports/langid/{name}.json" for name in LANGID_SETS],
    output:
        md=f"{RESULTS}/tables/langid_filter.md",
        csv=f"{RESULTS}/tables/langid_filter.csv",
    params:
        title=config.get("langid_report", {}).get("title", ""),
        sets=list(LANGID_SETS.values()),
        experiment=config["experiment"],
        seed=config.get("langid_report", {}).get("seed", 0),
    log:
        f"{WORK}/logs/tables/langid_filter.log",
    benchmark:
        f"{WORK}/benchmarks/tables/langid_filter.tsv"
    script:
        "../scripts/make_langid_table.py"
