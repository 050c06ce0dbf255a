# Corpus preparation (fetch.smk fetches): tokenise -> clean (train) -> BPE | SentencePiece | none (word-level)
# -> vocabularies (+ label/UPOS inventories for a pair with parse.src) -> HDF5 datasets.

include: "helpers/data.smk"


rule langid_filter_train:
    input:
        src=f"{WORK}/{{pair}}/raw/train.src",
        tgt=f"{WORK}/{{pair}}/raw/train.tgt",
    output:
        src=f"{WORK}/{{pair}}/langid/train.src",
        tgt=f"{WORK}/{{pair}}/langid/train.tgt",
        report=f"{RESULTS}/reports/{{pair}}.langid.json",
    wildcard_constraints:
        pair=FILTER_FIRST_RE,
    params:
        bin=BIN,
        src=lambda w: PAIRS[w.pair]["src"],
        tgt=lambda w: PAIRS[w.pair]["tgt"],
        seed=config.get("langid_report", {}).get("seed", 0),
    threads: config["threads"]
    log:
        f"{WORK}/logs/langid/{{pair}}.log",
    benchmark:
        f"{WORK}/benchmarks/langid/{{pair}}.tsv"
    shell:
        "{params.bin}/synmt-langid --seed {params.seed} --threads {threads} filter --src {input.src} --tgt {input.tgt}"
        " --src-lang {params.src} --tgt-lang {params.tgt} --out-src {output.src} --out-tgt {output.tgt}"
        " --report {output.report} 2> {log}"


# filter_order clean_first (Pascal's Table 1: clean, then filter): the cleaned tokenised text is filtered
rule langid_filter_clean:
    input:
        src=f"{WORK}/{{pair}}/clean/train.src",
        tgt=f"{WORK}/{{pair}}/clean/train.tgt",
    output:
        src=f"{WORK}/{{pair}}/filtered/train.src",
        tgt=f"{WORK}/{{pair}}/filtered/train.tgt",
        report=f"{RESULTS}/reports/{{pair}}.langid.json",
    wildcard_constraints:
        pair=CLEAN_FIRST_RE,
    params:
        bin=BIN,
        src=lambda w: PAIRS[w.pair]["src"],
        tgt=lambda w: PAIRS[w.pair]["tgt"],
        seed=config.get("langid_report", {}).get("seed", 0),
    threads: config["threads"]
    log:
        f"{WORK}/logs/langid/{{pair}}.log",
    benchmark:
        f"{WORK}/benchmarks/langid/{{pair}}.tsv"
    shell:
        "{params.bin}/synmt-langid --seed {params.seed} --threads {threads} filter --src {input.src} --tgt {input.tgt}"
        " --src-lang {params.src} --tgt-lang {params.tgt} --out-src {output.src} --out-tgt {output.tgt}"
        " --report {output.report} 2> {log}"


# Sentence counts of a pair through its data stages (Pascal's Table 1): raw, cleaned and
# language-filtered training pairs in the pair's order, the final training set, valid and test
rule data_counts:
    input:
        raw=f"{WORK}/{{pair}}/raw/train.src",
        clean=f"{RESULTS}/reports/{{pair}}.clean.json",
        langid=lambda w: [f"{RESULTS}/reports/{w.pair}.langid.json"] if PAIR[w.pair].filter_order else [],
        train=lambda w: tokenised_text(w.pair, "train", "src"),
        valid=lambda w: tokenised_text(w.pair, "valid", "src"),
        test=lambda w: tokenised_text(w.pair, "test", "src"),
    output:
        f"{RESULTS}/reports/{{pair}}.counts.json",
    params:
        order=lambda w: PAIR[w.pair].filter_order,
    log:
        f"{WORK}/logs/counts/{{pair}}.log",
    benchmark:
        f"{WORK}/benchmarks/counts/{{pair}}.tsv"
    script:
        "../scripts/data_counts.py"


