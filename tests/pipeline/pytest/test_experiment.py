"""experiment.py on hand-made systems and tables: how systems expand into runs, which pair a run
fills, how a table resolves into cells with their files and bootstrap tests, and the refusals."""
import pytest

import experiment as ex
from experiment import ConfigError

PAIRS = {"p": {"splits": {}}, "q": {"splits": {}, "test_sets": {"extra": "x"}},
         "r": {"scores_as": "p"}, "m": {"multitask_parse": {"from": "q"}}}
BODY = {"model": {"arch": "a"}, "train": {"lr": 1}}


def sys_(**kw):
    return {**BODY, **kw}


def test_runs_by_pair_and_seed():
    runs = ex.expand_systems({"a": sys_(pair="p", seeds=[1, 2]), "b": sys_(pairs=["p", "q"]), "c": sys_(pair="p", train={"seed": 7})}, PAIRS)
    assert sorted(runs) == ["a.s1", "a.s2", "b.p", "b.q", "c"]
    assert runs["a.s2"]["train"]["seed"] == 2 and runs["a.s2"]["seed"] == 2 and runs["a.s2"]["system"] == "a"
    assert runs["c"]["seed"] == 7 and runs["b.q"]["pair"] == "q"


def test_runs_do_not_share_state():
    spec = sys_(pair="p", seeds=[1, 2])
    runs = ex.expand_systems({"a": spec}, PAIRS)
    runs["a.s1"]["model"]["arch"] = "changed"
    assert runs["a.s2"]["model"]["arch"] == "a" and spec["model"]["arch"] == "a"


@pytest.mark.parametrize("systems,match", [
    ({"a": sys_(pair="p", pairs=["q"])}, "exactly one of 'pair' or 'pairs'"),
    ({"a": {"pair": "p", "model": {}}}, "needs 'model' and 'train'"),
    ({"a": sys_(pair="zz")}, "unknown pair 'zz'"),
    ({"a": sys_(pair="p", seeds=[1, 1])}, "distinct seeds"),
    ({"a": sys_(pair="p", seeds=[])}, "distinct seeds"),
    ({"a.s1": sys_(pair="p"), "a": sys_(pair="p", seeds=[1])}, "clashes"),
    ({"e": {"pair": "p", "ensemble": ["nope"], "decode": {}}}, "'nope' is not a run"),
    ({"a": sys_(pair="q"), "e": {"pair": "p", "ensemble": ["a"], "decode": {}}}, "translates another pair"),
])
def test_systems_refused(systems, match):
    with pytest.raises(ConfigError, match=match):
        ex.expand_systems(systems, PAIRS)


def test_an_extending_system_carries_on_the_run_of_its_pair_and_seed():
    base = sys_(pairs=["p", "q"], seeds=[1, 2], train={"lr": 1, "max_epochs": 20})
    runs = ex.expand_systems({"a": base, "long": {**base, "extends": "a", "train": {"lr": 1, "max_epochs": 40}}}, PAIRS)
    assert runs["long.q.s2"]["extended_run"] == "a.q.s2" and runs["long.p.s1"]["extended_run"] == "a.p.s1"
    assert "extended_run" not in runs["a.p.s1"]


@pytest.mark.parametrize("extending,match", [
    ({"pair": "p", "extends": "nope"}, "no run of system 'nope' on pair 'p' with seed 1"),
    ({"pair": "q", "extends": "a"}, "no run of system 'a' on pair 'q'"),
    ({"pair": "p", "extends": "a", "seeds": [3]}, "with seed 3"),
    ({"pair": "p", "extends": "a", "model": {"arch": "b"}}, "model differs"),
    ({"pair": "p", "extends": "a", "train": {"lr": 2, "max_epochs": 40}}, r"train section differs .* \['lr'\]"),
    ({"pair": "p", "extends": "a", "train": {"lr": 1, "max_epochs": 20}}, "larger train.max_epochs"),
    ({"pair": "p", "extends": "b", "train": {"lr": 1, "max_epochs": 80}}, "extends another system itself"),
])
def test_extending_refused(extending, match):
    base = sys_(pair="p", train={"lr": 1, "max_epochs": 20})
    systems = {"a": base, "b": {**base, "extends": "a", "train": {"lr": 1, "max_epochs": 40}},
               "x": {**sys_(train={"lr": 1, "max_epochs": 40}), **extending}}
    with pytest.raises(ConfigError, match=match):
        ex.expand_systems(systems, PAIRS)


