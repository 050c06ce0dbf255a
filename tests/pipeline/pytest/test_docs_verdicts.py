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
    # the mark in the cell is the Shared test's; the Flat pair pointed against the mean: no evidence
    assert "vs Flat: paper +14.70 · here +0.48 (seed-1 pair -8.50‡) · agrees" in verdict
    assert tally.endswith("1 agrees, 1 contradicts.")
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
