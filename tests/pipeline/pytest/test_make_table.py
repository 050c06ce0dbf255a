"""make_table.py's pieces that turn files into table text: the paper's cell, the display scale of a
metric, the epochs each run reached, and one comparison's verdict from real files."""
import json

import make_table as mt


def write(path, obj):
    path.write_text(json.dumps(obj))
    return str(path)


def test_paper_cell_forms():
    paper = {"rows": {"A": {"BLEU": 30.1, "UAS": {"value": 70, "sd": 1.5, "ci": [68, 72]}}}, "marks": {"A": {"BLEU": "‡"}}}
    row, bleu, uas = {"paper": "A"}, {"paper": "BLEU"}, {"paper": "UAS"}
    assert mt.paper_cell(paper, row, bleu) == ("30.1‡", 30.1)
    assert mt.paper_cell(paper, row, uas) == ("70 ± 1.5 [68, 72]", 70.0)
    assert mt.paper_cell(paper, {"paper": "B"}, bleu) == ("", None)
    assert mt.paper_cell(None, row, bleu) == ("", None)
    assert mt.paper_cell(paper, row, {"paper": None}) == ("", None)


def test_cell_value_scales_ribes(tmp_path):
    f = write(tmp_path / "ribes.json", {"score": 0.8123, "signature": "RIBES"})
    assert mt.cell_value(f, {"metric": "ribes"}) == (81.23, "RIBES")
    g = write(tmp_path / "trees.json", {"ua": {"all": 41.5}})
    assert mt.cell_value(g, {"stat": {"key": "ua.all"}}) == (41.5, "")


def test_epochs_reached(tmp_path):
    paths = []
    for run, e, s in (("sa.s2", 6, 600), ("sa.s1", 5, 500), ("hard", 3, 30)):
        (tmp_path / run).mkdir()
        paths.append(write(tmp_path / run / "summary.json", {"epochs": e, "steps": s}))
    assert mt.epochs_reached(mt.load_summaries(paths)) == ["hard 3 / 30", "sa 5 / 500, 6 / 600"]


def test_epochs_reached_says_when_the_rate_halved(tmp_path):
    def run(name, lrs, halve=True, repeat=None, repeat_lrs=None):
        (tmp_path / name).mkdir()
        write(tmp_path / name / "config.json", {"train": {"halve_lr_on_plateau": halve}})
        records = [{"type": "valid", "step": 100 * (i + 1), "lr": lr} for i, lr in enumerate(lrs)]
        if repeat is not None:  # a resumed run writes again the validations since its last state
            again = [dict(r) for r in records[repeat:]]
            for r, lr in zip(again, repeat_lrs or []):  # the later record of a step is the one that stands
                r["lr"] = lr
            records += again
        train = [{"type": "train", "step": 50, "lr": 1.0}]
        (tmp_path / name / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in train + records))
        return write(tmp_path / name / "summary.json", {"epochs": len(lrs), "steps": 100 * len(lrs)})
    paths = [run("sa.s1", [1e-3, 1e-3, 5e-4, 5e-4, 2.5e-4]), run("sa.s2", [1e-3, 1e-3, 1e-3]),
             run("tr.s1", [1e-4, 2e-4, 1e-4], halve=False), run("fa.s1", [1e-3, 1e-3, 1e-3], repeat=1, repeat_lrs=[1e-3, 5e-4])]
    assert mt.epochs_reached(mt.load_summaries(paths)) == [
        "fa 3 / 300 (lr halved at update 200)",
        "sa 5 / 500 (lr halved at updates 200, 400), 3 / 300 (lr not halved)",
        "tr 3 / 300"]
    (tmp_path / "sa.s2" / "metrics.jsonl").unlink()
    try:
        mt.epochs_reached(mt.load_summaries(paths))
        raise AssertionError("a missing training record must stop the table")
    except SystemExit as e:
        assert "sa.s2/metrics.jsonl: missing" in str(e)


def test_hardware_line_names_the_runs_of_each_kind(tmp_path):
    paths = []
    for run, hw in (("nmt.s1", "CPU"), ("nmt.s2", "H100"), ("sa.s1", "CPU")):
        (tmp_path / run).mkdir()
        paths.append(write(tmp_path / run / "summary.json", {"hardware": hw}))
    assert mt.hardware_line(mt.load_summaries([paths[0], paths[2]])) == "CPU"
    assert mt.hardware_line(mt.load_summaries(paths)) == "CPU (2 runs: nmt.s1, sa.s1); H100 (1 run: nmt.s2)"
    assert mt.hardware_line({}) == "n/a"


