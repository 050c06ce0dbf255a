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
