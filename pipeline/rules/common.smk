# Shared helpers: paths, config look-ups, wildcard constraints built from config keys.
import json
import os
import shlex
import sys

import yaml

sys.path.insert(0, os.path.join(workflow.basedir, "pipeline", "scripts"))
import experiment  # noqa: E402  (pipeline/scripts/experiment.py: runs and tables as plain data)

PYTHON = sys.executable  # the interpreter running Snakemake (the project venv, with matplotlib)
WORK = config["work_dir"]
RESULTS = config["results_dir"]
BIN = config["bin_dir"]
PAIRS = config["pairs"]


def pair_subwords(spec):
    """A pair spec's sub-word kind, bpe when unset: the one place that default lives."""
    return spec.get("subwords", "bpe")


def pair_parsers(spec):
    """A pair spec's parsers by side ({"src": NAME} or {}): the one place `parse:` is read."""
    return spec.get("parse", {})


# Built-in corpora (the shared mirror's and the papers' paper-scale ones) are always known; a
# user's corpora files add to them. A name defined twice is an error naming both files.
BUILTIN_CORPORA = ["pipeline/config/corpora.yaml", "pipeline/config/corpora_paper.yaml"]
CORPORA = {}
CORPUS_FILE = {}
def _load_corpora(paths):
    for path in paths:
        if not os.path.exists(path):
            if path in BUILTIN_CORPORA:
                continue
            raise ValueError(f"corpora: no such file '{path}'")
        with open(path) as f:
            entries = yaml.safe_load(f) or {}
        for name, spec in entries.items():
            if name in CORPORA:
                raise ValueError(f"corpus '{name}' is defined in both {CORPUS_FILE[name]} and {path}")
            CORPORA[name] = spec
            CORPUS_FILE[name] = path


_user_corpora = config.get("corpora", [])
_load_corpora(BUILTIN_CORPORA + ([_user_corpora] if isinstance(_user_corpora, str) else list(_user_corpora)))

# A system trains one run per pair and seed (experiment.expand_systems); SYSTEMS holds the runs,
# which is what every rule's {system} wildcard names.
SYSTEM_SPECS = config["systems"]
try:
    SYSTEMS = experiment.expand_systems(SYSTEM_SPECS, PAIRS)
except experiment.ConfigError as e:
    raise ValueError(str(e)) from None

for _pair, _spec in PAIRS.items():
    _sub = pair_subwords(_spec)
    if _sub == "bpe" and "bpe" not in _spec:
        raise ValueError(f"pairs.{_pair}: subwords: bpe needs a 'bpe' block")
    if _sub == "spm" and "spm" not in _spec:
        raise ValueError(f"pairs.{_pair}: subwords: spm needs an 'spm' block")
    if _sub == "none" and ("bpe" in _spec or "spm" in _spec):
        raise ValueError(f"pairs.{_pair}: subwords: none (word-level) takes no 'bpe' or 'spm' block")
    # SentencePiece segments the untokenised text: its words are not the tokens the parser saw
    if _sub == "spm" and "src" in pair_parsers(_spec):
        raise ValueError(f"pairs.{_pair}: parse.src needs subwords: bpe or none (SentencePiece segments untokenised text)")
    if _spec["corpus"] not in CORPORA:
        raise ValueError(f"pairs.{_pair}.corpus: '{_spec['corpus']}' is in no corpora file ({', '.join(sorted(set(CORPUS_FILE.values())))})")
    if ("splits" in _spec) == ("resplit" in _spec):
        raise ValueError(f"pairs.{_pair}: give exactly one of 'splits' (the corpus' own splits) or 'resplit' (a seeded split of one pool)")
    if "resplit" in _spec and (_spec["resplit"]["test"] == 0) != ("test_source" in _spec["resplit"]):
        raise ValueError(f"pairs.{_pair}.resplit: an external test set is 'test: 0' with 'test_source'; a held-out one is 'test: N' without it")
    if isinstance(_spec.get("gold_trees"), dict):  # one gold treebank or a list of them: a list from here on
        _spec["gold_trees"] = [_spec["gold_trees"]]
    for _gold in _spec.get("gold_trees", []):
        if _gold["split"] in ({"train", "valid", "test"} | set(_spec.get("test_sets", {}))):
            raise ValueError(f"pairs.{_pair}.gold_trees.split: '{_gold['split']}' names another split of the pair")
    if len({g["split"] for g in _spec.get("gold_trees", [])}) != len(_spec.get("gold_trees", [])):
        raise ValueError(f"pairs.{_pair}.gold_trees: two gold treebanks with one split name")
    if "gold_trees" in _spec and pair_subwords(_spec) == "spm":
        raise ValueError(f"pairs.{_pair}.gold_trees: needs subwords bpe or none (SentencePiece segments untokenised text)")
    for _name in _spec.get("test_sets", {}):
        if _name in ("train", "valid", "test"):
            raise ValueError(f"pairs.{_pair}.test_sets: '{_name}' is a built-in split name")