def test_a_run_resumed_elsewhere_is_named_under_each_hardware_and_commit(tmp_path):
    sessions = [{"commit": "aaa", "hardware": "CPU", "from_step": 0, "ranks": 1},
                {"commit": "bbb", "hardware": "H100", "from_step": 500, "ranks": 1},
                {"commit": "bbb", "hardware": "CPU", "from_step": 900, "ranks": 1}]
    (tmp_path / "nmt.s1").mkdir()
    (tmp_path / "sa.s1").mkdir()
    paths = [write(tmp_path / "nmt.s1" / "summary.json", {"hardware": "CPU", "sessions": sessions}),
             write(tmp_path / "sa.s1" / "summary.json", {"hardware": "CPU"})]
    assert mt.hardware_line(mt.load_summaries(paths)) == "CPU (2 runs: nmt.s1, sa.s1); H100 (1 run: nmt.s1)"
    resumed, old = (json.load(open(p)) for p in paths)
    assert mt.run_record.hardware(resumed) == ["CPU", "H100"]
    assert mt.run_record.commits(resumed, {"commit": "checkout"}) == ["aaa", "bbb"]
    # a summary from before builds recorded themselves: the provenance record's checkout stands in
    assert mt.run_record.commits(old, {"commit": "checkout"}) == ["checkout"]
    assert mt.run_record.hardware(old) == ["CPU"]
    # resumed from a state saved before sessions were recorded: its first builds are unknown
    late = {"hardware": "CPU", "sessions": sessions[1:]}
    assert mt.run_record.commits(late, {"commit": "checkout"}) == [mt.run_record.UNRECORDED, "bbb"]


def test_signature_notes_name_the_columns_of_each_signature():
    one = {"bleu": {"BLEU|tok:13a": ["De-En", "Ja-En"]}}
    assert mt.signature_notes(one) == ["BLEU signature: `BLEU|tok:13a`."]
    # a table whose columns of one metric were scored differently says which column had which
    two = {"bleu": {"BLEU|tok:13a": ["Ja-En"], "BLEU|tok:none": ["En-Ja"]}}
    assert mt.signature_notes(two) == ["BLEU signature (Ja-En): `BLEU|tok:13a`.", "BLEU signature (En-Ja): `BLEU|tok:none`."]


def test_formatting():
    assert (mt.fmt(None, 2), mt.fmt(1.234, 1), mt.signed(0.5, 2), mt.signed(-0.5, 1)) == ("", "1.2", "+0.50", "-0.5")


ROWS = [{"label": "Base", "paper": "Base"}, {"label": "New", "paper": "New"}]
COMPARISON = {"row": "Base", "marks": ["†", "‡"]}


def new_vs_base(tmp_path, paper, bootstrap, measured, metric="BLEU", **test):
    """(text, verdict) of row New against Base in column 0, the bootstrap's file holding
    bootstrap = (Base's score, New's score, p); test: the test entry's other fields (seed, seed_row)."""
    base, new, p = bootstrap
    path = write(tmp_path / "sig.json", [{"score": base}, {"score": new, "p_value": p}])
    cell = {"tests": [{"row": "Base", "marks": ["†", "‡"], "file": path, **test}]}
    return mt.comparison_verdict(paper, ROWS, ROWS[1], {"paper": metric}, 0, COMPARISON, cell, measured, 2)


def test_comparison_verdict_from_files(tmp_path):
    paper = {"rows": {"Base": {"BLEU": 30.0}, "New": {"BLEU": 31.3}}, "marks": {"New": {"BLEU": "‡"}},
             "mark_against": {"Base": ["†", "‡"]}}
    measured = {("Base", 0): [20.0], ("New", 0): [20.9]}  # (row, column) -> the runs' values
    text, result = new_vs_base(tmp_path, paper, (20.0, 20.9, 0.003), measured)
    assert result == "agrees", text
    assert text.startswith("vs Base: paper +1.30‡") and "+0.90‡" in text
    # the measured difference the other way round, significant: a contradiction
    measured[("New", 0)] = [19.0]
    assert new_vs_base(tmp_path, paper, (20.0, 19.0, 0.003), measured)[1] == "contradicts"


