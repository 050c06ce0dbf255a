# Tables: each configured table (rows = systems or seed groups, columns = pair x test set x
# statistic) resolved into cells by experiment.resolve_table, then written as Markdown + CSV by
# make_table.py beside the paper's own numbers (pipeline/papers/<paper>.yaml).

include: "helpers/tables.smk"


# The commit here is the checkout's when the run finished; the tables prefer the commits of the
# trainer builds that trained the run, which newer summaries list (run_record.py).
rule provenance:
    """When and from which checkout a run's results were recorded: the date is the training
    summary's modification time, never the clock of whoever regenerates a table; the commit is the
    checkout's when this rule last ran (Snakemake runs it again when the summary or this rule
    changes), not necessarily the build that trained. The builds that trained are the summary's
    sessions (run_record.commits), which the tables print; this commit stands in only for summaries
    written before the trainer recorded its sessions."""
    input:
        summary=f"{RESULTS}/systems/{{system}}/summary.json",
    output:
        f"{RESULTS}/systems/{{system}}/provenance.json",
    log:
        f"{WORK}/logs/provenance/{{system}}.log",
    benchmark:
        f"{WORK}/logs/provenance/{{system}}.benchmark.tsv",
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
        # the significance rule's sub-command and flags per metric column, so that the table's note
        # prints the command that reproduces its p-values (bleu_tok is `bleu -t none -s none`)
        paired_flags=lambda w: {i: {"command": score_command(c["metric"]), "flags": score_flags(c["pair"], c["metric"], paired=True),
                                    "ext": "tok" if c["metric"] == "bleu_tok" else "txt"}
                                for i, c in enumerate(TABLES[w.table]["columns"]) if "metric" in c},
        runs=lambda w: {r: {"system": SYSTEMS[r]["system"], "pair": SYSTEMS[r]["pair"], "seed": SYSTEMS[r]["seed"],
                            "slice": PAIR[SYSTEMS[r]["pair"]].slice, "budget": run_budget(r),
                            "gold_sentences": {g["split"]: g["sentences"] for g in PAIR[SYSTEMS[r]["pair"]].gold_trees
                                               if "sentences" in g},
                            "decode_only": "ensemble" in SYSTEMS[r]}
                        for r in table_runs(w.table)},
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
