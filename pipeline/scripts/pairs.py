"""Language pairs resolved once: every default and every cross-key check of a `pairs:` entry in one
place, so that the rules read typed fields (pair.subwords, pair.parsers, pair.filter_order, ...)
instead of the raw config, and a bad entry fails at start-up with its config path.

Plain Python (no Snakemake): tests/pipeline/test_pairs.py runs it under pytest. The raw entry stays
untouched (pair.spec): rules that hand parts of it to a tool as parameters keep their values.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import yaml

from experiment import ConfigError, refuse_wall_clock

BUILT_IN_SPLITS = ("train", "valid", "test")


@dataclass(frozen=True)
class Pair:
    name: str
    spec: dict = field(repr=False)
    src: str
    tgt: str
    corpus: str
    subwords: str  # bpe | spm | none (word level)
    parsers: dict  # side -> parser name ({"src": "ud_en"}), {} without syntax
    filter_order: str | None  # filter_first | clean_first when the pair is language-filtered, else None
    gold_trees: tuple  # the pair's gold treebank splits (a parallel treebank such as PUD)
    test_sets: dict  # extra test split name -> its sources
    multitask_from: str | None  # the pair a multi-task mix is built from (Pascal's +C&H)
    slice: int  # keep the first N lines of every split (0: all)

    @property
    def has_source_syntax(self) -> bool:
        return "src" in self.parsers

    @property
    def gold_splits(self) -> set:
        return {g["split"] for g in self.gold_trees}

    @property
    def splits(self) -> set:
        return set(BUILT_IN_SPLITS) | set(self.test_sets) | self.gold_splits


CORPUS_KEYS = {"mirror_dir", "url_base", "files", "archives"}
CORPUS_FILE_KEYS = {"mirror", "remote", "sha256", "archive", "member", "format", "manual"}
CORPUS_ARCHIVE_KEYS = {"mirror", "url", "sha256", "md5", "manual"}


def check_corpora_text(path, text):
    """A corpora file's entries against the keys the fetch rules read, on the YAML nodes so that an
    error names the file and line: an unknown key is refused, because a misspelt `sha256` would
    otherwise switch the file's checksum off without a word, and a misspelt `remote` its URL."""
    root = yaml.compose(text)
    if root is None:
        return

    def where(node):
        return f"{path}:{node.start_mark.line + 1}"

    def mapping(node, what, allowed=None, required=()):
        if not isinstance(node, yaml.MappingNode):
            raise ConfigError(f"{where(node)}: {what} must be a mapping")
        items = {}
        for k, v in node.value:
            if allowed is not None and k.value not in allowed:
                raise ConfigError(f"{where(k)}: {what}: unknown key '{k.value}' (one of: {', '.join(sorted(allowed))})")
            items[k.value] = v
        for r in required:
            if r not in items:
                raise ConfigError(f"{where(node)}: {what}: no '{r}'")
        return items

    for corpus, cnode in mapping(root, "a corpora file").items():
        c = mapping(cnode, f"corpus {corpus}", CORPUS_KEYS, ("files",))
        archives = mapping(c["archives"], f"corpus {corpus}: archives") if "archives" in c else {}
        for name, anode in archives.items():
            mapping(anode, f"corpus {corpus}, archive {name}", CORPUS_ARCHIVE_KEYS, ("mirror",))
        files = mapping(c["files"], f"corpus {corpus}: files")
        if files and "mirror_dir" not in c:
            raise ConfigError(f"{where(cnode)}: corpus {corpus}: no 'mirror_dir'")
        for name, fnode in files.items():
            what = f"corpus {corpus}, file {name}"
            f = mapping(fnode, what, CORPUS_FILE_KEYS)
            if "archive" in f:
                if "member" not in f:
                    raise ConfigError(f"{where(fnode)}: {what}: an archive member needs 'member'")
                if f["archive"].value not in archives:
                    raise ConfigError(f"{where(f['archive'])}: {what}: no archive '{f['archive'].value}' in the corpus' archives")
            else:
                for key in ("member", "format"):
                    if key in f:
                        raise ConfigError(f"{where(f[key])}: {what}: '{key}' belongs to an archive member (no 'archive')")
                if "mirror" not in f:
                    raise ConfigError(f"{where(fnode)}: {what}: no 'mirror'")
                if "remote" in f and "url_base" not in c:
                    raise ConfigError(f"{where(f['remote'])}: {what}: 'remote' needs the corpus' 'url_base'")


def load_corpora(paths, built_in):
    """{name: entry} and {name: file} from corpora files in order; a built-in file may be absent, a
    user's may not; a name defined twice is an error naming both files; every entry is checked
    (check_corpora_text)."""
    corpora, where = {}, {}
    for path in paths:
        if not os.path.exists(path):
            if path in built_in:
                continue
            raise ConfigError(f"corpora: no such file '{path}'")
        with open(path) as f:
            text = f.read()
        check_corpora_text(path, text)
        entries = yaml.safe_load(text) or {}
        for name, spec in entries.items():
            if name in corpora:
                raise ConfigError(f"corpus '{name}' is defined in both {where[name]} and {path}")
            corpora[name] = spec
            where[name] = path
    return corpora, where