rule tokenize:
    input:
        tokenize_input,
    output:
        f"{WORK}/{{pair}}/tok/{{split}}.{{side}}",
    params:
        bin=BIN,
        tokenizer=lambda w: PAIRS[w.pair]["tokenizer"],
        flags=lambda w: tokenizer_flags(w.pair, w.side),
    wildcard_constraints:
        side="src|tgt",
    log:
        f"{WORK}/logs/tokenize/{{pair}}.{{split}}.{{side}}.log",
    benchmark:
        f"{WORK}/benchmarks/tokenize/{{pair}}.{{split}}.{{side}}.tsv"
    shell:
        "(if [ {params.tokenizer} = none ]; then cp {input} {output};"
        " else {params.bin}/synmt-tok {params.flags} -i {input} -o {output}; fi) 2> {log}"


rule clean_train:
    input:
        src=f"{WORK}/{{pair}}/tok/train.src",
        tgt=f"{WORK}/{{pair}}/tok/train.tgt",
    output:
        src=f"{WORK}/{{pair}}/clean/train.src",
        tgt=f"{WORK}/{{pair}}/clean/train.tgt",
        report=f"{RESULTS}/reports/{{pair}}.clean.json",
    params:
        bin=BIN,
        c=lambda w: PAIRS[w.pair]["clean"],
    log:
        f"{WORK}/logs/clean/{{pair}}.log",
    benchmark:
        f"{WORK}/benchmarks/clean/{{pair}}.tsv"
    shell:
        "{params.bin}/synmt-clean --src {input.src} --tgt {input.tgt} --out-src {output.src} --out-tgt {output.tgt}"
        " --report {output.report} --min {params.c[min]} --max {params.c[max]} --ratio {params.c[ratio]} 2> {log}"


rule learn_bpe_joint:
    input:
        src=f"{WORK}/{{pair}}/clean/train.src",
        tgt=f"{WORK}/{{pair}}/clean/train.tgt",
    output:
        f"{WORK}/{{pair}}/bpe/codes.joint",
    params:
        bin=BIN,
        merges=lambda w: PAIRS[w.pair]["bpe"]["merges"],
        min_frequency=lambda w: PAIRS[w.pair]["bpe"].get("min_frequency", 2),
    log:
        f"{WORK}/logs/bpe/{{pair}}.learn.joint.log",
    benchmark:
        f"{WORK}/benchmarks/bpe/{{pair}}.learn.joint.tsv"
    shell:
        "{params.bin}/synmt-bpe learn -s {params.merges} --min-frequency {params.min_frequency}"
        " -i {input.src} {input.tgt} -o {output} 2> {log}"


rule learn_bpe_separate:
    input:
        f"{WORK}/{{pair}}/clean/train.{{side}}",
    output:
        f"{WORK}/{{pair}}/bpe/codes.{{side}}",
    params:
        bin=BIN,
        merges=lambda w: PAIRS[w.pair]["bpe"]["merges"],
        min_frequency=lambda w: PAIRS[w.pair]["bpe"].get("min_frequency", 2),
    wildcard_constraints:
        side="src|tgt",
    log:
        f"{WORK}/logs/bpe/{{pair}}.learn.{{side}}.log",
    benchmark:
        f"{WORK}/benchmarks/bpe/{{pair}}.learn.{{side}}.tsv"
    shell:
        "{params.bin}/synmt-bpe learn -s {params.merges} --min-frequency {params.min_frequency} -i {input} -o {output} 2> {log}"


rule apply_bpe:
    input:
        text=bpe_input,
        codes=lambda w: bpe_codes(w.pair, w.side),
    output:
        f"{WORK}/{{pair}}/bpe/{{split}}.{{side}}",
    wildcard_constraints:
        side="src|tgt",
    params:
        bin=BIN,
        glossaries=lambda w: f" --glossaries {MULTITASK_GLOSSARIES}" if w.pair in MULTITASK_PAIRS else "",
    log:
        f"{WORK}/logs/bpe/{{pair}}.apply.{{split}}.{{side}}.log",
    benchmark:
        f"{WORK}/benchmarks/bpe/{{pair}}.apply.{{split}}.{{side}}.tsv"
    shell:
        "{params.bin}/synmt-bpe apply -c {input.codes}{params.glossaries} -i {input.text} -o {output} 2> {log}"


