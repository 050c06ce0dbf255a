# scripts/analysis/length_significance.py: seed groups' BLEU and bootstrap by source length.
import os
import shutil

import pytest

import length_significance as ls

SCORE_BIN = os.path.join(os.path.dirname(__file__), "..", "..", "..", "build", "bin", "synmt-score")


def test_buckets_are_inclusive_upper_bounds_with_an_open_last_one():
    assert [ls.bucket_of(n, [10, 15]) for n in (1, 10, 11, 15, 16, 99)] == [0, 0, 1, 1, 2, 2]
    assert ls.bucket_labels([10, 15]) == ["1-10", "11-15", ">15"]


def test_a_bucket_keeps_every_runs_line_of_its_sentences():
    # two runs of a 3-sentence test set: run 1 = a0 a1 a2, run 2 = b0 b1 b2
    lines = [b"a0", b"a1", b"a2", b"b0", b"b1", b"b2"]
    assert ls.runs_subset(lines, [0, 2], 2, "h") == [b"a0", b"a2", b"b0", b"b2"]
    with pytest.raises(ValueError, match="h: 5 lines are not 2 runs"):
        ls.runs_subset(lines[:5], [0], 2, "h")


@pytest.mark.skipif(not os.path.exists(SCORE_BIN), reason="needs the built synmt-score (build/bin)")
def test_copies_of_one_run_give_that_runs_scores_and_p_in_each_bucket(tmp_path, capsys):
    # every bucket's hypotheses match some 4-gram of its references: with no zero n-gram count,
    # smoothing does not see how often a line is repeated, and copies score as the one run
    src = ["ein Hund läuft schnell", "zwei Hunde spielen draußen", "der Mann liest eine Zeitung heute",
           "eine Frau in rot fährt ein rotes Fahrrad", "drei Kinder spielen im Park mit einem Ball"]
    ref = ["a dog runs fast", "two dogs play outside", "the man reads a newspaper today",
           "a woman in red rides a red bike", "three children play in the park with a ball"]
    base = ["a dog runs fast", "two dogs are playing outside", "the man reads a paper today",
            "a woman in red rides a bike", "three kids play in the park with the ball"]
    new = ["a dog runs quickly", "two dogs play outside", "the man reads a newspaper now",
           "a woman in red rides a red bicycle", "three children play in the park with a ball"]
    for name, lines in (("src", src), ("ref", ref), ("base", base), ("new", new), ("base3", base * 3), ("new3", new * 3)):
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    args = ["--src", str(tmp_path / "src"), "-r", str(tmp_path / "ref"), "--buckets", "4,6", "--samples", "200",
            "--score-bin", SCORE_BIN]
    ls.main(args + ["--runs", "1", "--baseline", f"B={tmp_path / 'base'}", f"N={tmp_path / 'new'}"])
    one = capsys.readouterr().out.splitlines()
    ls.main(args + ["--runs", "3", "--baseline", f"B={tmp_path / 'base3'}", f"N={tmp_path / 'new3'}"])
    three = capsys.readouterr().out.splitlines()
    assert one[0] == "| source words | sentences | B | N | Δ | p |"
    assert [r.split(" | ")[1] for r in one[2:]] == ["2", "1", "2"]  # 1-4 words, 5-6, >6
    assert three == one  # resampled by sentence, three copies of a run are that run
