# Tables: one Markdown + CSV file per configured table, from the measured scores, the training
# summaries and the significance tests.


rule table:
    input:
        scores=lambda w: [
            f"{RESULTS}/systems/{s}/{m}.{config['tables'][w.table]['split']}.json"
            for s in table_systems(w.table)
            for m in table_metrics(w.table)
        ],
        summaries=lambda w: [f"{RESULTS}/systems/{s}/summary.json" for s in table_systems(w.table)],
        significance=lambda w: (
            [f"{RESULTS}/tables/{w.table}.{table_metrics(w.table)[0]}.paired_bs.json"]
            if len(table_systems(w.table)) > 1
            else []
        ),
    output:
        md=f"{RESULTS}/tables/{{table}}.md",
        csv=f"{RESULTS}/tables/{{table}}.csv",
    params:
        title=lambda w: config["tables"][w.table]["title"],
        systems=lambda w: table_systems(w.table),
        metrics=lambda w: table_metrics(w.table),
        pairs=lambda w: {s: SYSTEMS[s]["pair"] for s in table_systems(w.table)},
        slices=lambda w: {s: pair_of(s).get("slice", 0) for s in table_systems(w.table)},
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
    log:
        f"{WORK}/logs/tables/langid_filter.log",
    benchmark:
        f"{WORK}/benchmarks/tables/langid_filter.tsv"
    script:
        "../scripts/make_langid_table.py"
