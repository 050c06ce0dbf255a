# Shared helpers: paths, config look-ups, wildcard constraints built from config keys.
import json
import os

import yaml

WORK = config["work_dir"]
RESULTS = config["results_dir"]
BIN = config["bin_dir"]
PAIRS = config["pairs"]
SYSTEMS = config["systems"]

with open(config["corpora"]) as _f:
    CORPORA = yaml.safe_load(_f)

for _system, _spec in SYSTEMS.items():
    if _spec["pair"] not in PAIRS:
        raise ValueError(f"systems.{_system}.pair: unknown pair '{_spec['pair']}'")
for _table, _spec in config["tables"].items():
    for _system in _spec["systems"]:
        if _system not in SYSTEMS:
            raise ValueError(f"tables.{_table}: unknown system '{_system}'")
for _table, _spec in config["tables"].items():
    _pairs = {SYSTEMS[s]["pair"] for s in _spec["systems"]}
    if len(_pairs) > 1:
        raise ValueError(f"tables.{_table}: systems translate different pairs {sorted(_pairs)}; a table compares one test set")
    if _spec.get("baseline") and _spec["baseline"] not in _spec["systems"]:
        raise ValueError(f"tables.{_table}.baseline: '{_spec['baseline']}' is not one of the table's systems")
for _pair, _spec in PAIRS.items():
    _sub = _spec.get("subwords", "bpe")
    if _sub == "bpe" and "bpe" not in _spec:
        raise ValueError(f"pairs.{_pair}: subwords: bpe needs a 'bpe' block")
    if _sub == "spm" and "spm" not in _spec:
        raise ValueError(f"pairs.{_pair}: subwords: spm needs an 'spm' block")
    if _sub == "none" and ("bpe" in _spec or "spm" in _spec):
        raise ValueError(f"pairs.{_pair}: subwords: none (word-level) takes no 'bpe' or 'spm' block")
    # SentencePiece segments the untokenised text: its words are not the tokens the parser saw
    if _sub == "spm" and "src" in _spec.get("parse", {}):
        raise ValueError(f"pairs.{_pair}: parse.src needs subwords: bpe or none (SentencePiece segments untokenised text)")
    if _spec["corpus"] not in CORPORA:
        raise ValueError(f"pairs.{_pair}.corpus: '{_spec['corpus']}' is not in {config['corpora']}")

LANGS = sorted({p["src"] for p in PAIRS.values()} | {p["tgt"] for p in PAIRS.values()})


def _alternatives(names):
    return "|".join(sorted(names))


wildcard_constraints:
    pair=_alternatives(PAIRS),
    system=_alternatives(SYSTEMS),
    table=_alternatives(config["tables"]),
    split="train|valid|test",
    lset="|".join(sorted(s["name"] for s in config.get("langid_report", {}).get("sets", []))) or "none",


def pair_of(system):
    return PAIRS[SYSTEMS[system]["pair"]]


def corpus_file(pair, split, lang):
    """(mirror relpath, URL, sha256) of one side of one split."""
    spec = PAIRS[pair]
    corpus = CORPORA[spec["corpus"]]
    name = f"{spec['splits'][split]}.{lang}"
    if name not in corpus["files"]:
        raise ValueError(f"{config['corpora']}: corpus {spec['corpus']} has no file {name}")
    entry = corpus["files"][name]
    return (
        f"{corpus['mirror_dir']}/{entry['mirror']}",
        f"{corpus['url_base']}/{entry['remote']}",
        entry["sha256"],
    )


def bpe_codes(pair, lang):
    if PAIRS[pair]["bpe"]["mode"] == "joint":
        return f"{WORK}/{pair}/bpe/codes.joint"
    return f"{WORK}/{pair}/bpe/codes.{lang}"


def tokenised_text(pair, split, side):
    """The tokenised text of a split: cleaned for training, only tokenised for valid/test. BPE
    segments it, word-level pairs binarise it as is, and the parser parses it, so a parse cache's
    words are exactly the words the sub-word marks delimit."""
    stage = "clean" if split == "train" else "tok"
    return f"{WORK}/{pair}/{stage}/{split}.{side}"


def bpe_input(w):
    return tokenised_text(w.pair, w.split, w.side)


