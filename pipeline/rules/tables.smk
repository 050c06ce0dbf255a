# Tables: one Markdown + CSV file per configured table, from the measured scores and summaries.


rule table:
    input:
        scores=lambda w: [
            f"{RESULTS}/systems/{s}/bleu.{config['tables'][w.table]['split']}.json"
            for s in config["tables"][w.table]["systems"]
        ],
        summaries=lambda w: [f"{RESULTS}/systems/{s}/summary.json" for s in config["tables"][w.table]["systems"]],
    output:
        md=f"{RESULTS}/tables/{{table}}.md",
        csv=f"{RESULTS}/tables/{{table}}.csv",
    params:
        title=lambda w: config["tables"][w.table]["title"],
        systems=lambda w: config["tables"][w.table]["systems"],
        pairs=lambda w: {s: SYSTEMS[s]["pair"] for s in config["tables"][w.table]["systems"]},
        slices=lambda w: {s: pair_of(s).get("slice", 0) for s in config["tables"][w.table]["systems"]},
    log:
        f"{WORK}/logs/tables/{{table}}.log",
    benchmark:
        f"{WORK}/benchmarks/tables/{{table}}.tsv"
    script:
        "../scripts/make_table.py"
