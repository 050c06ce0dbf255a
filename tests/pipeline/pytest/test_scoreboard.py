# make_scoreboard.py's `training` column: a convergence rule reads as convergence only where the runs
# stopped before the epoch cap.
import make_scoreboard

RULE = "until 3 validations (every 1/2 epoch) without a better dev perplexity, ≤ 10 epochs"
BUDGET = f"Training budget: fa_not_shared: {RULE}; nmt: {RULE}.\n"


def reached(*groups):
    return "Training reached (epochs / updates per run): " + "; ".join(groups) + ".\n"


def test_every_run_at_the_cap_is_said_plainly():
    line = reached("fa_not_shared.sa_mini_en_de 10 / 9070 (lr halved at update 8617), 10 / 9070 (lr not halved)",
                   "nmt.sa_mini_en_de 10 / 9070 (lr not halved)")
    assert make_scoreboard.training_label(BUDGET, line) == "epoch cap reached by every run"


def test_runs_the_rule_stopped_are_counted_apart_from_those_the_cap_stopped():
    line = reached("fa_not_shared.sa_mini_en_de 7 / 6349, 10 / 9070", "nmt.sa_mini_en_de 6 / 5442")
    assert make_scoreboard.training_label(BUDGET, line) == "to convergence (1 of 3 runs stopped by the epoch cap)"
    line = reached("fa_not_shared.sa_mini_en_de 7 / 6349", "nmt.sa_mini_en_de 6 / 5442")
    assert make_scoreboard.training_label(BUDGET, line) == "to convergence"


def test_a_fixed_budget_and_a_missing_one():
    assert make_scoreboard.training_label("Training budget: nmt: 2500 updates, ≤ 30 epochs.\n", "") == "fixed updates (round 1)"
    assert make_scoreboard.training_label("", "") == "n/a"


PAGE = """## §6

Experiment `sa_nmt.mini`, scale **mini**: header.
Training budget: sa_shared: until 3 validations (every 1/2 epoch) without a better dev perplexity, ≤ 10 epochs.
Training reached (epochs / updates per run): sa_shared.sa_mini_en_de 7 / 6349, 8 / 7256.

<!-- table: sa_nmt_gate_pos_en_de -->
| system | NOUN | VERB |
|---|---|---|
| SA-NMT shared | 54.07 ± 4.48 (n=2) | 0.90 ± 0.26 (n=2) |
| chance: a random piece | 31.01 | 10.61 |
<!-- /table -->
"""
CLAIM = {"source": "§6 (text)", "claim": "syntax is used for verbs", "reading": "more than chance", "table": "sa_nmt_gate_pos_en_de",
         "row": "SA-NMT shared", "column": "VERB", "against": "chance: a random piece", "direction": "higher"}


def test_a_claim_of_the_text_is_read_on_the_page_of_its_table(tmp_path):
    page = tmp_path / "sa_nmt.mini.md"
    page.write_text(PAGE)
    (row,) = make_scoreboard.claim_rows({"claims": [CLAIM]}, [str(page)])
    scale, name, label, table, training, seeds, counts, detail = row
    assert (scale, name, label, table, training, seeds) == ("mini", "sa_nmt.mini.md", "§6 (text): syntax is used for verbs — more than chance",
                                                            "sa_nmt_gate_pos_en_de", "to convergence", 2)
    assert counts == {"opposite direction (untested)": 1}
    assert "SA-NMT shared VERB 0.90 ± 0.26 (n=2) against chance: a random piece 10.61" in detail
    assert '"syntax is used for verbs" (read here as: more than chance)' in detail  # the quote apart from the reading
    (row,) = make_scoreboard.claim_rows({"claims": [{**CLAIM, "column": "NOUN"}]}, [str(page)])
    assert row[6] == {"same direction (untested)": 1}
    assert make_scoreboard.claim_rows({"claims": [{**CLAIM, "table": "elsewhere"}]}, [str(page)]) == []


def test_a_check_is_measured_once_its_table_is_marked_on_its_page(tmp_path):
    row = {"experiment": "lgp.mini", "table": "lgp_check", "new_runs": 1, "cpu_hours": 0.35}
    assert make_scoreboard.check_status(str(tmp_path), row) == "planned (1 new run, 0.3 CPU-h est.)"
    (tmp_path / "lgp.mini.md").write_text("# page\n\n<!-- table: lgp_other -->\n")
    assert make_scoreboard.check_status(str(tmp_path), {**row, "new_runs": 2}).startswith("planned (2 new runs")
    (tmp_path / "lgp.mini.md").write_text("# page\n\n<!-- table: lgp_check -->\n| a |\n|---|\n")
    assert make_scoreboard.check_status(str(tmp_path), row) == "measured ([lgp.mini.md](lgp.mini.md))"


