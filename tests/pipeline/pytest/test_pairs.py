"""pairs.resolve_pairs and load_corpora: the defaults a pair gets, every cross-key check, and the
real configuration files (each experiment file's pairs resolve over config.yaml)."""
import copy
import re
import glob
import os

import pytest
import yaml

import pairs
from conftest import ROOT
from experiment import ConfigError

CORPORA = {"c": {"files": {}}, "d": {"files": {}}}
FILES = {"c": "corpora.yaml", "d": "corpora.yaml"}
PARSERS = {"ud": {"backend": "builtin", "train": "t", "dev": "d"}}


def spec(**extra):
    s = {"corpus": "c", "src": "en", "tgt": "de", "splits": {"train": "train", "valid": "val", "test": "test"},
         "bpe": {"mode": "joint", "merges": 10}, "tokenizer": "moses", "vocab": {}}
    s.update(extra)
    return {k: v for k, v in s.items() if v is not None}


def resolve(**named):
    return pairs.resolve_pairs(named, CORPORA, FILES, PARSERS)


def refused(match, **named):
    with pytest.raises(ConfigError, match=match):
        resolve(**named)


def test_defaults():
    p = resolve(p=spec())["p"]
    assert (p.subwords, p.parsers, p.filter_order, p.gold_trees, p.test_sets, p.slice) == ("bpe", {}, None, (), {}, 0)
    assert not p.has_source_syntax
    assert p.splits == {"train", "valid", "test"}


def test_fields_read_once():
    gold = {"split": "pud", "src": "a.conllu"}
    p = resolve(p=spec(parse={"src": "ud"}, langid_filter=True, gold_trees=gold, test_sets={"t2": "x"}, slice=300))["p"]
    assert p.has_source_syntax and p.parsers == {"src": "ud"}
    assert p.filter_order == "filter_first"
    assert p.gold_trees == (gold,) and p.gold_splits == {"pud"}
    assert p.splits == {"train", "valid", "test", "t2", "pud"}
    assert p.slice == 300
    assert resolve(p=spec(langid_filter=True, filter_order="clean_first"))["p"].filter_order == "clean_first"
    assert resolve(p=spec(filter_order="clean_first"))["p"].filter_order is None  # no filter, no order


def test_raw_entry_untouched():
    raw = spec(gold_trees={"split": "pud", "src": "a"})
    before = copy.deepcopy(raw)
    resolve(p=raw)
    assert raw == before


@pytest.mark.parametrize("extra,match", [
    ({"subwords": "spm"}, "subwords: spm needs an 'spm' block"),
    ({"bpe": None}, "subwords: bpe needs a 'bpe' block"),
    ({"subwords": "none"}, "takes no 'bpe' or 'spm' block"),
    ({"subwords": "spm", "bpe": None, "spm": {"pieces": 8}, "parse": {"src": "ud"}}, "parse.src needs subwords"),
    ({"corpus": "nope"}, r"corpus: 'nope' is in no corpora file \(corpora.yaml\)"),
    ({"resplit": {"test": 0, "test_source": "x"}}, "exactly one of 'splits'"),
    ({"splits": None, "resplit": {"test": 10, "test_source": "x"}}, "an external test set is 'test: 0'"),
    ({"test_sets": {"valid": "x"}}, "'valid' is a built-in split name"),
    ({"gold_trees": {"split": "test", "src": "a"}}, "'test' names another split"),
    ({"gold_trees": [{"split": "g", "src": "a"}, {"split": "g", "src": "b"}]}, "two gold treebanks with one split name"),
    ({"subwords": "spm", "bpe": None, "spm": {"pieces": 8}, "gold_trees": {"split": "g", "src": "a"}}, "gold_trees: needs subwords"),
    ({"subwords": "spm", "bpe": None, "spm": {"pieces": 8}, "langid_filter": True, "filter_order": "clean_first"}, "clean_first needs subwords"),
    ({"parse": {"src": "nope"}}, "parse.src: unknown parser 'nope'"),
])
def test_one_pair_refused(extra, match):
    refused(match, p=spec(**extra))


def test_scores_as():
    assert resolve(a=spec(), b=spec(splits={"train": "other", "valid": "val", "test": "test"}, scores_as="a"))
    refused("its splits differs from a's", a=spec(), b=spec(splits={"train": "t", "valid": "v2", "test": "test"}, scores_as="a"))
    refused("must be another plain pair", a=spec(scores_as="b"), b=spec(scores_as="a"))


def test_multitask():
    base = spec(parse={"src": "ud"})
    assert resolve(a=base, m=spec(multitask_parse={"from": "a"}))["m"].multitask_from == "a"
    refused("must be a pair with parse.src", a=spec(), m=spec(multitask_parse={"from": "a"}))
    refused("needs joint BPE", a=base, m=spec(multitask_parse={"from": "a"}, bpe={"mode": "separate", "merges": 5}))
    refused("tgt must equal", a=base, m=spec(multitask_parse={"from": "a"}, tgt="fr"))


@pytest.mark.parametrize("parser,match", [
    ({"backend": "builtin", "train": "t"}, "needs 'train' and 'dev'"),
    ({"backend": "corenlp"}, "needs 'url'"),
    ({"backend": "conllu"}, "needs 'conllu'"),
])
def test_parsers_refused(parser, match):
    with pytest.raises(ConfigError, match=match):
        pairs.resolve_pairs({}, CORPORA, FILES, {"x": parser})