LANGS = sorted({p["src"] for p in PAIRS.values()} | {p["tgt"] for p in PAIRS.values()})


def _alternatives(names):
    return "|".join(sorted(names))


def _group_names():
    """A seed group: a system, or one of its runs by seed ("SYSTEM@sN", experiment.seed_matched)."""
    return f"(?:{_alternatives(SYSTEM_SPECS)})(?:{experiment.SEED_SEP}[0-9]+)?"


# a pair's gold_trees (a parallel treebank such as PUD) is one more split: its words, tokenised
# already, through the pair's sub-words and binarisation (induced trees, gate analysis)
GOLD_SPLITS = {g["split"] for p in PAIRS.values() for g in p.get("gold_trees", [])}
SPLITS = {"train", "valid", "test"} | {t for p in PAIRS.values() for t in p.get("test_sets", {})} | GOLD_SPLITS


wildcard_constraints:
    pair=_alternatives(PAIRS),
    system=_alternatives(SYSTEMS),
    table=_alternatives(config["tables"]),
    split=_alternatives(SPLITS),
    lset="|".join(sorted(s["name"] for s in config.get("langid_report", {}).get("sets", []))) or "none",


def pair_of(system):
    return PAIRS[SYSTEMS[system]["pair"]]


def split_spec(pair, split):
    """What one split is made of: a stem of the pair's corpus, {corpus, stem}, or a list of those
    (concatenated in order, e.g. several training corpora)."""
    spec = PAIRS[pair]
    if "resplit" in spec and split == "test" and not from_pool(pair, split):
        return spec["resplit"]["test_source"]
    if split in ("train", "valid", "test"):
        return spec["splits"][split]
    if split in spec.get("test_sets", {}):
        return spec["test_sets"][split]
    raise ValueError(f"pairs.{pair}: no split '{split}'")


def from_pool(pair, split):
    """Whether a split is cut from the pair's resplit pool (train, valid, and test unless the
    resplit names an external test_source) rather than fetched from the corpora."""
    r = PAIRS[pair].get("resplit")
    return r is not None and (split in ("train", "valid") or (split == "test" and r["test"] > 0))


def split_sources(pair, split=None, spec=None):
    """[(corpus, stem)] of one split (or of a split spec), in concatenation order."""
    spec = split_spec(pair, split) if spec is None else spec
    out = []
    for item in spec if isinstance(spec, list) else [spec]:
        if isinstance(item, str):
            out.append((PAIRS[pair]["corpus"], item))
        elif isinstance(item, dict) and set(item) == {"corpus", "stem"}:
            if item["corpus"] not in CORPORA:
                raise ValueError(f"pairs.{pair}: split source corpus '{item['corpus']}' is in no corpora file")
            out.append((item["corpus"], item["stem"]))
        else:
            raise ValueError(f"pairs.{pair}: a split source is a stem or {{corpus, stem}}, not {item!r}")
    return out


def fetch_flags(sources, lang, out):
    """synmt-fetch flags that fetch every source's `lang` side into OUT.0, OUT.1, ...; the rule
    concatenates them in order. A plain file is a --file, an archive member an --archive-file; a
    file that needs a manual download adds its --manual instruction. Downloads go to the work
    dir's cache, so the members of one archive (both sides, every split) are downloaded once."""
    import shlex

    q = shlex.quote
    flags, manuals = [f"--cache-dir {q(os.path.join(WORK, 'downloads'))}"], set()
    for k, (corpus, stem) in enumerate(sources):
        mirror, url, sha, archive_sum, member, fmt, manual = corpus_entry(corpus, f"{stem}.{lang}")
        if manual and mirror not in manuals:
            manuals.add(mirror)
            flags.append(f"--manual {q(mirror)} {q(manual)}")
        if member is None:
            flags.append(f"--file {q(mirror)} {q(url)} {q(sha)} {q(f'{out}.{k}')}")
        else:
            flags.append(f"--archive-file {q(mirror)} {q(url)} {q(archive_sum)} {q(member)} {q(fmt)} {q(sha)} {q(f'{out}.{k}')}")
    return " ".join(flags)


