# Dependency parsing (issue #5): each configured builtin parser is trained once on its treebank;
# each tokenised corpus side named in a pair's `parse:` block is parsed once into the HDF5 parse
# cache (keyed by the corpus sha256 + parser identity; synmt-parse refuses a mismatched cache).
# A pair with parse.src feeds its caches to binarize (pipeline/rules/data.smk), so its datasets and
# every system on it need the parser; `snakemake --profile cluster/local parses` builds the caches
# and inventories alone.

include: "helpers/parse.smk"


wildcard_constraints:
    parser=_alternatives(PARSERS) if PARSERS else "none",


rule train_parser:
    input:
        train=lambda w: sorted({treebank_file(t) for t in as_list(PARSERS[w.parser]["train"])}),
        dev=lambda w: treebank_file(PARSERS[w.parser]["dev"]),
        test=lambda w: sorted({treebank_file(t) for t in PARSERS[w.parser].get("test", [])}),
        # a parser continued from another one (continue_from) waits for it
        init=lambda w: [m for m in [parser_init_model(w.parser)] if m],
    output:
        model=f"{RESULTS}/parsers/{{parser}}/parser.pt",
        summary=f"{RESULTS}/parsers/{{parser}}/summary.json",
    params:
        bin=BIN,
        out_dir=f"{RESULTS}/parsers/{{parser}}",
        sets=lambda w: parser_sets(w.parser),
        train=lambda w: " ".join(f"--train {treebank(t)}" for t in as_list(PARSERS[w.parser]["train"])),
        dev=lambda w: treebank(PARSERS[w.parser]["dev"]),
        tests=lambda w: " ".join(f"--test {treebank(t)}" for t in PARSERS[w.parser].get("test", [])),
    threads: config["threads"]
    log:
        f"{RESULTS}/parsers/{{parser}}/train.log",
    benchmark:
        f"{RESULTS}/parsers/{{parser}}/train.benchmark.tsv"
    shell:
        "{params.bin}/synmt-parser-train {params.train} --dev {params.dev} {params.tests}"
        " -o {params.out_dir} {params.sets} --threads {threads} 2> {log}"


rule parse_corpus:
    input:
        # the text that is segmented and binarised: cleaned for training, tokenised otherwise
        corpus=lambda w: tokenised_text(w.pair, w.split, w.side),
        # builtin: the trained parser; conllu: the imported parses of this split; corenlp: none
        model=lambda w: (
            [f"{RESULTS}/parsers/{PAIR[w.pair].parsers[w.side]}/parser.pt"]
            if PARSERS[PAIR[w.pair].parsers[w.side]]["backend"] == "builtin"
            else [PARSERS[PAIR[w.pair].parsers[w.side]]["conllu"][w.split]]
            if PARSERS[PAIR[w.pair].parsers[w.side]]["backend"] == "conllu"
            else []
        ),
    output:
        f"{WORK}/{{pair}}/parse/{{split}}.{{side}}.h5",
    params:
        bin=BIN,
        backend=parse_backend_flags,
    wildcard_constraints:
        side="src|tgt",
    threads: config["threads"]
    log:
        f"{WORK}/logs/parse/{{pair}}.{{split}}.{{side}}.log",
    benchmark:
        f"{WORK}/benchmarks/parse/{{pair}}.{{split}}.{{side}}.tsv"
    shell:
        "{params.bin}/synmt-parse {params.backend} -i {input.corpus} -o {output} 2> {log}"


rule parser_table:
    input:
        summaries=[f"{RESULTS}/parsers/{name}/summary.json" for name, spec in PARSERS.items() if spec["backend"] == "builtin"],
    output:
        md=f"{RESULTS}/tables/parsers.md",
        csv=f"{RESULTS}/tables/parsers.csv",
    params:
        names=[name for name, spec in PARSERS.items() if spec["backend"] == "builtin"],
        title="Builtin dependency parser (biaffine + LGP layers) on UD treebanks",
    log:
        f"{RESULTS}/tables/parsers.log",
    benchmark:
        f"{RESULTS}/tables/parsers.benchmark.tsv"
    script:
        "../scripts/make_parser_table.py"


rule parses:
    input:
        f"{RESULTS}/tables/parsers.md" if PARSERS else [],
        [
            parse_cache(pair, split, side)
            for pair, p in PAIR.items()
            for side in p.parsers
            for split in ("train", "valid", "test")
        ],
        [syntax_inventory(pair, kind) for pair, p in PAIR.items() if p.has_source_syntax for kind in ("labels", "upos")],


rule fetch_treebank:
    """A UD treebank file the mirror lacks (e.g. a paper-scale run on a fresh cluster, whose mirror
    holds only the manual downloads): fetched from the treebank's UniversalDependencies repository
    at the configured release tag (ud_release) and gzipped, as the mirror keeps treebanks."""
    output:
        f"{config['mirror']}/ud/{{treebank}}/{{name}}.conllu.gz",
    wildcard_constraints:
        treebank=r"UD_[A-Za-z_]+-[A-Za-z]+",
        name=r"[a-z_]+-ud-(train|dev|test)",
    params:
        url=lambda w: f"https://raw.githubusercontent.com/UniversalDependencies/{w.treebank}/{config.get('ud_release', 'r2.14')}/{w.name}.conllu",
    log:
        f"{WORK}/logs/fetch/{{treebank}}.{{name}}.log",
    benchmark:
        f"{WORK}/logs/fetch/{{treebank}}.{{name}}.benchmark.tsv",
    shell:
        "(curl -fsSL {params.url} | gzip -n > {output}.tmp && mv {output}.tmp {output}) 2> {log}"