def test_load_corpora(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("x: {files: {}}\n")
    b.write_text("x: {files: {}}\n")
    corpora, where = pairs.load_corpora([str(tmp_path / "builtin-absent.yaml"), str(a)], [str(tmp_path / "builtin-absent.yaml")])
    assert list(corpora) == ["x"] and where["x"] == str(a)
    with pytest.raises(ConfigError, match=f"defined in both {a} and {b}"):
        pairs.load_corpora([str(a), str(b)], [])
    with pytest.raises(ConfigError, match="no such file"):
        pairs.load_corpora([str(tmp_path / "missing.yaml")], [])


GOOD_CORPUS = """\
c:
  mirror_dir: parallel/c
  url_base: https://example.org/c
  archives:
    tgz: {mirror: c.tgz, url: https://example.org/c.tgz, sha256: abc}
  files:
    train.en: {mirror: train.en.gz, remote: train.en, sha256: def}
    test.en: {archive: tgz, member: c/test.en, format: sgml, sha256: ghi}
"""


@pytest.mark.parametrize("text, match", [
    # a misspelt checksum key would switch the checksum off: refused, with the file and line
    (GOOD_CORPUS.replace("remote: train.en, sha256", "remote: train.en, sha265"), r":7: corpus c, file train.en: unknown key 'sha265'"),
    (GOOD_CORPUS.replace("url_base:", "url-base:"), r":3: corpus c: unknown key 'url-base'"),
    (GOOD_CORPUS.replace("url: https://example.org/c.tgz", "link: x"), r":5: corpus c, archive tgz: unknown key 'link'"),
    (GOOD_CORPUS.replace("archive: tgz, member", "archive: zip, member"), r":8: corpus c, file test.en: no archive 'zip'"),
    (GOOD_CORPUS.replace("archive: tgz, member: c/test.en, ", ""), r":8: corpus c, file test.en: 'format' belongs to an archive member"),
    (GOOD_CORPUS.replace("mirror: train.en.gz, ", ""), r":7: corpus c, file train.en: no 'mirror'"),
    (GOOD_CORPUS.replace("  url_base: https://example.org/c\n", ""), r":6: corpus c, file train.en: 'remote' needs the corpus' 'url_base'"),
    (GOOD_CORPUS.replace("  mirror_dir: parallel/c\n", ""), r":2: corpus c: no 'mirror_dir'"),
    ("c: [1, 2]\n", r":1: corpus c must be a mapping"),
])
def test_corpora_files_are_checked_with_file_and_line(tmp_path, text, match):
    good = tmp_path / "good.yaml"
    good.write_text(GOOD_CORPUS)
    corpora, _ = pairs.load_corpora([str(good)], [])
    assert corpora["c"]["files"]["test.en"]["member"] == "c/test.en"
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(ConfigError, match=re.escape(str(bad)) + match):
        pairs.load_corpora([str(bad)], [])


def merged(base, over):
    """Snakemake's --configfile merge: dictionaries merged key by key, anything else replaced."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        out[k] = merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else copy.deepcopy(v)
    return out


@pytest.mark.parametrize("path", [None] + sorted(glob.glob(os.path.join(ROOT, "pipeline/config/experiments/*.yaml"))),
                         ids=lambda p: os.path.basename(p) if p else "config.yaml")
def test_real_configurations_resolve(path):
    os.chdir(ROOT)
    config = yaml.safe_load(open("pipeline/config/config.yaml"))
    if path:
        config = merged(config, yaml.safe_load(open(path)))
    built_in = ["pipeline/config/corpora.yaml", "pipeline/config/corpora_paper.yaml"]
    corpora, files = pairs.load_corpora(built_in, built_in)
    resolved = pairs.resolve_pairs(config["pairs"], corpora, files, config.get("parsers", {}))
    assert set(resolved) == set(config["pairs"])
    for p in resolved.values():
        assert p.subwords in ("bpe", "spm", "none")
        assert p.filter_order in (None, "filter_first", "clean_first")


def test_wall_clock_budgets_are_refused():
    # a parser or a system bounded by minutes would give other parses / models on another machine
    with pytest.raises(ConfigError, match=r"parsers\.p\.options\.train\.max_minutes: a wall-clock budget"):
        pairs.check_parsers({"p": {"backend": "builtin", "train": "a", "dev": "b", "options": {"train": {"max_minutes": 2}}}})
    pairs.check_parsers({"p": {"backend": "builtin", "train": "a", "dev": "b", "options": {"train": {"max_epochs": 2, "patience": 5}}}})
    import experiment
    with pytest.raises(ConfigError, match=r"systems\.s\.train\.max_minutes"):
        experiment.expand_systems({"s": {"pair": "x", "model": {}, "train": {"max_minutes": 30}, "decode": {}}}, {"x": {}})


def test_no_shipped_or_test_config_has_a_wall_clock_budget():
    configs = [p for d in ("pipeline/config", "tests") for p in glob.glob(os.path.join(ROOT, d, "**", "*.yaml"), recursive=True)]
    assert len(configs) > 10
    for path in configs:
        with open(path) as f:
            assert all("max_minutes" not in line.split("#")[0] for line in f), path