def fetch_sources_command(pair, sources, output, slice_n=0):
    """Shell command: fetch every source's src and tgt side, concatenate them in order into
    output.src / output.tgt, and keep the first slice_n lines if slice_n > 0."""
    spec = PAIRS[pair]
    steps = [f"{BIN}/synmt-fetch --mirror '{config['mirror']}' {fetch_flags(sources, spec['src'], output.src)}"
             f" {fetch_flags(sources, spec['tgt'], output.tgt)}"]
    for out in (output.src, output.tgt):
        parts = " ".join(f"{out}.{k}" for k in range(len(sources)))
        steps.append(f"cat {parts} > {out}.all && rm {parts} && {keep_lines(f'{out}.all', out, slice_n)} && rm {out}.all")
    return " && ".join(steps)


def keep_lines(inp, out, slice_n):
    # not `cat | head`: head exiting early fails the pipe under pipefail
    return f"head -n {slice_n} {inp} > {out}" if slice_n > 0 else f"cp {inp} {out}"


def fetch_split_command(w, output):
    """The shell command that makes raw/{split}.{src,tgt}: fetched sources concatenated (or the
    split of a resplit pair's pool), then cut to the pair's first N lines if it asks (`slice`)."""
    slice_n = PAIRS[w.pair].get("slice", 0)
    if from_pool(w.pair, w.split):
        pool = f"{WORK}/{w.pair}/pool"
        return " && ".join(keep_lines(f"{pool}/{w.split}.{side}", out, slice_n) for side, out in (("src", output.src), ("tgt", output.tgt)))
    return fetch_sources_command(w.pair, split_sources(w.pair, w.split), output, slice_n)


# The language filter's place (filter_order): on the raw training text, or on the cleaned one
def filter_order(pair):
    spec = PAIRS[pair]
    return spec.get("filter_order", "filter_first") if spec.get("langid_filter", False) else None


for _pair in PAIRS:
    if filter_order(_pair) == "clean_first" and pair_subwords(PAIRS[_pair]) == "spm":
        raise ValueError(f"pairs.{_pair}: filter_order clean_first needs subwords bpe or none (SentencePiece reads uncleaned text)")
FILTER_FIRST_RE = _alternatives(p for p in PAIRS if filter_order(p) == "filter_first") or "(?!x)x"
CLEAN_FIRST_RE = _alternatives(p for p in PAIRS if filter_order(p) == "clean_first") or "(?!x)x"


for _pair, _spec in PAIRS.items():
    _other = _spec.get("scores_as")
    if _other is None:
        continue
    if _other not in PAIRS or "scores_as" in PAIRS[_other] or "multitask_parse" in _spec:
        raise ValueError(f"pairs.{_pair}.scores_as: '{_other}' must be another plain pair (not scores_as itself; not with multitask_parse)")
    for _key in ("corpus", "src", "tgt", "splits", "resplit", "test_sets", "bleu", "tokenizer"):
        _mine, _theirs = _spec.get(_key), PAIRS[_other].get(_key)
        if _key == "splits" and _mine and _theirs:  # the training split may differ
            _mine = {k: v for k, v in _mine.items() if k != "train"}
            _theirs = {k: v for k, v in _theirs.items() if k != "train"}
        if _mine != _theirs:
            raise ValueError(f"pairs.{_pair}.scores_as: its {_key} differs from {_other}'s (the validation and test sets must be the same)")


# Pairs whose data is a multi-task mix built from another pair (Pascal's +C&H, multitask.smk)
MULTITASK_PAIRS = {name: spec["multitask_parse"]["from"] for name, spec in PAIRS.items() if "multitask_parse" in spec}
for _pair, _base in MULTITASK_PAIRS.items():
    if _base not in PAIRS or "src" not in pair_parsers(PAIRS[_base]):
        raise ValueError(f"pair {_pair}: multitask_parse.from '{_base}' must be a pair with parse.src")
    if pair_parsers(PAIRS[_pair]) or pair_subwords(PAIRS[_pair]) != "bpe" or PAIRS[_pair]["bpe"]["mode"] != "joint":
        raise ValueError(f"pair {_pair}: a multitask_parse pair has no parse of its own and needs joint BPE (learnt on the mix)")
    for _key in ("src", "tgt", "test_sets"):
        if PAIRS[_pair].get(_key) != PAIRS[_base].get(_key):
            raise ValueError(f"pair {_pair}: {_key} must equal that of its multitask_parse.from pair {_base}")
