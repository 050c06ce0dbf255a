# Multi-task data for Pascal's +C&H baseline (Currey & Heafield 2019, with a dependency bracketing
# in place of their constituency linearisation; docs/multitask.md). A pair with
# multitask_parse: {from: BASE} takes BASE's cleaned (and filtered) training pairs and their source parse and
# trains on "<TR> src <TR> -> tgt" mixed with "<PA> src <PA> -> bracketing(src)"; its validation
# and test sources are BASE's, tagged <TR> (the translation task only). From there the pair's own
# joint BPE (learnt on the mix, tags kept whole), vocabularies and binarisation follow as usual.


rule multitask_parse_train:
    input:
        src=lambda w: tokenised_text(MULTITASK_PAIRS[w.pair], "train", "src"),
        tgt=lambda w: tokenised_text(MULTITASK_PAIRS[w.pair], "train", "tgt"),
        parse=lambda w: parse_cache(MULTITASK_PAIRS[w.pair], "train", "src"),
    output:
        src=f"{WORK}/{{pair}}/clean/train.src",
        tgt=f"{WORK}/{{pair}}/clean/train.tgt",
        report=f"{RESULTS}/reports/{{pair}}.multitask.json",
    wildcard_constraints:
        pair=MULTITASK_PAIR_RE,
    params:
        bin=BIN,
    log:
        f"{WORK}/logs/multitask/{{pair}}.train.log",
    benchmark:
        f"{WORK}/benchmarks/multitask/{{pair}}.train.tsv"
    shell:
        "{params.bin}/synmt-multitask parse-task --src {input.src} --tgt {input.tgt} --parse {input.parse}"
        " --out-src {output.src} --out-tgt {output.tgt} --report {output.report} 2> {log}"


rule multitask_tag_split:
    input:
        lambda w: f"{WORK}/{MULTITASK_PAIRS[w.pair]}/tok/{w.split}.{w.side}",
    output:
        f"{WORK}/{{pair}}/tok/{{split}}.{{side}}",
    wildcard_constraints:
        pair=MULTITASK_PAIR_RE,
        split="(?!train$)[a-z0-9_]+",
        side="src|tgt",
    params:
        bin=BIN,
    log:
        f"{WORK}/logs/multitask/{{pair}}.{{split}}.{{side}}.log",
    benchmark:
        f"{WORK}/benchmarks/multitask/{{pair}}.{{split}}.{{side}}.tsv"
    shell:
        # targets stay as they are; sources carry the task tag
        "(if [ {wildcards.side} = src ]; then {params.bin}/synmt-multitask tag -i {input} -o {output};"
        " else cp {input} {output}; fi) 2> {log}"


ruleorder: multitask_parse_train > clean_train
ruleorder: multitask_tag_split > tokenize
