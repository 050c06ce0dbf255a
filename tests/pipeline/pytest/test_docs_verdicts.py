# docs_verdicts.py on a committed table: whose bootstrap mark is whose when a cell holds several
# comparisons, and attachment columns counted as tested only where the table shows the test.
import docs_verdicts as dv

PAPER = {"rows": {"Shared": {"DA": 27.8}, "Flat": {"DA": 17.0}, "Hard": {"DA": 31.7}}}


def experiment(bootstrap=True):
    stat = {"file": "trees.pud.json", "key": "da", **({"bootstrap": "da"} if bootstrap else {})}
    return {"tables": {"t3": {"columns": [{"label": "DA", "pair": "p", "stat": stat, "paper": "DA"}],
                              "rows": [{"label": "Shared", "system": "s"}, {"label": "Flat", "system": "f"},
                                       {"label": "Hard", "system": "h", "compare": ["Shared", "Flat"]}]}}}


HEADER = ["system", "DA", "Δ (DA)", "paper (DA)", "verdict (DA)"]


def rows(hard_verdict):
    return [["Shared", "13.61 ± 1.79 (n=3)", "", "27.8", ""], ["Flat", "10.62 ± 7.89 (n=3)", "", "17.0", ""],
            ["Hard", "11.10 ‡", "-2.50", "31.7", hard_verdict]]


def test_the_dags_verdict_text_says_whose_mark_it_is():
    written = ("vs Shared: paper +3.90 · here -2.50‡ · contradicts; "
               "vs Flat: paper +14.70 · here +0.48 (seed-1 pair -8.50‡) · agrees")
    header, out, tally = dv.render("t3", HEADER, rows(written), experiment(), PAPER)
    verdict = out[2][header.index("verdict (DA)")]
    assert "vs Shared: paper +3.90 · here -2.50‡ · contradicts" in verdict
    # the mark in the cell is the Shared test's; the Flat pair pointed against the mean significantly:
    # the measurement neither agrees nor contradicts
    assert "vs Flat: paper +14.70 · here +0.48 (seed-1 pair -8.50‡) · not significant" in verdict
    assert tally.endswith("1 not significant, 1 contradicts.")
    again = dv.render("t3", header, out, experiment(), PAPER)  # idempotent on its own output
    assert again[1] == out and again[2] == tally


def test_attachment_without_a_shown_test_stays_untested():
    untested = [r[:4] for r in rows("")]
    untested[2][1] = "11.10"  # made before the bootstrap: no marks, no verdict text
    header, out, tally = dv.render("t3", HEADER[:4], untested, experiment(), PAPER)
    verdict = out[2][header.index("verdict (DA)")]
    assert "vs Shared: paper +3.90 · here -2.50 · opposite direction (untested)" in verdict, verdict
    assert dv.render("t3", header, out, experiment(), PAPER)[1] == out
    # and a column the configuration does not test is untested whatever the text says
    written = "vs Shared: paper +3.90 · here -2.50‡ · contradicts; vs Flat: paper +14.70 · here +0.48 · agrees"
    header, out, _ = dv.render("t3", HEADER, rows(written), experiment(bootstrap=False), PAPER)
    assert "(untested)" in out[2][header.index("verdict (DA)")]


def test_a_paper_mark_counts_only_against_the_row_it_tests():
    # the paper's ‡ on "Shared" is against "Base": a check that compares Shared with Flat reads no mark
    paper = {"rows": {"Base": {"BLEU": 23.44}, "Flat": {"BLEU": 24.03}, "Shared": {"BLEU": 24.26}},
             "marks": {"Shared": {"BLEU": "‡"}}, "mark_against": {"Base": ["†", "‡"]}}
    exp = {"tables": {"t": {"columns": [{"label": "BLEU", "pair": "p", "test": "test", "metric": "bleu", "paper": "BLEU"}],
                            "rows": [{"label": "Base", "system": "b"}, {"label": "Flat", "system": "f", "compare": []},
                                     {"label": "Shared", "system": "s", "compare": ["Base", "Flat"]}]}}}
    header = ["system", "BLEU", "paper (BLEU)"]
    body = [["Base", "28.66", "23.44"], ["Flat", "27.93", "24.03"], ["Shared", "28.53", "24.26‡"]]
    header, out, _ = dv.render("t", header, body, exp, paper)
    verdict = out[2][header.index("verdict (BLEU)")]
    assert "vs Base: paper +0.82‡ · here -0.13 · not significant" in verdict
    assert "vs Flat: paper +0.23 · here +0.60 · agrees" in verdict, verdict


def test_the_dags_delta_from_unrounded_means_is_kept():
    exp = {"tables": {"t": {"columns": [{"label": "BLEU", "pair": "p", "test": "test", "metric": "bleu", "paper": "BLEU"}],
                            "rows": [{"label": "Base", "system": "b"}, {"label": "Flat", "system": "f", "compare": []},
                                     {"label": "Shared", "system": "s", "compare": ["Base", "Flat"]}]}}}
    paper = {"rows": {"Base": {"BLEU": 23.44}, "Flat": {"BLEU": 24.03}, "Shared": {"BLEU": 24.26}}}
    header = ["system", "BLEU", "paper (BLEU)", "verdict (BLEU)"]
    # the cells' rounded means differ by 0.60; the DAG's verdict text, from the unrounded ones, says 0.61
    written = "vs Base: paper +0.82 · here -0.13 · not significant; vs Flat: paper +0.23 · here +0.61 · agrees"
    body = [["Base", "28.66", "23.44", ""], ["Flat", "27.93", "24.03", ""], ["Shared", "28.53", "24.26", written]]
    header, out, _ = dv.render("t", header, body, exp, paper)
    assert "vs Flat: paper +0.23 · here +0.61 · agrees" in out[2][header.index("verdict (BLEU)")]