# a regex that matches no pair name when there are none
MULTITASK_PAIR_RE = _alternatives(MULTITASK_PAIRS) or "(?!x)x"
MULTITASK_GLOSSARIES = "'<TR>' '<PA>'"  # never split by BPE


def bpe_codes(pair, lang):
    if PAIRS[pair]["bpe"]["mode"] == "joint":
        return f"{WORK}/{pair}/bpe/codes.joint"
    return f"{WORK}/{pair}/bpe/codes.{lang}"


def tokenised_text(pair, split, side):
    """The tokenised text of a split: cleaned for training, only tokenised for valid/test. BPE
    segments it, word-level pairs binarise it as is, and the parser parses it, so a parse cache's
    words are exactly the words the sub-word marks delimit."""
    if split == "train" and filter_order(pair) == "clean_first":
        return f"{WORK}/{pair}/filtered/train.{side}"
    stage = "clean" if split == "train" else "tok"
    return f"{WORK}/{pair}/{stage}/{split}.{side}"


def bpe_input(w):
    return tokenised_text(w.pair, w.split, w.side)


def score_flags(pair, metric):
    """synmt-score flags of a metric on a pair: the pair's BLEU tokenisation (`bleu: {tokenize:
    13a | intl | none | ja-mecab | ...}`, default sacreBLEU's 13a); bleu_tok is tokenised BLEU as
    multi-bleu.perl computes it (SA-NMT), scored on tokenised hypotheses and references."""
    if metric == "bleu_tok":
        return "-t none -s none"  # what --multi-bleu implies; paired-bs takes the explicit form
    if metric == "bleu":
        tok = PAIRS[pair].get("bleu", {}).get("tokenize")
        return f"-t {tok}" if tok else ""
    return ""


def score_command(metric):
    """synmt-score's sub-command for a table metric."""
    return "bleu" if metric == "bleu_tok" else metric


LANGID_SETS = {s["name"]: s for s in config.get("langid_report", {}).get("sets", [])}
for _name, _spec in LANGID_SETS.items():
    if _spec["corpus"] not in CORPORA:
        raise ValueError(f"langid_report set {_name}: corpus '{_spec['corpus']}' is in no corpora file")


def corpus_entry(corpus, name):
    """One corpus file as synmt-fetch takes it: (mirror relpath, URL, sha256, archive checksum,
    member, format, manual instruction). The first three are --file's RELPATH URL SHA256 for a plain
    file; for an archive member they are the archive's path and URL and the member text's sha256,
    and the archive's checksum, the member and its format follow (None for a plain file). Absent
    URLs and checksums are '-'. A file that needs a manual download and is not in the mirror is
    named once, with where to place it, while the DAG is built."""
    c = CORPORA[corpus]
    if name not in c["files"]:
        raise ValueError(f"{CORPUS_FILE[corpus]}: corpus {corpus} has no file {name}")
    e = c["files"][name]
    sha = e.get("sha256") or "-"
    if "archive" not in e:
        url = f"{c['url_base']}/{e['remote']}" if "remote" in e else "-"
        relpath, archive_sum, member, fmt, manual = f"{c['mirror_dir']}/{e['mirror']}", None, None, None, e.get("manual")
    else:
        a = c.get("archives", {}).get(e["archive"])
        if a is None:
            raise ValueError(f"{CORPUS_FILE[corpus]}: corpus {corpus} file {name}: no archive '{e['archive']}' in its archives")
        relpath, url, manual = f"{c['mirror_dir']}/{a['mirror']}", a.get("url") or "-", a.get("manual")
        archive_sum = a.get("sha256") or (f"md5:{a['md5']}" if a.get("md5") else "-")
        member, fmt = e["member"], e.get("format", "text")
    if manual and url == "-" and not (config["mirror"] and os.path.exists(os.path.join(config["mirror"], relpath))):
        announced = corpus_entry.__dict__.setdefault("announced", set())
        if relpath not in announced:
            announced.add(relpath)
            where = os.path.join(config["mirror"], relpath) if config["mirror"] else f"MIRROR/{relpath} (config mirror is '')"
            print(f"synmt: corpus {corpus} ({CORPUS_FILE[corpus]}) needs a manual download: {manual}; place it at {where}",
                  file=sys.stderr)
    return relpath, url, sha, archive_sum, member, fmt, manual


