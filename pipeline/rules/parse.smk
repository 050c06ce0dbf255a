# Dependency parsing (issue #5): each configured builtin parser is trained once on its treebank;
# each tokenised corpus side named in a pair's `parse:` block is parsed once into the HDF5 parse
# cache (keyed by the corpus sha256 + parser identity; synmt-parse refuses a mismatched cache).
# Not part of `all`: build the caches with `snakemake --profile cluster/local parses`.

PARSERS = config.get("parsers", {})
for _pair, _spec in PAIRS.items():
    for _side, _parser in _spec.get("parse", {}).items():
        if _parser not in PARSERS:
            raise ValueError(f"pairs.{_pair}.parse.{_side}: unknown parser '{_parser}'")
for _name, _spec in PARSERS.items():
    if _spec["backend"] == "builtin" and not ("train" in _spec and "dev" in _spec):
        raise ValueError(f"parsers.{_name}: the builtin backend needs 'train' and 'dev' treebanks")
    if _spec["backend"] == "corenlp" and "url" not in _spec:
        raise ValueError(f"parsers.{_name}: the corenlp backend needs 'url'")


def treebank(path):
    return f"{config['mirror']}/{path}"


def parser_sets(name):
    """synmt-parser-train --set flags from a parser's options (nested keys flattened)."""
    flags = []
    for section, values in PARSERS[name].get("options", {}).items():
        for key, value in values.items():
            flags.append(f"--set {section}.{key}={json.dumps(value)}")
    return " ".join(flags)


def parse_cache(pair, split, side):
    return f"{WORK}/{pair}/parse/{split}.{side}.h5"


def parse_backend_flags(w, input):
    spec = PARSERS[PAIRS[w.pair]["parse"][w.side]]
    if spec["backend"] == "builtin":
        return f"--backend builtin --model {input.model}"
    return f"--backend corenlp --url {spec['url']} --model-tag {spec.get('model_tag', 'unversioned')}"


wildcard_constraints:
    parser=_alternatives(PARSERS) if PARSERS else "none",


rule train_parser:
    input:
        train=lambda w: treebank(PARSERS[w.parser]["train"]),
        dev=lambda w: treebank(PARSERS[w.parser]["dev"]),
        test=lambda w: [treebank(t) for t in PARSERS[w.parser].get("test", [])],
    output:
        model=f"{RESULTS}/parsers/{{parser}}/parser.pt",
        summary=f"{RESULTS}/parsers/{{parser}}/summary.json",
    params:
        bin=BIN,
        out_dir=f"{RESULTS}/parsers/{{parser}}",
        sets=lambda w: parser_sets(w.parser),
        tests=lambda w, input: " ".join(f"--test {t}" for t in input.test),
    threads: config["threads"]
    log:
        f"{RESULTS}/parsers/{{parser}}/train.log",
    benchmark:
        f"{RESULTS}/parsers/{{parser}}/train.benchmark.tsv"
    shell:
        "{params.bin}/synmt-parser-train --train {input.train} --dev {input.dev} {params.tests}"
        " -o {params.out_dir} {params.sets} --threads {threads} 2> {log}"


rule parse_corpus:
    input:
        # the text that is segmented and binarised: cleaned for training, tokenised otherwise
        corpus=lambda w: f"{WORK}/{w.pair}/{'clean' if w.split == 'train' else 'tok'}/{w.split}.{w.side}",
        model=lambda w: (
            [f"{RESULTS}/parsers/{PAIRS[w.pair]['parse'][w.side]}/parser.pt"]
            if PARSERS[PAIRS[w.pair]["parse"][w.side]]["backend"] == "builtin"
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


rule parses:
    input:
        [
            parse_cache(pair, split, side)
            for pair, spec in PAIRS.items()
            for side in spec.get("parse", {})
            for split in ("train", "valid", "test")
        ],
