# Scoring: one JSON per table cell (system x split x metric) from the detokenised hypotheses and
# the raw references, and per table the paired-bootstrap p-value of every row against its baseline.


rule score:
    input:
        hyp=f"{RESULTS}/systems/{{system}}/hyp.{{split}}.txt",
        ref=lambda w: f"{WORK}/{SYSTEMS[w.system]['pair']}/raw/{w.split}.tgt",
    output:
        f"{RESULTS}/systems/{{system}}/{{metric}}.{{split}}.json",
    params:
        bin=BIN,
        flags=lambda w: METRIC_FLAGS[w.metric],
    wildcard_constraints:
        metric="bleu|chrf|ribes",
    log:
        f"{RESULTS}/systems/{{system}}/{{metric}}.{{split}}.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/{{metric}}.{{split}}.benchmark.tsv"
    shell:
        "{params.bin}/synmt-score {wildcards.metric} -r {input.ref} --format json {params.flags} {input.hyp}"
        " > {output} 2> {log}"


rule significance:
    input:
        hyps=lambda w: [
            f"{RESULTS}/systems/{s}/hyp.{config['tables'][w.table]['split']}.txt" for s in table_systems(w.table)
        ],
        ref=lambda w: f"{WORK}/{SYSTEMS[table_systems(w.table)[0]]['pair']}/raw/{config['tables'][w.table]['split']}.tgt",
    output:
        f"{RESULTS}/tables/{{table}}.{{metric}}.paired_bs.json",
    params:
        bin=BIN,
        samples=lambda w: config["tables"][w.table].get("bootstrap", 1000),
        seed=lambda w: config["tables"][w.table].get("seed", 12345),
    threads: config["threads"]
    wildcard_constraints:
        metric="bleu|chrf|ribes",
    log:
        f"{WORK}/logs/tables/{{table}}.{{metric}}.paired_bs.log",
    benchmark:
        f"{WORK}/benchmarks/tables/{{table}}.{{metric}}.paired_bs.tsv"
    shell:
        "{params.bin}/synmt-score paired-bs -r {input.ref} --metric {wildcards.metric} --samples {params.samples}"
        " --seed {params.seed} --threads {threads} --format json --baseline {input.hyps} > {output} 2> {log}"