rule learn_spm:
    input:
        src=lambda w: untokenised_text(w.pair, "train", "src"),
        tgt=lambda w: untokenised_text(w.pair, "train", "tgt"),
    output:
        model=f"{WORK}/{{pair}}/spm/model.model",
        vocab=f"{WORK}/{{pair}}/spm/model.vocab",
    params:
        bin=BIN,
        prefix=lambda w: f"{WORK}/{w.pair}/spm/model",
        pieces=lambda w: PAIRS[w.pair]["spm"]["pieces"],
        model_type=lambda w: PAIRS[w.pair]["spm"].get("model_type", "unigram"),
    threads: config["threads"]
    log:
        f"{WORK}/logs/spm/{{pair}}.learn.log",
    benchmark:
        f"{WORK}/benchmarks/spm/{{pair}}.learn.tsv"
    shell:
        "{params.bin}/synmt-spm train -i {input.src} {input.tgt} --model-prefix {params.prefix}"
        " --vocab-size {params.pieces} --model-type {params.model_type} --threads {threads} 2> {log}"


rule apply_spm:
    input:
        text=spm_input,
        model=f"{WORK}/{{pair}}/spm/model.model",
    output:
        f"{WORK}/{{pair}}/spm/{{split}}.{{side}}",
    params:
        bin=BIN,
    wildcard_constraints:
        side="src|tgt",
    threads: config["threads"]
    log:
        f"{WORK}/logs/spm/{{pair}}.apply.{{split}}.{{side}}.log",
    benchmark:
        f"{WORK}/benchmarks/spm/{{pair}}.apply.{{split}}.{{side}}.tsv"
    shell:
        "{params.bin}/synmt-spm encode -m {input.model} -i {input.text} -o {output} --threads {threads} 2> {log}"


rule build_vocab:
    input:
        lambda w: subword_text(w.pair, "train", w.side),
    output:
        f"{WORK}/{{pair}}/vocab.{{side}}",
    params:
        bin=BIN,
        v=lambda w: PAIRS[w.pair]["vocab"],
    wildcard_constraints:
        side="src|tgt",
    log:
        f"{WORK}/logs/vocab/{{pair}}.{{side}}.log",
    benchmark:
        f"{WORK}/benchmarks/vocab/{{pair}}.{{side}}.tsv"
    shell:
        "{params.bin}/synmt-binarize vocab -i {input} --min-frequency {params.v[min_frequency]}"
        " --max-size {params.v[max_size]} -o {output} 2> {log}"


rule build_vocab_joint:
    input:
        src=lambda w: subword_text(w.pair, "train", "src"),
        tgt=lambda w: subword_text(w.pair, "train", "tgt"),
    output:
        f"{WORK}/{{pair}}/vocab.joint",
    params:
        bin=BIN,
        v=lambda w: PAIRS[w.pair]["vocab"],
    log:
        f"{WORK}/logs/vocab/{{pair}}.joint.log",
    benchmark:
        f"{WORK}/benchmarks/vocab/{{pair}}.joint.tsv"
    shell:
        "{params.bin}/synmt-binarize vocab -i {input.src} {input.tgt} --min-frequency {params.v[min_frequency]}"
        " --max-size {params.v[max_size]} -o {output} 2> {log}"


rule build_syntax_inventory:
    input:
        parse=lambda w: parse_cache(w.pair, "train", w.side),
        corpus=lambda w: tokenised_text(w.pair, "train", w.side),
    output:
        labels=f"{WORK}/{{pair}}/labels.{{side}}",
        upos=f"{WORK}/{{pair}}/upos.{{side}}",
    params:
        bin=BIN,
    wildcard_constraints:
        side="src|tgt",
    log:
        f"{WORK}/logs/vocab/{{pair}}.inventory.{{side}}.log",
    benchmark:
        f"{WORK}/benchmarks/vocab/{{pair}}.inventory.{{side}}.tsv"
    shell:
        "{params.bin}/synmt-binarize inventory --parse {input.parse} --parse-corpus {input.corpus}"
        " --labels-out {output.labels} --upos-out {output.upos} 2> {log}"