def test_test_pair():
    assert [ex.test_pair(PAIRS, p) for p in ("p", "r", "m")] == ["p", "p", "q"]


RUNS = ex.expand_systems({"base": sys_(pair="p", seeds=[1, 2, 3]), "new": sys_(pair="p", seeds=[1, 2, 3]),
                          "one": sys_(pair="p", seeds=[2])}, PAIRS)


def table(**kw):
    spec = {"title": "T", "columns": [{"label": "BLEU", "pair": "p", "metric": "bleu"}],
            "rows": [{"label": "Base", "system": "base"}, {"label": "New", "system": "new"}, {"label": "One", "system": "one"}],
            "baseline": "Base"}
    spec.update(kw)
    return ex.resolve_table("t", spec, RUNS, PAIRS, "R")


def test_table_cells_files_and_tests():
    t = table()
    cells = {c["row"]: c for c in t["cells"]}
    assert cells["Base"]["runs"] == ["base.s1", "base.s2", "base.s3"] and cells["Base"]["tests"] == []
    assert cells["New"]["values"][0] == "R/systems/new.s1/bleu.test.json"
    assert cells["New"]["tests"] == [{"row": "Base", "marks": ["†", "‡"], "file": "R/significance/p/test/bleu/base--new.json"}]
    # a one-run row is tested against the baseline's run of its own seed
    assert cells["One"]["tests"][0]["file"] == "R/significance/p/test/bleu/base@s2--one.json"
    assert cells["One"]["tests"][0]["seed"] == 2 and cells["One"]["tests"][0]["seed_row"] == "Base"
    assert t["columns"][0]["paper"] == "BLEU" and t["columns"][0]["decimals"] == 2


def test_seed_group_against_a_one_run_baseline():
    # the other way round: a 3-seed row tested against a one-run baseline, with its run of that seed
    t = table(rows=[{"label": "One", "system": "one"}, {"label": "New", "system": "new"}], baseline="One")
    cells = {c["row"]: c for c in t["cells"]}
    assert cells["New"]["tests"][0]["file"] == "R/significance/p/test/bleu/one--new@s2.json"
    assert cells["New"]["tests"][0]["seed"] == 2 and cells["New"]["tests"][0]["seed_row"] == "New"


def test_table_ci_and_stat_and_measured():
    t = ex.resolve_table("t", {"title": "T", "ci": True, "columns": [
        {"label": "BLEU", "pair": "p", "metric": "bleu"}, {"label": "UAS", "pair": "p", "stat": {"file": "trees.json", "key": "ua"}}],
        "rows": [{"label": "Base", "system": "base"}, {"label": "Left", "measured": "trees/{pair}.left.json"}]}, RUNS, PAIRS, "R")
    cells = {(c["row"], c["column"]): c for c in t["cells"]}
    assert cells[("Base", 0)]["ci_file"] == "R/significance/p/test/bleu/base--base.json"
    assert cells[("Base", 1)]["values"][0] == "R/systems/base.s1/trees.json"
    assert ("Left", 0) not in cells and cells[("Left", 1)]["values"] == ["R/trees/p.left.json"]


