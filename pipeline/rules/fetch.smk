# Fetching: each split of a pair from the corpora (the local mirror, else the corpus' URL, checked
# by sha256), concatenated in order and cut to the pair's slice; a resplit pair's pool split by
# seed; the language-identification report's sets. The corpora files say where each file is.

include: "helpers/fetch.smk"


rule fetch_split:
    input:
        # a resplit pair's splits come from its pool (rule resplit), others from the corpora
        lambda w: [f"{WORK}/{w.pair}/pool/{w.split}.{s}" for s in ("src", "tgt")] if from_pool(w.pair, w.split) else [],
    output:
        src=f"{WORK}/{{pair}}/raw/{{split}}.src",
        tgt=f"{WORK}/{{pair}}/raw/{{split}}.tgt",
    params:
        command=lambda w, output: fetch_split_command(w, output),
    log:
        f"{WORK}/logs/fetch/{{pair}}.{{split}}.log",
    benchmark:
        f"{WORK}/benchmarks/fetch/{{pair}}.{{split}}.tsv"
    shell:
        "({params.command}) 2> {log}"


rule fetch_pool:
    output:
        src=f"{WORK}/{{pair}}/pool/all.src",
        tgt=f"{WORK}/{{pair}}/pool/all.tgt",
    params:
        command=lambda w, output: fetch_sources_command(w.pair, split_sources(w.pair, spec=PAIRS[w.pair]["resplit"]["pool"]), output),
    log:
        f"{WORK}/logs/fetch/{{pair}}.pool.log",
    benchmark:
        f"{WORK}/benchmarks/fetch/{{pair}}.pool.tsv"
    shell:
        "({params.command}) 2> {log}"


rule resplit:
    """One pool of pairs (a corpus that ships as one file) split into train/valid/test by distinct
    source sentence with a seed; training pairs whose source is in valid or test are dropped."""
    input:
        src=f"{WORK}/{{pair}}/pool/all.src",
        tgt=f"{WORK}/{{pair}}/pool/all.tgt",
    output:
        **{f"{split}_{side}": f"{WORK}/{{pair}}/pool/{split}.{side}" for split in ("train", "valid", "test") for side in ("src", "tgt")},
        report=f"{RESULTS}/reports/{{pair}}.resplit.json",
    params:
        bin=BIN,
        r=lambda w: PAIRS[w.pair]["resplit"],
        out=lambda w: f"{WORK}/{w.pair}/pool",
    log:
        f"{WORK}/logs/resplit/{{pair}}.log",
    benchmark:
        f"{WORK}/benchmarks/resplit/{{pair}}.tsv"
    shell:
        "{params.bin}/synmt-resplit --src {input.src} --tgt {input.tgt} --valid {params.r[valid]} --test {params.r[test]}"
        " --seed {params.r[seed]} --out-dir {params.out} --report {output.report} 2> {log}"


rule fetch_langid_set:
    output:
        src=f"{WORK}/langid_sets/{{lset}}.src",
        tgt=f"{WORK}/langid_sets/{{lset}}.tgt",
    params:
        bin=BIN,
        mirror=config["mirror"],
        src=lambda w, output: fetch_flags([(LANGID_SETS[w.lset]["corpus"], LANGID_SETS[w.lset]["stem"])], LANGID_SETS[w.lset]["src"], output.src),
        tgt=lambda w, output: fetch_flags([(LANGID_SETS[w.lset]["corpus"], LANGID_SETS[w.lset]["stem"])], LANGID_SETS[w.lset]["tgt"], output.tgt),
    log:
        f"{WORK}/logs/fetch/langid_set.{{lset}}.log",
    benchmark:
        f"{WORK}/benchmarks/fetch/langid_set.{{lset}}.tsv"
    shell:
        "({params.bin}/synmt-fetch --mirror '{params.mirror}' {params.src} {params.tgt}"
        " && mv {output.src}.0 {output.src} && mv {output.tgt}.0 {output.tgt}) 2> {log}"
