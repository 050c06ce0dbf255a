# scripts/analysis/valid_by_epoch.py: the last validation of each epoch, runs side by side.
import pytest

import valid_by_epoch as vbe


def test_the_last_validation_of_each_epoch_side_by_side(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "metrics.jsonl").write_text(
        '{"type": "train", "step": 5, "epoch": 1, "loss": 6.8}\n'
        '{"type": "valid", "step": 10, "epoch": 1, "valid_ppl": 200.0}\n{"type": "valid", "step": 20, "epoch": 1, "valid_ppl": 300.0}\n'
        '{"type": "valid", "step": 30, "epoch": 2, "valid_ppl": 150.0}\n\n')
    (b / "metrics.jsonl").write_text('{"type": "valid", "step": 10, "epoch": 1, "valid_ppl": 250.5}\n')
    runs = {"a": vbe.last_validation_per_epoch(str(a / "metrics.jsonl")),
            "b": vbe.last_validation_per_epoch(str(b / "metrics.jsonl"))}
    assert runs["a"] == {1: 300.0, 2: 150.0}  # the epoch's last, not its best
    assert vbe.table(runs) == ["| epoch | a | b |", "|---|---|---|", "| 1 | 300.00 | 250.50 |", "| 2 | 150.00 |  |"]
    assert vbe.table(runs, every=2) == ["| epoch | a | b |", "|---|---|---|", "| 2 | 150.00 |  |"]


def test_a_damaged_line_names_the_file_and_line(tmp_path):
    (tmp_path / "metrics.jsonl").write_text('{"type": "valid", "step": 10, "epoch": 1, "valid_ppl": 3.0}\n{"type": "val')
    with pytest.raises(SystemExit, match=r"metrics.jsonl:2: not a JSON"):
        vbe.last_validation_per_epoch(str(tmp_path / "metrics.jsonl"))


def test_an_unfinished_run_is_marked_in_its_header(tmp_path, capsys):
    for name, finished in (("done", True), ("going", False)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "metrics.jsonl").write_text('{"type": "valid", "step": 10, "epoch": 1, "valid_ppl": 9.0}\n')
        if finished:
            (tmp_path / name / "summary.json").write_text("{}")
    vbe.main([str(tmp_path / "done"), str(tmp_path / "going")])
    assert capsys.readouterr().out.splitlines()[0] == "| epoch | done | going (unfinished) |"


def test_rescaling_keeps_the_dev_likelihood_and_spreads_it_over_the_reference_tokens(tmp_path, capsys):
    # run "mix" splits the same dev sentences into 150 tokens where "ref" uses 100: its perplexity
    # 4.0 over 150 tokens is a total log-likelihood of 150 ln 4, i.e. 4^1.5 = 8.0 over 100 tokens
    for name, tokens, ppl in (("ref", 100, 5.0), ("mix", 150, 4.0)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "metrics.jsonl").write_text(
            f'{{"type": "valid", "step": 10, "epoch": 1, "valid_ppl": {ppl}, "valid_tokens": {tokens}}}\n')
    vbe.main([str(tmp_path / "ref"), str(tmp_path / "mix"), "--rescale-to", str(tmp_path / "ref")])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "(perplexities over 100 dev tokens, the segmentation of ref)"
    assert out[-1] == "| 1 | 5.00 | 8.00 |"


def test_rescaling_refuses_a_log_without_or_with_changing_token_counts(tmp_path):
    path = tmp_path / "metrics.jsonl"
    path.write_text('{"type": "valid", "step": 10, "epoch": 1, "valid_ppl": 3.0}\n')
    with pytest.raises(SystemExit, match=r'metrics.jsonl: a validation record without "valid_tokens"'):
        vbe.valid_tokens(str(path), vbe.last_validations(str(path)))
    path.write_text('{"type": "valid", "step": 10, "epoch": 1, "valid_ppl": 3.0, "valid_tokens": 100}\n'
                    '{"type": "valid", "step": 20, "epoch": 2, "valid_ppl": 2.0, "valid_tokens": 90}\n')
    with pytest.raises(SystemExit, match=r"differ or are not positive"):
        vbe.valid_tokens(str(path), vbe.last_validations(str(path)))