# synmt-score flags per metric (the scorers' defaults are sacreBLEU's / RIBES.py's)
METRIC_FLAGS = {"bleu": "", "chrf": "", "ribes": ""}


def table_systems(table):
    """Systems of a table, the baseline first."""
    spec = config["tables"][table]
    baseline = spec.get("baseline", spec["systems"][0])
    return [baseline] + [s for s in spec["systems"] if s != baseline]


def table_metrics(table):
    return config["tables"][table].get("metrics", ["bleu"])


LANGID_SETS = {s["name"]: s for s in config.get("langid_report", {}).get("sets", [])}
for _name, _spec in LANGID_SETS.items():
    if _spec["corpus"] not in CORPORA:
        raise ValueError(f"langid_report set {_name}: corpus '{_spec['corpus']}' is not in {config['corpora']}")


def corpus_entry(corpus, name):
    """(mirror relpath, URL, sha256) of one corpus file."""
    c = CORPORA[corpus]
    if name not in c["files"]:
        raise ValueError(f"{config['corpora']}: corpus {corpus} has no file {name}")
    e = c["files"][name]
    return f"{c['mirror_dir']}/{e['mirror']}", f"{c['url_base']}/{e['remote']}", e["sha256"]


def tokenize_input(w):
    """Training text goes through the language filter first when the pair asks for it."""
    if w.split == "train" and PAIRS[w.pair].get("langid_filter", False):
        return f"{WORK}/{w.pair}/langid/train.{w.side}"
    return f"{WORK}/{w.pair}/raw/{w.split}.{w.side}"


def subword_kind(pair):
    """bpe | spm | none (word-level: the tokenised text is binarised as is)."""
    return PAIRS[pair].get("subwords", "bpe")


def subword_text(pair, split, side):
    """The text one side of one split is binarised from: BPE or SentencePiece output, or the
    tokenised text itself for a word-level pair."""
    kind = subword_kind(pair)
    if kind == "none":
        return tokenised_text(pair, split, side)
    return f"{WORK}/{pair}/{kind}/{split}.{side}"


def tokenizer_flags(pair, side):
    spec = PAIRS[pair]
    flags = f"-l {spec[side]}"
    if spec.get("normalize_punctuation", False):
        flags += " --normalize-punctuation"
    return flags


def spm_text(pair, split, side):
    """SentencePiece reads untokenised text: the raw split (language-filtered for training when
    the pair asks for it). Length cleaning is a tokeniser-level step and does not apply here."""
    if split == "train" and PAIRS[pair].get("langid_filter", False):
        return f"{WORK}/{pair}/langid/train.{side}"
    return f"{WORK}/{pair}/raw/{split}.{side}"


def spm_input(w):
    return spm_text(w.pair, w.split, w.side)


def postprocess_inputs(w):
    pair = SYSTEMS[w.system]["pair"]
    inputs = {"sub": f"{RESULTS}/systems/{w.system}/hyp.{w.split}.sub"}
    if PAIRS[pair].get("subwords", "bpe") == "spm":
        inputs["model"] = f"{WORK}/{pair}/spm/model.model"
    return inputs


def postprocess_command(w, input, output):
    pair = PAIRS[SYSTEMS[w.system]["pair"]]
    if pair.get("subwords", "bpe") == "spm":
        return f"{BIN}/synmt-spm decode -m {input.model} -i {input.sub} -o {output}"
    # word-level output has no BPE joins to undo (a token may end in "@@" legitimately)
    join = f"cat {input.sub}" if pair.get("subwords", "bpe") == "none" else f"sed -E 's/(@@ )|(@@ ?$)//g' {input.sub}"
    if pair["tokenizer"] == "none":
        return f"{join} > {output}"
    return f"{join} | {BIN}/synmt-tok --detok -l {pair['tgt']} -o {output}"


def vocab_path(pair, side):
    """The dictionary a side is binarised with: a joint one for both sides, or one per side."""
    if PAIRS[pair]["vocab"].get("joint", False):
        return f"{WORK}/{pair}/vocab.joint"
    return f"{WORK}/{pair}/vocab.{side}"


def system_ranks(system):
    return SYSTEMS[system].get("ranks", 1)