def test_a_seed_pair_pointing_against_the_group_mean_is_no_evidence(tmp_path):
    # New (one run) against Base's seed-1 run: seed 1 scored far above New, Base's mean is below it
    paper = {"rows": {"Base": {"DA": 17.0}, "New": {"DA": 31.7}}, "marks": {"New": {"DA": "‡"}},
             "mark_against": {"Base": ["†", "‡"]}}  # marked: a test must back Δ
    measured = {("Base", 0): [19.6, 4.9, 7.4], ("New", 0): [11.1]}
    seed_pair = {"seed": 1, "seed_row": "Base"}
    text, result = new_vs_base(tmp_path, paper, (19.6, 11.1, 0.001), measured, "DA", **seed_pair)
    assert result == "not significant", text
    assert "here +0.47 (seed-1 pair -8.50‡)" in text, text
    # also where the paper's difference is unmarked (the means' sign alone would otherwise agree): the
    # only test there is points the other way, significantly
    unmarked = {**paper, "marks": {}}
    assert new_vs_base(tmp_path, unmarked, (19.6, 11.1, 0.001), measured, "DA", **seed_pair)[1] == "not significant"
    # the same pair pointing the way of the mean keeps its mark
    text, result = new_vs_base(tmp_path, paper, (4.0, 11.1, 0.001), measured, "DA", **seed_pair)
    assert result == "agrees" and "here +0.47‡" in text, text


def test_concatenated_groups_pointing_against_the_means_are_no_evidence(tmp_path):
    # two 3-run groups: the means differ by +0.20, the concatenations' corpus BLEU by -0.30 (a
    # corpus score is not the mean of its runs' scores), significantly
    paper = {"rows": {"Base": {"BLEU": 26.6}, "New": {"BLEU": 27.4}}, "marks": {}, "mark_against": {}}
    measured = {("Base", 0): [29.0, 30.0, 31.0], ("New", 0): [29.2, 30.2, 31.2]}
    text, result = new_vs_base(tmp_path, paper, (30.0, 29.7, 0.01), measured)
    assert result == "not significant", text
    assert "here +0.20 (concatenated runs -0.30†)" in text, text
    text, result = new_vs_base(tmp_path, paper, (30.0, 30.2, 0.01), measured)  # the same way: agrees
    assert result == "agrees" and "here +0.20†" in text, text


def test_a_paper_table_with_unknown_marks_needs_significance_to_agree(tmp_path):
    # Pascal's Table 3: the paper marks significance, the transcription could not read the marks;
    # a same-sign difference within noise is then not agreement, as against a marked difference
    paper = {"rows": {"Base": {"BLEU": 26.6}, "New": {"BLEU": 27.4}}, "marks_unknown": True}
    measured = {("Base", 0): [40.45, 39.13, 39.64], ("New", 0): [40.23, 38.82, 40.40]}
    text, result = new_vs_base(tmp_path, paper, (39.7, 39.8, 0.4), measured)
    assert result == "not significant", text
    unknown_off = {**paper, "marks_unknown": False}
    assert new_vs_base(tmp_path, unknown_off, (39.7, 39.8, 0.4), measured)[1] == "agrees"  # unmarked: the sign suffices
    measured[("New", 0)] = [41.0, 40.0, 40.5]
    assert new_vs_base(tmp_path, paper, (39.7, 40.5, 0.004), measured)[1] == "agrees"


def test_seed_level_p_is_welchs_t_test():
    # Welch's t by hand for a = [3, 4, 5], b = [1, 2, 3]:
    # t = (4 - 2) / sqrt(1/3 + 1/3) = 2.449, df = 4 -> two-sided p = 0.0705 (t tables)
    measured = {("A", 0): [3.0, 4.0, 5.0], ("B", 0): [1.0, 2.0, 3.0], ("C", 0): [7.0], ("D", 0): [2.0, 2.0]}
    p = mt.seed_level_p(measured, ("A", 0), ("B", 0))
    assert abs(p - 0.0705) < 5e-4
    assert mt.seed_level_p(measured, ("B", 0), ("A", 0)) == p  # two-sided
    assert mt.seed_level_p(measured, ("A", 0), ("C", 0)) is None  # one run: no seed-level test
    assert mt.seed_level_p(measured, ("D", 0), ("D", 0)) is None  # no spread at all


def test_seed_summary():
    assert mt.seed_summary([3.0, 4.0, 5.0]) == (4.0, 1.0, 3)  # sample sd (n - 1)
    assert mt.seed_summary([7.0]) == (7.0, None, 1)  # one run: no sd