def untokenised_text(pair, split, side):
    """The raw text of one side of a split, language-filtered first for training when the pair
    asks for it: what the tokeniser reads, and what SentencePiece reads (it segments untokenised
    text; length cleaning is a tokeniser-level step and does not apply to it)."""
    if split == "train" and filter_order(pair) == "filter_first":
        return f"{WORK}/{pair}/langid/train.{side}"
    return f"{WORK}/{pair}/raw/{split}.{side}"


def tokenize_input(w):
    return untokenised_text(w.pair, w.split, w.side)


def subword_kind(pair):
    """bpe | spm | none (word-level: the tokenised text is binarised as is); bpe when unset."""
    return pair_subwords(PAIRS[pair])


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


def spm_input(w):
    return untokenised_text(w.pair, w.split, w.side)


def postprocess_inputs(w):
    pair = SYSTEMS[w.system]["pair"]
    inputs = {"sub": f"{RESULTS}/systems/{w.system}/hyp.{w.split}.sub"}
    if subword_kind(pair) == "spm":
        inputs["model"] = f"{WORK}/{pair}/spm/model.model"
    return inputs


def postprocess_command(w, input, output):
    pair = PAIRS[SYSTEMS[w.system]["pair"]]
    if pair_subwords(pair) == "spm":
        return f"{BIN}/synmt-spm decode -m {input.model} -i {input.sub} -o {output}"
    # word-level output has no BPE joins to undo (a token may end in "@@" legitimately)
    join = f"cat {input.sub}" if pair_subwords(pair) == "none" else f"sed -E 's/(@@ )|(@@ ?$)//g' {input.sub}"
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
    for _side, _parser in pair_parsers(_spec).items():
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
    return "src" in pair_parsers(PAIRS[pair])


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
    if "src" in pair_parsers(PAIRS[w.pair]):
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
    spec = PARSERS[pair_parsers(PAIRS[w.pair])[w.side]]
    if spec["backend"] == "builtin":
        return f"--backend builtin --model {input.model}"
    if spec["backend"] == "conllu":
        return f"--backend conllu --conllu {input.model}"
    return f"--backend corenlp --url {spec['url']} --model-tag {spec.get('model_tag', 'unversioned')}"


# --- decoding, scoring and tables (decode.smk, eval.smk, tables.smk) ---
def hyp_file(system, split, metric):
    """Detokenised hypotheses (scored like the references as they ship) or, for bleu_tok,
    tokenised ones scored against the tokenised references (multi-bleu.perl's setting)."""
    return f"{RESULTS}/systems/{system}/hyp.{split}.{'tok' if metric == 'bleu_tok' else 'txt'}"


def ref_file(pair, split, metric):
    if metric == "bleu_tok":
        return f"{WORK}/{pair}/tok/{split}.tgt"
    return f"{WORK}/{pair}/raw/{split}.tgt"


def group_runs(w):
    return experiment.runs_of(SYSTEMS, w.group, w.pair)


def _significance_inputs(w):
    ext = "tok" if w.metric == "bleu_tok" else "txt"
    n = len(experiment.runs_of(SYSTEMS, w.system, w.pair))
    return {
        "baseline": experiment.group_hyp_file(RESULTS, w.baseline, w.pair, w.split, w.metric),
        "system": experiment.group_hyp_file(RESULTS, w.system, w.pair, w.split, w.metric),
        "ref": f"{RESULTS}/groups/references/{w.pair}/{w.split}.x{n}.{ext}",
    }


def decode_checkpoints(system):
    """The checkpoint files a run decodes with: its own best.pt or averaged.pt (decode.checkpoint;
    the trainer writes averaged.pt beside best.pt when train.average_last > 0), or each member's
    for an ensemble (`ensemble: [runs]`; log-probabilities averaged)."""
    run = SYSTEMS[system]
    members = run.get("ensemble", [system])
    # a decode-only system's own `checkpoint` names its members' files, so one run can be decoded
    # from best.pt and, as a second system, from its averaged.pt without being trained twice
    which = run["decode"].get("checkpoint", "best")
    return [f"{RESULTS}/systems/{m}/{which}.pt" for m in members]