def train_resource(system, key):
    """systems.<name>.resources.<key>, else its default (gpus_per_rank: 1 when the system trains on CUDA)."""
    defaults = {
        "mem_mb_per_rank": 4000,
        "runtime_min": 24 * 60,
        "gpus_per_rank": 1 if train_uses_gpu(system) else 0,
    }
    return SYSTEMS[system].get("resources", {}).get(key, defaults[key])


def rank_threads(system, threads):
    """LibTorch threads of each rank: the job's threads shared by its ranks."""
    return max(1, threads // system_ranks(system))


def train_launcher(system, resources, threads):
    """The command that starts the trainer's ranks, '-n N' appended. A cluster profile sets the
    `mpi_launcher` resource (cluster/slurm: srun ...): then every training job, one rank included,
    starts through it, so that each rank is a task of the scheduler and gets its signals
    (preemption, time limit); "{cpus_per_task}" in it becomes the rank's CPU count. Without one:
    nothing for one rank, else the config's mpi_launcher (default mpirun --oversubscribe). A
    resource, not a config key: a user's own `--config k=v` replaces a profile's whole `config:`
    list but leaves its resources alone. mpirun as root (containers, CI) needs explicit consent."""
    ranks = system_ranks(system)
    launcher = resources.get("mpi_launcher")
    if launcher:
        launcher = str(launcher).replace("{cpus_per_task}", str(rank_threads(system, threads)))
    elif ranks == 1:
        return ""
    else:
        launcher = config.get("mpi_launcher", "mpirun --oversubscribe")
    if launcher.split()[0].endswith("mpirun") and os.geteuid() == 0:
        launcher += " --allow-run-as-root"
    return f"{launcher} -n {ranks} "


def train_uses_gpu(system):
    """Whether the system trains on CUDA (train.device cuda or cuda:N)."""
    return str(SYSTEMS[system].get("train", {}).get("device", "cpu")).startswith("cuda")


# --- parsing (pipeline/rules/parse.smk) ---
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
    if _spec["backend"] == "conllu" and "conllu" not in _spec:
        raise ValueError(f"parsers.{_name}: the conllu backend needs 'conllu' (split -> CoNLL-U file)")


def treebank(spec):
    """A mirror treebank spec "PATH" or "PATH@BEGIN:END" (a sentence range) as the tool reads it."""
    return f"{config['mirror']}/{spec}"


def treebank_file(spec):
    return treebank(spec.split("@")[0])


def as_list(x):
    return x if isinstance(x, list) else [x]


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


def pair_has_source_syntax(pair):
    return "src" in PAIRS[pair].get("parse", {})


def decode_source(pair, split):
    """What synmt-translate reads: the binarised split (with its source features) for a pair with
    parse.src, the sub-word text otherwise."""
    if pair_has_source_syntax(pair):
        return f"{WORK}/{pair}/data/{split}.h5"
    return subword_text(pair, split, "src")


def binarize_inputs(w):
    """A split's texts and vocabularies; with parse.src also its parse cache, the text the cache was
    made from (its key) and the pair's inventories, made from the training split's cache."""
    inputs = {
        "src": subword_text(w.pair, w.split, "src"),
        "tgt": subword_text(w.pair, w.split, "tgt"),
        "src_vocab": vocab_path(w.pair, "src"),
        "tgt_vocab": vocab_path(w.pair, "tgt"),
    }
    if "src" in PAIRS[w.pair].get("parse", {}):
        inputs["src_parse"] = parse_cache(w.pair, w.split, "src")
        inputs["src_parse_corpus"] = tokenised_text(w.pair, w.split, "src")
        inputs["src_labels"] = syntax_inventory(w.pair, "labels")
        inputs["src_upos"] = syntax_inventory(w.pair, "upos")
    return inputs


def binarize_syntax_flags(input):
    if "src_parse" not in input.keys():
        return ""
    return (
        f" --src-parse {input.src_parse} --src-parse-corpus {input.src_parse_corpus}"
        f" --src-labels {input.src_labels} --src-upos {input.src_upos}"
    )


def parse_backend_flags(w, input):
    spec = PARSERS[PAIRS[w.pair]["parse"][w.side]]
    if spec["backend"] == "builtin":
        return f"--backend builtin --model {input.model}"
    if spec["backend"] == "conllu":
        return f"--backend conllu --conllu {input.model}"
    return f"--backend corenlp --url {spec['url']} --model-tag {spec.get('model_tag', 'unversioned')}"
