# Helpers of parse.smk (Snakemake's linter wants rules and functions in separate files).


def treebank(spec):
    """A mirror treebank spec "PATH" or "PATH@BEGIN:END" (a sentence range) as the tool reads it."""
    return f"{config['mirror']}/{spec}"


def treebank_file(spec):
    """A treebank as a rule's input: a file of the read-only mirror, so its time says nothing (a
    mirror copied anew has new times and the same bytes, and would retrain every parser and every
    system built on one): only a missing file makes Snakemake act (fetch_treebank)."""
    return ancient(treebank(spec.split("@")[0]))


def parser_init_model(name):
    """The model a parser continues from (continue_from: another parser's name), or None."""
    base = PARSERS[name].get("continue_from")
    if base is None:
        return None
    if base not in PARSERS or base == name or PARSERS[base]["backend"] != "builtin":
        raise ValueError(f"parsers.{name}.continue_from: '{base}' is not another builtin parser")
    return f"{RESULTS}/parsers/{base}/parser.pt"


def parser_sets(name):
    """synmt-parser-train --set flags from a parser's options (nested keys flattened)."""
    flags = []
    for section, values in PARSERS[name].get("options", {}).items():
        for key, value in values.items():
            flags.append(f"--set {section}.{key}={json.dumps(value)}")
    init = parser_init_model(name)
    if init:
        flags.append(f"--set train.init_model={json.dumps(init)}")
    return " ".join(flags)


def parse_cache(pair, split, side):
    return f"{WORK}/{pair}/parse/{split}.{side}.h5"


def syntax_inventory(pair, kind, side="src"):
    """The pair's label or UPOS inventory (kind: labels | upos), beside the vocabularies."""
    return f"{WORK}/{pair}/{kind}.{side}"


def parse_backend_flags(w, input):
    spec = PARSERS[PAIR[w.pair].parsers[w.side]]
    if spec["backend"] == "builtin":
        return f"--backend builtin --model {input.model}"
    if spec["backend"] == "conllu":
        return f"--backend conllu --conllu {input.model}"
    return f"--backend corenlp --url {spec['url']} --model-tag {spec.get('model_tag', 'unversioned')}"