def _resolve(table):
    try:
        return experiment.resolve_table(table, config["tables"][table], SYSTEMS, PAIRS, RESULTS)
    except experiment.ConfigError as e:
        raise ValueError(str(e)) from None


TABLES = {name: _resolve(name) for name in config["tables"]}
for _name in config["experiment"]["tables"]:
    if _name == "langid_filter":
        if not LANGID_SETS:
            raise ValueError("experiment.tables: langid_filter needs a langid_report block")
    elif _name not in TABLES:
        raise ValueError(f"experiment.tables: unknown table '{_name}'")


def table_runs(table):
    return sorted({r for c in TABLES[table]["cells"] for r in c["runs"]})

def trained_runs(runs):
    """The runs whose training produced these runs' models: a decode-only run stands for its
    members (their hardware and dates go into a table's header)."""
    return sorted({m for r in runs for m in SYSTEMS[r].get("ensemble", [r])})


def table_inputs(table):
    t = TABLES[table]
    inputs = {
        "values": sorted({f for c in t["cells"] for f in c["values"]}),
        "tests": sorted({x["file"] for c in t["cells"] for x in c["tests"]} | {c["ci_file"] for c in t["cells"] if "ci_file" in c}),
        "summaries": [f"{RESULTS}/systems/{r}/summary.json" for r in trained_runs(table_runs(table))],
        "provenance": [f"{RESULTS}/systems/{r}/provenance.json" for r in trained_runs(table_runs(table))],
    }
    if t["paper"]:
        inputs["paper"] = f"pipeline/papers/{t['paper']['file']}.yaml"
    return inputs

def run_budget(run):
    """A run's training budget in words, from its config (updates / epochs, never wall-clock alone)."""
    if "ensemble" in SYSTEMS[run]:
        members, which = SYSTEMS[run]["ensemble"], SYSTEMS[run]["decode"].get("checkpoint", "best")
        if len(members) == 1:
            return f"{members[0]} decoded from its {which}.pt ({run_budget(members[0])})"
        return f"ensemble of {', '.join(members)} ({which}.pt)"
    t = SYSTEMS[run].get("train", {})
    parts = []
    if t.get("patience"):  # the convergence rule: the same words for every row trained by it
        metric = "BLEU" if t.get("keep_best") == "bleu" else "perplexity"
        per_epoch = t.get("valid_per_epoch", 1)
        every = "an epoch" if per_epoch == 1 else f"1/{per_epoch} epoch"
        parts.append(f"until {t['patience']} validations (every {every}) without a better dev {metric}")
    if t.get("max_steps"):
        parts.append(f"{t['max_steps']} updates")
    parts.append(f"≤ {t.get('max_epochs', 10)} epochs")
    if t.get("max_minutes"):
        parts.append(f"≤ {t['max_minutes']} min")
    return ", ".join(parts)


# --- figures and the report (report.smk) ---
REPORT = config.get("report", {})
EXPERIMENT_TABLES = [t for t in config["experiment"]["tables"] if t != "langid_filter"]


def table_first_metric_column(table):
    """The first hypothesis-scored column of a table (the length-bucket figure's test set), or None."""
    return next((c for c in TABLES[table]["columns"] if "metric" in c), None)


def table_row_runs(table, pair):
    """(row label, first run) of every measured row on a pair: the runs a figure shows."""
    out = []
    for row in TABLES[table]["rows"]:
        system = experiment.system_for(row, {"pair": pair})
        if system:
            runs = experiment.runs_of(SYSTEMS, system, pair)
            if runs:
                out.append((row["label"], runs[0]))
    return out


def trained_row_runs(table, pair):
    """(row label, run whose training a curve shows): a decode-only row shows its first member's."""
    return [(label, SYSTEMS[r]["ensemble"][0] if "ensemble" in SYSTEMS[r] else r) for label, r in table_row_runs(table, pair)]


def heatmap_spec(name):
    return next(h for h in REPORT.get("heatmaps", []) if h["name"] == name)