def test_a_decoded_member_run_takes_its_systems_cap():
    # an averaged checkpoint's table names its own system in the budget and the member run as reached
    budget = (f"Training budget: lgp_medium_averaged: lgp_medium.s1 decoded from its averaged.pt (until 3 validations "
              f"(every 1/2 epoch) without a better dev BLEU, ≤ 30 epochs).\n")
    assert make_scoreboard.training_label(budget, reached("lgp_medium 30 / 4680")) == "epoch cap reached by every run"
    assert make_scoreboard.training_label(budget, reached("lgp_medium 12 / 1872")) == "to convergence"
    # a run whose cap no budget group states is never read as converged
    assert make_scoreboard.training_label(BUDGET, reached("nmt.sa_mini_en_de 6 / 5442", "other 4 / 400")) == \
        "1 of 2 runs with a stated cap, 0 of them stopped by it"


def test_two_readings_of_one_claim_are_told_apart_by_their_subject(tmp_path):
    page = tmp_path / "sa_nmt.mini.md"
    page.write_text(PAGE)
    rows = make_scoreboard.claim_rows({"claims": [{**CLAIM, "reading": "verbs: above chance"},
                                                  {**CLAIM, "column": "NOUN", "reading": "nouns: above chance"}]}, [str(page)])
    assert [r[2] for r in rows] == ["§6 (text): syntax is used for verbs — verbs", "§6 (text): syntax is used for verbs — nouns"]


def test_page_tallies_name_their_table(tmp_path):
    page = tmp_path / "sa_nmt.mini.md"
    tally = "Reproduction tally: 1 comparison with a paper difference: 1 agrees.\n"
    page.write_text(PAGE.replace("<!-- /table -->", tally + "<!-- /table -->"))
    ((heading, table, counts, training, seeds),) = make_scoreboard.page_tallies(str(page))
    assert (heading, table, training, seeds) == ("§6", "sa_nmt_gate_pos_en_de", "to convergence", 2)


def test_a_configured_table_says_whose_runs_it_reuses():
    row = {"table": "lgp_table4", "new_runs": 0, "cpu_hours": 0, "runs_from": ["lgp_table3"]}
    assert make_scoreboard.pending_text(row) == "`lgp_table4` no runs of its own (those of `lgp_table3`)"
    row = {"table": "lgp_table1", "new_runs": 6, "cpu_hours": 2.1, "runs_from": ["lgp_table1_measured"]}
    assert make_scoreboard.pending_text(row) == "`lgp_table1` 6 runs, 2.1 h, and those of `lgp_table1_measured`"


def test_a_checkpoint_of_initial_parameters_is_no_run_of_the_rule():
    budget = BUDGET.replace("nmt: ", "init: no training (learning rate 0; the initial parameters, saved after 1 update); nmt: ")
    line = reached("init.sa_mini_en_de 1 / 1", "nmt.sa_mini_en_de 6 / 5442")
    assert make_scoreboard.training_label(budget, line) == "to convergence"


def test_a_round2_table_not_on_its_page_yet_is_listed_with_its_cost(tmp_path, monkeypatch):
    # the page measures the headline table; the plan's other round-2 table of the paper (its one-seed
    # rows) is still training: its comparisons must not vanish from the scoreboard meanwhile
    page = make_scoreboard.ROOT + "/docs/results/pascal.mini.md"
    (tmp_path / "pascal.mini.md").write_text(open(page, encoding="utf-8").read())
    plan = [{"paper": "pascal", "experiment": "pascal.mini", "table": "pascal_table3_de_en_headline", "round2": True,
             "runs": 6, "new_runs": 6, "cpu_hours": 35.4, "runs_from": []},
            {"paper": "pascal", "experiment": "pascal.mini", "table": "pascal_table3_de_en", "round2": True,
             "runs": 9, "new_runs": 3, "cpu_hours": 29.8, "runs_from": ["pascal_table3_de_en_headline"]}]
    monkeypatch.setattr(make_scoreboard.campaign, "campaign", lambda: plan)
    text = make_scoreboard.scoreboard(str(tmp_path))
    assert "Round 2, not on the page yet" in text and "`pascal_table3_de_en` planned (3 new runs, 29.8 CPU-h est.)" in text
    assert "`pascal_table3_de_en_headline` planned" not in text  # measured: a row of the table above