def _resolve_one(name, spec, corpora, corpus_files):
    p = f"pairs.{name}"
    subwords = spec.get("subwords", "bpe")
    parsers = dict(spec.get("parse", {}))
    if subwords == "bpe" and "bpe" not in spec:
        raise ConfigError(f"{p}: subwords: bpe needs a 'bpe' block")
    if subwords == "spm" and "spm" not in spec:
        raise ConfigError(f"{p}: subwords: spm needs an 'spm' block")
    if subwords == "none" and ("bpe" in spec or "spm" in spec):
        raise ConfigError(f"{p}: subwords: none (word-level) takes no 'bpe' or 'spm' block")
    # SentencePiece segments the untokenised text: its words are not the tokens the parser saw
    if subwords == "spm" and "src" in parsers:
        raise ConfigError(f"{p}: parse.src needs subwords: bpe or none (SentencePiece segments untokenised text)")
    if spec["corpus"] not in corpora:
        raise ConfigError(f"{p}.corpus: '{spec['corpus']}' is in no corpora file ({', '.join(sorted(set(corpus_files.values())))})")
    if ("splits" in spec) == ("resplit" in spec):
        raise ConfigError(f"{p}: give exactly one of 'splits' (the corpus' own splits) or 'resplit' (a seeded split of one pool)")
    if "resplit" in spec and (spec["resplit"]["test"] == 0) != ("test_source" in spec["resplit"]):
        raise ConfigError(f"{p}.resplit: an external test set is 'test: 0' with 'test_source'; a held-out one is 'test: N' without it")
    test_sets = dict(spec.get("test_sets", {}))
    for split in test_sets:
        if split in BUILT_IN_SPLITS:
            raise ConfigError(f"{p}.test_sets: '{split}' is a built-in split name")
    gold = spec.get("gold_trees", [])
    gold = (gold,) if isinstance(gold, dict) else tuple(gold)  # one gold treebank or a list of them
    for g in gold:
        if g["split"] in set(BUILT_IN_SPLITS) | set(test_sets):
            raise ConfigError(f"{p}.gold_trees.split: '{g['split']}' names another split of the pair")
    if len({g["split"] for g in gold}) != len(gold):
        raise ConfigError(f"{p}.gold_trees: two gold treebanks with one split name")
    if gold and subwords == "spm":
        raise ConfigError(f"{p}.gold_trees: needs subwords bpe or none (SentencePiece segments untokenised text)")
    filter_order = spec.get("filter_order", "filter_first") if spec.get("langid_filter", False) else None
    if filter_order == "clean_first" and subwords == "spm":
        raise ConfigError(f"{p}: filter_order clean_first needs subwords bpe or none (SentencePiece reads uncleaned text)")
    return Pair(
        name=name, spec=spec, src=spec["src"], tgt=spec["tgt"], corpus=spec["corpus"], subwords=subwords,
        parsers=parsers, filter_order=filter_order, gold_trees=gold, test_sets=test_sets,
        multitask_from=spec.get("multitask_parse", {}).get("from"), slice=spec.get("slice", 0),
    )


# the keys a scores_as pair must share with the pair it is scored as (its validation and test sets)
SCORES_AS_SAME = ("corpus", "src", "tgt", "splits", "resplit", "test_sets", "bleu", "tokenizer")


def _check_between(pairs, parsers):
    for name, pair in pairs.items():
        for side, parser in pair.parsers.items():
            if parser not in parsers:
                raise ConfigError(f"pairs.{name}.parse.{side}: unknown parser '{parser}'")
        other = pair.spec.get("scores_as")
        if other is not None:
            if other not in pairs or "scores_as" in pairs[other].spec or pair.multitask_from:
                raise ConfigError(f"pairs.{name}.scores_as: '{other}' must be another plain pair (not scores_as itself; not with multitask_parse)")
            for key in SCORES_AS_SAME:
                mine, theirs = pair.spec.get(key), pairs[other].spec.get(key)
                if key == "splits" and mine and theirs:  # the training split may differ
                    mine = {k: v for k, v in mine.items() if k != "train"}
                    theirs = {k: v for k, v in theirs.items() if k != "train"}
                if mine != theirs:
                    raise ConfigError(f"pairs.{name}.scores_as: its {key} differs from {other}'s (the validation and test sets must be the same)")
        base = pair.multitask_from
        if base is not None:
            if base not in pairs or not pairs[base].has_source_syntax:
                raise ConfigError(f"pair {name}: multitask_parse.from '{base}' must be a pair with parse.src")
            if pair.parsers or pair.subwords != "bpe" or pair.spec["bpe"]["mode"] != "joint":
                raise ConfigError(f"pair {name}: a multitask_parse pair has no parse of its own and needs joint BPE (learnt on the mix)")
            for key in ("src", "tgt", "test_sets"):
                if pair.spec.get(key) != pairs[base].spec.get(key):
                    raise ConfigError(f"pair {name}: {key} must equal that of its multitask_parse.from pair {base}")


def check_parsers(parsers):
    for name, spec in parsers.items():
        refuse_wall_clock(f"parsers.{name}.options.train", spec.get("options", {}).get("train"))
        if spec["backend"] == "builtin" and not ("train" in spec and "dev" in spec):
            raise ConfigError(f"parsers.{name}: the builtin backend needs 'train' and 'dev' treebanks")
        if spec["backend"] == "corenlp" and "url" not in spec:
            raise ConfigError(f"parsers.{name}: the corenlp backend needs 'url'")
        if spec["backend"] == "conllu" and "conllu" not in spec:
            raise ConfigError(f"parsers.{name}: the conllu backend needs 'conllu' (split -> CoNLL-U file)")


def resolve_pairs(pairs, corpora, corpus_files, parsers):
    """{name: Pair} of a config's pairs, every default filled in and every check made."""
    check_parsers(parsers)
    resolved = {name: _resolve_one(name, spec, corpora, corpus_files) for name, spec in pairs.items()}
    _check_between(resolved, parsers)
    return resolved