def report_figures():
    """(caption, PNG path, paper figure reference) of every figure of the experiment's report."""
    figs = []
    for t in EXPERIMENT_TABLES:
        if not table_runs(t):
            continue  # data statistics only (e.g. sentence counts): no curves, no lengths
        figs.append((f"{t}: training and validation curves (first run of each row)", f"{RESULTS}/figures/curves/{t}.png", ""))
        if table_first_metric_column(t) is not None:
            figs.append((f"{t}: BLEU by source length", f"{RESULTS}/figures/length/{t}.png", REPORT.get("length_paper_ref", "")))
    for h in REPORT.get("heatmaps", []):
        figs.append((h.get("caption", f"{h['tensor']} of {h['run']}"), f"{RESULTS}/figures/heatmap/{h['name']}.png", h.get("paper_ref", "")))
    return figs


def experiment_runs():
    return sorted({r for t in EXPERIMENT_TABLES for r in table_runs(t) if "ensemble" not in SYSTEMS[r]})


# --- induced trees and their baselines on a pair's gold treebank split (trees.smk) ---
def decode_extra_flags(system, input):
    """synmt-translate flags of the optional decoding steps: the length prior, UnkRep."""
    d = SYSTEMS[system]["decode"]
    flags = ""
    if d.get("length_prior"):
        flags += f" --length-prior {input.length_prior}"
    if d.get("unk_replace"):
        flags += " --unk-replace"
    return flags


def induced_trees_spec(system):
    """How a system's head scores become trees (systems.NAME.induced_trees; SA-NMT's defaults)."""
    spec = {"tensor": "phi", "rows": "heads", "decoder": "cle"}
    spec.update(SYSTEMS[system].get("induced_trees", {}))
    return spec


def length_prior_path(pair):
    return f"{WORK}/{pair}/length_prior.json"


def pretrained_parser_path(system):
    """LGP-NMT+'s pre-trained parser (systems.NAME.pretrain_parser), or None. The seeds of one
    system share it (pre-training does not depend on the translation seed): it lives in the run
    directory of the group's first run."""
    spec = SYSTEMS[system]
    if "pretrain_parser" not in spec:
        return None
    group = sorted(r for r, s in SYSTEMS.items() if s.get("system") == spec.get("system") and s.get("pair") == spec.get("pair"))
    owner = group[0] if group else system
    return f"{RESULTS}/systems/{owner}/pretrained_parser/parser.pt"


def pretrain_parser_flags(system):
    """synmt-parser-train flags of an LGP-NMT+ pre-training: the named parser's treebanks and train
    options, the first K sentences, E epochs (no early stop, no wall-clock budget); the model sizes come from the lgp
    config (--lgp-config), never from the parser's model options."""
    spec = SYSTEMS[system]["pretrain_parser"]
    parser = PARSERS[spec["parser"]]
    if parser.get("backend") != "builtin":
        raise ValueError(f"systems.{system}.pretrain_parser: '{spec['parser']}' is not a builtin parser")
    flags = [f"--train {treebank(t)}" for t in as_list(parser["train"])] + [f"--dev {treebank(parser['dev'])}"]
    flags += [f"--test {treebank(t)}" for t in parser.get("test", [])]
    train = dict(parser.get("options", {}).get("train", {}))
    train.update({"max_sentences": spec.get("sentences", 0), "max_epochs": spec.get("epochs", 10), "patience": spec.get("epochs", 10), "max_minutes": 0})
    flags += [f"--set train.{k}={json.dumps(v)}" for k, v in sorted(train.items())]
    if spec.get("fold_case", False):
        flags.append("--fold-case")
    return " ".join(flags)


def train_config_content(system):
    """synmt-train's config of a system: its model and train sections, and the pre-trained parser
    file an LGP-NMT+ run starts from."""
    model = json.loads(json.dumps(SYSTEMS[system]["model"]))
    parser = pretrained_parser_path(system)
    if parser:
        model.setdefault("options", {})["pretrained_parser"] = parser
    return {"model": model, "train": SYSTEMS[system]["train"]}


def gold_spec(pair, split):
    """The pair's gold treebank of split `split` (one entry of gold_trees)."""
    for spec in PAIRS[pair].get("gold_trees", []):
        if spec["split"] == split:
            return spec
    raise ValueError(f"pairs.{pair}: no gold_trees entry with split '{split}' (needed for induced trees / the gate analysis)")


def gold_treebank(pair, split, side="src"):
    """The mirror path of a pair's gold treebank side (gold_trees.src / .tgt) of split `split`."""
    spec = gold_spec(pair, split)
    if side not in spec:
        raise ValueError(f"pairs.{pair}: no gold_trees.{side} for split '{split}' (needed for the gate analysis)")
    return f"{config['mirror']}/{spec[side]}"