def test_induced_trees_tested_by_a_bootstrap_over_sentences():
    t = ex.resolve_table("t", {"title": "T", "baseline": "Base", "columns": [
        {"label": "DA", "pair": "p", "stat": {"file": "trees.pud.json", "key": "da", "bootstrap": "da"}},
        {"label": "UA", "pair": "p", "stat": {"file": "trees.pud.json", "key": "ua"}}],
        "rows": [{"label": "Base", "system": "base"}, {"label": "New", "system": "new"},
                 {"label": "Left", "measured": "trees/{pair}/{split}.left.json"}]}, RUNS, PAIRS, "R")
    cells = {(c["row"], c["column"]): c for c in t["cells"]}
    assert cells[("New", 0)]["values"] == [f"R/systems/new.s{k}/trees.pud.json" for k in (1, 2, 3)]  # the values stay the stat
    assert [x["file"] for x in cells[("New", 0)]["tests"]] == ["R/significance/p/pud/da/base--new.json"]
    assert cells[("New", 1)]["tests"] == []  # no bootstrap asked: untested
    assert cells[("Left", 0)]["values"] == ["R/trees/p/pud.left.json"] and cells[("Left", 0)]["tests"] == []
    assert ex.group_hyp_file("R", "new", "p", "pud", "da") == "R/groups/new/p/trees.pud.conllu"


@pytest.mark.parametrize("change,match", [
    ({"baseline": "Nope"}, "'Nope' is not a row label"),
    ({"columns": [{"label": "X", "pair": "p", "stat": {"file": "summary.json", "key": "da", "bootstrap": "da"}}]}, "for a trees.SPLIT.json file"),
    ({"columns": [{"label": "X", "pair": "p", "stat": {"file": "trees.pud.json", "key": "uas", "bootstrap": "uas"}}]}, "stat.bootstrap is one of"),
    ({"columns": [{"label": "X", "pair": "zz", "metric": "bleu"}]}, "unknown pair 'zz'"),
    ({"columns": [{"label": "X", "pair": "p", "metric": "bleu", "stat": {"file": "f", "key": "k"}}]}, "exactly one of 'metric'"),
    ({"columns": [{"label": "X", "pair": "p", "metric": "meteor"}]}, "is not one of"),
    ({"columns": [{"label": "X", "pair": "p", "metric": "bleu", "test": "extra"}]}, "has no split 'extra'"),
    ({"rows": [{"label": "A", "system": "base"}, {"label": "A", "system": "new"}]}, "row labels must be unique"),
    ({"rows": [{"label": "A", "system": "nosuch"}], "baseline": None}, "has no run on pair p"),
])
def test_tables_refused(change, match):
    with pytest.raises(ConfigError, match=match):
        table(**change)


def test_ribes_on_a_target_written_without_spaces_needs_a_segmentation():
    # RIBES splits on spaces: on a pair whose BLEU segments the target (raw Japanese), an unsaid
    # RIBES segmentation would score each sentence as one word
    cols = [{"label": "RIBES", "pair": "p", "metric": "ribes"}]
    saved = dict(PAIRS["p"])
    try:
        PAIRS["p"]["bleu"] = {"tokenize": "ja-mecab"}
        with pytest.raises(ConfigError, match="needs the pair's ribes: {tokenize"):
            table(columns=cols)
        for said in ("ja-mecab", "none"):  # none: its references are segmented already
            PAIRS["p"]["ribes"] = {"tokenize": said}
            assert table(columns=cols)["columns"][0]["metric"] == "ribes"
    finally:
        PAIRS["p"].clear()
        PAIRS["p"].update(saved)


def test_marks():
    assert [ex.marks_for(p, ["†", "‡"]) for p in (None, 0.2, 0.04, 0.009)] == ["", "", "†", "‡"]