rule binarize:
    input:
        unpack(binarize_inputs),
    output:
        f"{WORK}/{{pair}}/data/{{split}}.h5",
    params:
        bin=BIN,
        subwords=lambda w: PAIR[w.pair].subwords,
        syntax=lambda w, input: binarize_syntax_flags(input),
    log:
        f"{WORK}/logs/binarize/{{pair}}.{{split}}.log",
    benchmark:
        f"{WORK}/benchmarks/binarize/{{pair}}.{{split}}.tsv"
    shell:
        "{params.bin}/synmt-binarize data --src {input.src} --tgt {input.tgt} --src-vocab {input.src_vocab}"
        " --tgt-vocab {input.tgt_vocab} --subwords {params.subwords}{params.syntax} -o {output} 2> {log}"


rule langid_set:
    input:
        src=f"{WORK}/langid_sets/{{lset}}.src",
        tgt=f"{WORK}/langid_sets/{{lset}}.tgt",
    output:
        src=f"{WORK}/langid_sets/{{lset}}.kept.src",
        tgt=f"{WORK}/langid_sets/{{lset}}.kept.tgt",
        report=f"{RESULTS}/reports/langid/{{lset}}.json",
    params:
        bin=BIN,
        src=lambda w: LANGID_SETS[w.lset]["src"],
        tgt=lambda w: LANGID_SETS[w.lset]["tgt"],
        seed=config.get("langid_report", {}).get("seed", 0),
    threads: config["threads"]
    log:
        f"{WORK}/logs/langid/set.{{lset}}.log",
    benchmark:
        f"{WORK}/benchmarks/langid/set.{{lset}}.tsv"
    shell:
        "{params.bin}/synmt-langid --seed {params.seed} --threads {threads} filter --src {input.src} --tgt {input.tgt}"
        " --src-lang {params.src} --tgt-lang {params.tgt} --out-src {output.src} --out-tgt {output.tgt}"
        " --report {output.report} 2> {log}"


rule treebank_text:
    """A pair's gold treebank split (gold_trees: e.g. PUD) as tokenised text: the syntactic words
    of each side's CoNLL-U, so that induced trees have exactly the gold tree's words. Without a
    target treebank the target side repeats the source words (trees need only the source)."""
    input:
        src=lambda w: gold_treebank(w.pair, w.split, "src"),
        tgt=lambda w: gold_treebank(w.pair, w.split, "tgt" if "tgt" in gold_spec(w.pair, w.split) else "src"),
    output:
        src=f"{WORK}/{{pair}}/tok/{{split}}.src",
        tgt=f"{WORK}/{{pair}}/tok/{{split}}.tgt",
    wildcard_constraints:
        split=_alternatives(GOLD_SPLITS) if GOLD_SPLITS else "(?!)",
    params:
        py=PYTHON,
        lower=lambda w: " --lower" if gold_spec(w.pair, w.split).get("lowercase", False) else "",
        # the XML escaping synmt-tok gives the pair's own text (a pair without a tokenizer has none)
        escape=lambda w: " --escape" if PAIRS[w.pair]["tokenizer"] != "none" else "",
    log:
        f"{WORK}/logs/tokenize/{{pair}}.{{split}}.treebank.log",
    benchmark:
        f"{WORK}/logs/tokenize/{{pair}}.{{split}}.treebank.benchmark.tsv",
    shell:
        "({params.py} pipeline/scripts/conllu_words.py {input.src} {output.src}{params.lower}{params.escape}"
        " && {params.py} pipeline/scripts/conllu_words.py {input.tgt} {output.tgt}{params.lower}{params.escape}) 2> {log}"


ruleorder: treebank_text > tokenize
