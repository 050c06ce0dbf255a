# Scoring: sacreBLEU-compatible BLEU of detokenised hypotheses against the raw references.


rule score_bleu:
    input:
        hyp=f"{RESULTS}/systems/{{system}}/hyp.{{split}}.txt",
        ref=lambda w: f"{WORK}/{SYSTEMS[w.system]['pair']}/raw/{w.split}.tgt",
    output:
        f"{RESULTS}/systems/{{system}}/bleu.{{split}}.json",
    params:
        bin=BIN,
    log:
        f"{RESULTS}/systems/{{system}}/bleu.{{split}}.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/bleu.{{split}}.benchmark.tsv"
    shell:
        "{params.bin}/synmt-score bleu -r {input.ref} --format json {input.hyp} > {output} 2> {log}"