def test_each_comparison_of_a_row_gets_its_own_marks():
    # SA-NMT Table 3's SA-NMT-hard against four rows: four pairs, in order, none shared
    four = ex.row_comparisons(["A", "B", "C", "D"], ex.DEFAULT_MARKS, "t.rows[0]")
    assert [c["marks"] for c in four] == [["†", "‡"], ["△", "▲"], ["◇", "◆"], ["○", "●"]]
    # marks given in the file stay, and the row's other comparison takes the first pair still free
    given = ex.row_comparisons([{"row": "NMT"}, {"row": "FA", "marks": ["△", "▲"]}], ex.DEFAULT_MARKS, "t")
    assert [c["marks"] for c in given] == [["†", "‡"], ["△", "▲"]]
    given = ex.row_comparisons([{"row": "FA", "marks": ["†", "‡"]}, "NMT"], ex.DEFAULT_MARKS, "t")
    assert [c["marks"] for c in given] == [["†", "‡"], ["△", "▲"]]
    with pytest.raises(ConfigError, match="two comparisons share a mark symbol"):
        ex.row_comparisons([{"row": "A", "marks": ["*", "**"]}, {"row": "B", "marks": ["*", "#"]}], ex.DEFAULT_MARKS, "t")
    with pytest.raises(ConfigError, match="more comparisons than mark pairs"):
        ex.row_comparisons([f"r{k}" for k in range(len(ex.MARK_SETS) + 1)], ex.DEFAULT_MARKS, "t")


def test_a_measured_row_reads_each_columns_split():
    ewt = {"label": "EWT UAS", "pair": "p", "stat": {"file": "trees.ewt.json", "key": "da"}}
    pud = {"label": "PUD UAS", "pair": "q", "stat": {"file": "trees.pud.json", "key": "da"}}
    assert ex.measured_path("trees/{pair}/{split}.left_branching.json", ewt, "t") == "trees/p/ewt.left_branching.json"
    assert ex.measured_path("trees/{pair}/{split}.left_branching.json", pud, "t") == "trees/q/pud.left_branching.json"
    assert ex.measured_path("trees/{pair}/pud.x.json", ewt, "t") == "trees/p/pud.x.json"
    bleu = {"label": "BLEU", "pair": "p", "stat": {"file": "summary.json", "key": "x"}}
    with pytest.raises(ConfigError, match="uses {split}, but column 'BLEU' reads 'summary.json'"):
        ex.measured_path("trees/{pair}/{split}.x.json", bleu, "t")


def test_paper_keys_must_name_the_papers_rows_and_columns(tmp_path):
    (tmp_path / "p.yaml").write_text("tables:\n  t1:\n    rows:\n      NMT: {BLEU: 30.1}\n      SA-NMT: {BLEU: 31.0, UAS: 20.0}\n")
    paper = {"file": "p", "table": "t1"}
    rows = [{"label": "NMT", "paper": "NMT"}, {"label": "chance", "paper": None}]
    columns = [{"label": "BLEU", "paper": "BLEU"}, {"label": "ours", "paper": None}]
    ex.check_paper_keys("t", paper, rows, columns, str(tmp_path))  # null: a row or column the paper lacks
    with pytest.raises(ConfigError, match="row 'SA NMT': the paper's t1 has no row 'SA NMT'"):
        ex.check_paper_keys("t", paper, rows + [{"label": "SA NMT", "paper": "SA NMT"}], columns, str(tmp_path))
    with pytest.raises(ConfigError, match="column 'uas': the paper's t1 has no column 'uas'"):
        ex.check_paper_keys("t", paper, rows, columns + [{"label": "uas", "paper": "uas"}], str(tmp_path))
    with pytest.raises(ConfigError, match="has no table 't2'"):
        ex.check_paper_keys("t", {"file": "p", "table": "t2"}, rows, columns, str(tmp_path))
    with pytest.raises(ConfigError, match="no paper file"):
        ex.check_paper_keys("t", {"file": "q", "table": "t1"}, rows, columns, str(tmp_path))


def test_two_runs_of_one_seed_in_one_cell_are_refused():
    # r scores as p: a system on both would put two seed-1 runs into p's cell, read as a seed group
    runs = ex.expand_systems({"both": sys_(pairs=["p", "r"], seeds=[1])}, PAIRS)
    with pytest.raises(ConfigError, match="scored on p with the same seed"):
        ex.runs_of(runs, "both", "p")
    runs = ex.expand_systems({"one": sys_(pairs=["p"], seeds=[1, 2])}, PAIRS)
    assert len(ex.runs_of(runs, "one", "p")) == 2