def test_seeds_by_system():
    runs = {"nmt.s1": {"system": "nmt", "seed": 1}, "nmt.s3": {"system": "nmt", "seed": 3}, "sa.s1": {"system": "sa", "seed": 1},
            "nmt_avg": {"system": "nmt_avg", "seed": 1, "decode_only": True}}
    assert mt.seeds_by_system(runs) == {"nmt": {1, 3}, "sa": {1}}


def test_runs_note_lists_each_seeds_score_in_seed_order():
    rows = [{"label": "LGP"}, {"label": "SEQ"}, {"label": "DEP"}]
    columns = [{"label": "dev BLEU", "decimals": 2}, {"label": "dev ppl", "decimals": 2}]
    runs = {"lgp.s1": {"seed": 1}, "lgp.s2": {"seed": 2}, "seq.s1": {"seed": 1}}
    cells = {("LGP", 0): {"runs": ["lgp.s1", "lgp.s2"]}, ("LGP", 1): {"runs": ["lgp.s1", "lgp.s2"]},
             ("SEQ", 0): {"runs": ["seq.s1"]}, ("SEQ", 1): {"runs": ["seq.s1"]}, ("DEP", 0): None}
    measured = {("LGP", 0): [18.1, 17.166], ("LGP", 1): [9.14, 9.41], ("SEQ", 0): [15.55], ("SEQ", 1): [10.64]}
    # one-run rows and paper-only cells are not listed: their cell is already the run's score
    assert mt.runs_note(rows, columns, cells, measured, runs) == (
        "Each run (seed order): LGP (seeds 1, 2): dev BLEU 18.10, 17.17; dev ppl 9.14, 9.41.")
    assert mt.runs_note(rows[1:], columns, cells, measured, runs) is None


def test_runs_note_names_a_columns_own_seeds_where_they_differ_from_the_rows():
    rows = [{"label": "LGP"}]
    columns = [{"label": "BLEU", "decimals": 2}, {"label": "UAS", "decimals": 1}]
    runs = {"lgp.s1": {"seed": 1}, "lgp.s2": {"seed": 2}, "lgp.s3": {"seed": 3}}
    # the UAS column has runs of seeds 1 and 3 only: its figures must not read as seeds 1 and 2
    cells = {("LGP", 0): {"runs": ["lgp.s1", "lgp.s2", "lgp.s3"]}, ("LGP", 1): {"runs": ["lgp.s1", "lgp.s3"]}}
    measured = {("LGP", 0): [20.0, 21.0, 22.0], ("LGP", 1): [30.0, 33.0]}
    assert mt.runs_note(rows, columns, cells, measured, runs) == (
        "Each run (seed order): LGP (seeds 1, 2, 3): BLEU 20.00, 21.00, 22.00; UAS (seeds 1, 3) 30.0, 33.0.")


def test_pvalue_commands_print_the_significance_rules_flags():
    boot = {"samples": 1000, "seed": 12345}
    cols = [{"label": "De-En", "metric": "bleu"}, {"label": "UAS", "stat": {"key": "ua.all"}}]
    one = mt.pvalue_commands(cols, {0: {"command": "bleu", "flags": "", "ext": "txt"}}, "r", boot)
    assert one == ("To reproduce a p-value: `synmt-score paired-bs -r r/groups/references/PAIR/TEST.xN.txt --metric bleu "
                   "--samples 1000 --seed 12345 --runs N --baseline r/groups/BASELINE/PAIR/hyp.TEST.txt r/groups/SYSTEM/PAIR/hyp.TEST.txt`.")
    cols = [{"label": "En-De", "metric": "bleu_tok"}, {"label": "En-Ja", "metric": "ribes"}, {"label": "En-Fr", "metric": "bleu_tok"}]
    # the flags as the rule's params reach the script (Snakemake may hand the keys over as strings)
    flags = {"0": {"command": "bleu", "flags": "-t none -s none", "ext": "tok"},
             "1": {"command": "ribes", "flags": "--ribes-tokenize ja-mecab", "ext": "txt"},
             "2": {"command": "bleu", "flags": "-t none -s none", "ext": "tok"}}
    two = mt.pvalue_commands(cols, flags, "r", boot)
    assert two.startswith("To reproduce a p-value: En-De, En-Fr: `synmt-score paired-bs -r r/groups/references/PAIR/TEST.xN.tok "
                          "--metric bleu -t none -s none --samples")
    assert "; En-Ja: `synmt-score paired-bs -r r/groups/references/PAIR/TEST.xN.txt --metric ribes --ribes-tokenize ja-mecab" in two
    assert "METRIC" not in one + two
