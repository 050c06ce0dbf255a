# campaign.py --commands: round 2's Snakemake command lines, in the plan's order.
import collections
import json
import os
import shlex
import subprocess

import pytest
import yaml
from snakemake.cli import get_argument_parser

import campaign


def test_one_command_per_round2_experiment_in_the_plans_order(tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text(yaml.safe_dump({"hours_per_run": {}, "run": [
        {"experiment": "sa_nmt.mini", "tables": ["sa_nmt_table2_en_de", "sa_nmt_table3_en_de"]},
        {"experiment": "lgp.mini", "tables": ["lgp_table1_measured"]}]}))
    lines = campaign.commands(str(plan), cores=4)
    assert len(lines) == 2
    first, second = lines
    assert " results/sa_nmt.mini/tables/sa_nmt_table2_en_de.md results/sa_nmt.mini/tables/sa_nmt_table3_en_de.md " in first
    assert "--configfile pipeline/config/experiments/sa_nmt.mini.yaml" in first
    assert "--configfile pipeline/config/experiments/lgp.mini.yaml" in second
    # two trainings side by side, each on half the cores; resumes after an interruption
    assert first.endswith("--set-threads train=2 translate=2 analysis_dump=2 significance=2 tree_significance=2 langid_filter_train=2 langid_filter_clean=2 "
                          "langid_set=2 learn_spm=2 apply_spm=2 train_parser=2 parse_corpus=2 pretrain_lgp_parser=2")
    assert "--cores 4" in first and "--rerun-incomplete" in first
    # every rule named is one of the pipeline's threaded rules (a renamed rule would be set silently otherwise)
    folder = os.path.join(campaign.ROOT, "pipeline", "rules")
    rules = "".join(open(os.path.join(folder, f)).read() for f in os.listdir(folder) if f.endswith(".smk"))
    for rule in campaign.HALF_CORE_RULES:
        assert f"rule {rule}:" in rules, rule


def test_a_table_the_experiment_does_not_build_is_refused(tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text(yaml.safe_dump({"run": [{"experiment": "lgp.mini", "tables": ["no_such_table"]}]}))
    with pytest.raises(SystemExit, match="lgp.mini has no table 'no_such_table'"):
        campaign.commands(str(plan))


def test_an_items_first_runs_are_prioritised_and_must_be_its_own(tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text(yaml.safe_dump({"run": [{"experiment": "pascal.mini", "tables": ["pascal_table3_de_en"],
                                             "first": ["ch.pascal_mini_de_en_ch.s1"]}]}))
    (line,) = campaign.commands(str(plan))
    assert (" results/pascal.mini/tables/pascal_table3_de_en.md --prioritize "
            "results/pascal.mini/systems/ch.pascal_mini_de_en_ch.s1/summary.json --profile ") in line
    # several first runs go after one flag: Snakemake keeps only the last of repeated --prioritize flags
    plan.write_text(yaml.safe_dump({"run": [{"experiment": "pascal.mini", "tables": ["pascal_table3_de_en"],
                                             "first": ["ch.pascal_mini_de_en_ch.s1", "sisa.pascal_mini_de_en.s1"]}]}))
    (line,) = campaign.commands(str(plan))
    assert line.count("--prioritize") == 1
    # and Snakemake's own command line reads both as prioritised, the targets as targets
    args = get_argument_parser().parse_args(shlex.split(line)[1:])
    assert args.prioritize == {"results/pascal.mini/systems/ch.pascal_mini_de_en_ch.s1/summary.json",
                               "results/pascal.mini/systems/sisa.pascal_mini_de_en.s1/summary.json"}
    assert args.targets == ["results/pascal.mini/tables/pascal_table3_de_en.md"]
    assert (" --prioritize results/pascal.mini/systems/ch.pascal_mini_de_en_ch.s1/summary.json "
            "results/pascal.mini/systems/sisa.pascal_mini_de_en.s1/summary.json --profile ") in line
    plan.write_text(yaml.safe_dump({"run": [{"experiment": "pascal.mini", "tables": ["pascal_table3_de_en_headline"],
                                             "first": ["ch.pascal_mini_de_en_ch.s1"]}]}))
    with pytest.raises(SystemExit, match="'first' names ch.pascal_mini_de_en_ch.s1, which none of the item's tables trains"):
        campaign.commands(str(plan))
    plan.write_text(yaml.safe_dump({"run": [{"experiment": "pascal.mini", "tables": ["pascal_table3_de_en"]}]}))
    assert "--prioritize" not in campaign.commands(str(plan))[0]


def test_the_projects_plan_gives_a_command_for_each_of_its_items():
    plan = yaml.safe_load(open(campaign.os.path.join(campaign.ROOT, "pipeline", "config", "mini_campaign.yaml")))
    assert len(campaign.commands()) == len(plan["run"])


def test_resume_unlocks_each_experiment_first(tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text(yaml.safe_dump({"run": [{"experiment": "lgp.mini", "tables": ["lgp_table1_measured"]}]}))
    (line,) = campaign.commands(str(plan), resume=True)
    unlock, run = line.split(" && ")
    assert unlock == ".venv/bin/snakemake --unlock --cores 1 --configfile pipeline/config/experiments/lgp.mini.yaml > /dev/null"
    assert run == campaign.commands(str(plan))[0]


def test_pending_leaves_out_the_items_measured_on_their_pages(tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text(yaml.safe_dump({"run": [
        {"experiment": "lgp.mini", "tables": ["lgp_table1_measured", "lgp_latent_uas"]},
        {"experiment": "lgp.mini", "tables": ["lgp_table2"]}]}))
    docs = tmp_path / "docs"
    docs.mkdir()
    budget = "Training budget: seq: until 3 validations without a better dev BLEU, ≤ 30 epochs.\n\n"
    page = docs / "lgp.mini.md"
    # one of the first item's two tables on the page: the item is still pending
    page.write_text("## Table 1\n\n" + budget + "<!-- table: lgp_table1_measured -->\n| a |\n|---|\n")
    assert len(campaign.commands(str(plan), pending=True, docs=str(docs))) == 2
    page.write_text(page.read_text() + "## UAS\n\n" + budget + "<!-- table: lgp_latent_uas -->\n| a |\n|---|\n")
    (line,) = campaign.commands(str(plan), pending=True, docs=str(docs))
    assert " results/lgp.mini/tables/lgp_table2.md " in line
    # without --pending every item is listed, measured or not
    assert len(campaign.commands(str(plan), docs=str(docs))) == 2
    # round 1's fixed budget on the page does not count as measured
    page.write_text(page.read_text().replace("until 3 validations without a better dev BLEU", "600 updates"))
    assert len(campaign.commands(str(plan), pending=True, docs=str(docs))) == 2


def test_run_state_reads_summary_then_metrics(tmp_path):
    run = tmp_path / "run"
    assert campaign.run_state(str(run), 20) == ("not started", 0, None, None)
    run.mkdir()
    (run / "metrics.jsonl").write_text('{"epoch": 3, "type": "train", "loss": 4.0}\n'
                                       '{"epoch": 3, "type": "valid", "valid_ppl": 40.0}\n\n'
                                       '{"epoch": 4, "type": "valid", "valid_ppl": 35.0}\n'
                                       '{"epoch": 4, "type": "valid", "valid_ppl": 36.0}\n')
    assert campaign.run_state(str(run), 20) == ("training", 4, 35.0, None)  # no elapsed_s: no rate
    assert campaign.run_state(str(run), 3) == ("training", 3, 35.0, None)
    (run / "summary.json").write_text('{"epochs": 17, "best_valid_ppl": 9.0}')
    assert campaign.run_state(str(run), 20) == ("finished", 17, 9.0, None)


def test_seconds_per_epoch_are_the_last_validations_elapsed_time_over_the_epochs_it_covers(tmp_path):
    assert campaign.run_state(str(tmp_path), 20, 2).seconds_per_epoch is None
    (tmp_path / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in [
        {"type": "train", "epoch": 1, "elapsed_s": 100.0},
        {"type": "valid", "epoch": 1, "elapsed_s": 320.0, "valid_ppl": 30.0},
        {"type": "valid", "epoch": 1, "elapsed_s": 640.0, "valid_ppl": 20.0},
        {"type": "valid", "epoch": 2, "elapsed_s": 975.0, "valid_ppl": 15.0},
        {"type": "train", "epoch": 2, "elapsed_s": 1100.0}]))
    assert campaign.run_state(str(tmp_path), 20, 2).seconds_per_epoch == pytest.approx(975.0 / 1.5)
    assert campaign.run_state(str(tmp_path), 20, 1).seconds_per_epoch == pytest.approx(325.0)
    (tmp_path / "summary.json").write_text('{"epochs": 2, "best_valid_ppl": 15.0}')  # a finished run keeps its rate
    assert campaign.run_state(str(tmp_path), 20, 1) == ("finished", 2, 15.0, pytest.approx(325.0))


def test_a_broken_metrics_line_is_named_by_file_and_line(tmp_path):
    (tmp_path / "metrics.jsonl").write_text('{"epoch": 1}\n{"epoch": 2, "valid_ppl": \n')
    with pytest.raises(SystemExit, match=r"metrics.jsonl:2: not a JSON object"):
        campaign.run_state(str(tmp_path), 20)


def test_progress_charges_the_untrained_share_of_each_cap(tmp_path):
    tables, specs, results = campaign.table_runs("lgp.mini", with_specs=True)
    runs = sorted(tables["lgp_table1_measured"])
    # the second run's pair costs 3 hours a run, any other pair the default 1
    hours = {"default": 1.0, specs[runs[1]]["pair"]: 3.0}
    plan = tmp_path / "plan.yaml"
    plan.write_text(yaml.safe_dump({"hours_per_run": {"lgp.mini": hours},
                                    "run": [{"experiment": "lgp.mini", "tables": ["lgp_table1_measured"]}]}))
    first = tmp_path / results / "systems" / runs[0]
    first.mkdir(parents=True)
    (first / "summary.json").write_text('{"epochs": 12, "best_valid_ppl": 9.5}')
    second = tmp_path / results / "systems" / runs[1]
    second.mkdir(parents=True)
    cap = specs[runs[1]]["train"]["max_epochs"]
    (second / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in [
        {"epoch": 1, "type": "valid", "valid_ppl": 30.0}, {"epoch": 1, "type": "valid", "valid_ppl": 21.25},
        {"epoch": cap // 2, "type": "valid", "valid_ppl": 24.0}]))
    (second / "state.pt.stale").write_text("")
    text = campaign.progress(str(plan), results_root=str(tmp_path))
    def cost(run):
        return hours.get(specs[run]["pair"], hours["default"])
    left = sum(cost(r) for r in runs[2:]) + cost(runs[1]) * (1 - (cap // 2) / cap)
    assert left != len(runs) - 2 + (1 - (cap // 2) / cap)  # the pair's own cost is what counts
    assert f"  {runs[1]}: training (epoch {cap // 2} of {cap}), best dev ppl 21.25; WARNING: a training state was set aside" in text
    assert f"lgp.mini: 1 finished, 1 training or waiting to resume, {len(runs) - 2} not started; ~{left:.1f} CPU-hours left" in text
    assert f"  {runs[0]}: finished (12 epochs), best dev ppl 9.50" in text and f"  {runs[2]}: not started\n" in text


def test_progress_charges_the_expected_epochs_and_prices_them_at_the_measured_speed(tmp_path):
    exp, table = "pascal.mini", "pascal_table3_de_en"
    tables, specs, results = campaign.table_runs(exp, with_specs=True)
    runs = sorted(tables[table])
    pair = collections.Counter(specs[r]["pair"] for r in runs).most_common(1)[0][0]
    same = [r for r in runs if specs[r]["pair"] == pair]
    other = [r for r in runs if specs[r]["pair"] != pair]
    assert len(same) >= 3 and other, "the test needs three runs of one pair and a run of another"
    train = specs[same[1]]["train"]
    vpe = train.get("valid_per_epoch", 1)
    window = train["patience"] / vpe
    assert train["max_epochs"] >= 12
    plan = tmp_path / "plan.yaml"
    plan.write_text(yaml.safe_dump({"hours_per_run": {exp: {"default": 1.0}}, "epochs_per_run": {exp: {"default": 10}},
                                    "run": [{"experiment": exp, "tables": [table]}]}))
    def log(run, epoch, elapsed):  # one validation record: 1/vpe epochs in `elapsed` seconds
        d = tmp_path / results / "systems" / run
        d.mkdir(parents=True)
        (d / "metrics.jsonl").write_text(json.dumps({"epoch": epoch, "type": "valid", "valid_ppl": 20.0,
                                                     "elapsed_s": elapsed}) + "\n")
    log(same[0], 4, 3600.0)   # 4 of 10 expected epochs: 6 left, at its own vpe hours per epoch
    log(same[1], 12, 1800.0)  # past the 10 expected: one patience window left, at its own speed
    text = campaign.progress(str(plan), results_root=str(tmp_path))
    rate0, rate1 = 3600.0 * vpe, 1800.0 * vpe
    by_plan = 0.6 + window / 10 + (len(runs) - 2)
    # the pair's other runs at the mean of its two measured speeds; the other pair at the plan's hour
    at_speed = (6 * rate0 + window * rate1 + 10 * (len(same) - 2) * (rate0 + rate1) / 2) / 3600 + len(other)
    assert by_plan != at_speed
    assert (f"~{by_plan:.1f} CPU-hours left by the plan's estimates, ~{at_speed:.1f} at the speeds measured here "
            f"({len(other)} run(s) of pairs not measured here at the plan's estimate)") in text
    assert f"round 2: ~{by_plan:.1f} CPU-hours left by the plan (~{by_plan / 2:.1f} h on the 2 cores), ~{at_speed:.1f}" in text


def test_progress_lists_a_run_once_when_two_items_need_it(tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text(yaml.safe_dump({"hours_per_run": {"lgp.mini": {"default": 1.0}},
                                    "run": [{"experiment": "lgp.mini", "tables": ["lgp_table1_measured"]},
                                            {"experiment": "lgp.mini", "tables": ["lgp_table1_measured"]}]}))
    runs = campaign.table_runs("lgp.mini")["lgp_table1_measured"]
    text = campaign.progress(str(plan), results_root=str(tmp_path))
    assert f"lgp.mini: 0 finished, 0 training or waiting to resume, {len(runs)} not started" in text
    assert "lgp.mini: 0 finished, 0 training or waiting to resume, 0 not started; ~0.0 CPU-hours left" in text
    assert f"round 2: ~{len(runs):.1f} CPU-hours left" in text


def test_checks_are_flagged_by_item_or_by_name(tmp_path):
    plan = tmp_path / "plan.yaml"
    hours = {f"{p}.mini": {"default": 1.0} for p in campaign.PAPERS}
    plan.write_text(yaml.safe_dump({"hours_per_run": hours, "run": [
        {"experiment": "lgp.mini", "tables": ["lgp_table1_measured", "lgp_latent_uas"], "checks": ["lgp_latent_uas"]},
        {"experiment": "lgp.mini", "tables": ["lgp_table2"], "check": True}]}))
    flagged = {r["table"]: r["check"] for r in campaign.campaign(str(plan)) if r["round2"]}
    assert flagged == {"lgp_table1_measured": False, "lgp_latent_uas": True, "lgp_table2": True}


def test_a_table_names_the_earlier_tables_whose_runs_it_reuses(tmp_path):
    plan = tmp_path / "plan.yaml"
    hours = {f"{p}.mini": {"default": 1.0} for p in campaign.PAPERS}
    plan.write_text(yaml.safe_dump({"hours_per_run": hours, "run": [
        {"experiment": "lgp.mini", "tables": ["lgp_table1_measured"]}]}))
    rows = {r["table"]: r for r in campaign.campaign(str(plan))}
    assert rows["lgp_table1_measured"]["runs_from"] == []
    # Table 4 decodes Table 3's runs: nothing of its own to train, and it says whose runs it needs
    assert rows["lgp_table4"]["new_runs"] == 0 and rows["lgp_table4"]["runs_from"] == ["lgp_table3"]
    assert rows["lgp_table1"]["runs_from"] == ["lgp_table1_measured"] and rows["lgp_table1"]["new_runs"] > 0


def test_an_item_measured_on_its_page_is_done_and_its_runs_go_to_the_next_item(tmp_path):
    plan = tmp_path / "plan.yaml"
    hours = {f"{p}.mini": {"default": 1.0} for p in campaign.PAPERS}
    plan.write_text(yaml.safe_dump({"hours_per_run": hours, "run": [
        {"experiment": "lgp.mini", "tables": ["lgp_table1_measured"]},
        {"experiment": "lgp.mini", "tables": ["lgp_table1"]}]}))
    runs = campaign.table_runs("lgp.mini")
    page = tmp_path / "docs" / "results" / "lgp.mini.md"
    page.parent.mkdir(parents=True)
    block = "## Table 1\n\nTraining budget: seq: {}.\n\n<!-- table: lgp_table1_measured -->\n| a |\n|---|\n"
    # round 1's fixed budget on the page: not measured yet
    page.write_text(block.format("600 updates, ≤ 30 epochs"))
    assert not campaign.on_page(str(page.parent), "lgp.mini", "lgp_table1_measured")
    page.write_text(block.format("until 3 validations (every 1/2 epoch) without a better dev BLEU, ≤ 30 epochs"))
    assert campaign.on_page(str(page.parent), "lgp.mini", "lgp_table1_measured")
    text = campaign.progress(str(plan), results_root=str(tmp_path))
    assert "lgp.mini: measured (lgp_table1_measured on docs/results/lgp.mini.md)" in text
    # the later item needs the measured item's runs again (not on this machine): it lists and charges them
    needed = len(runs["lgp_table1"])
    assert f"lgp.mini: 0 finished, 0 training or waiting to resume, {needed} not started; ~{needed:.1f} CPU-hours left" in text


def test_a_table_measured_before_its_items_measured_since_commit_is_to_be_measured_again(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    commits = []
    for n in range(2):
        subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", f"c{n}"], check=True)
        commits.append(subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip())
    old, fix = commits
    page = tmp_path / "docs" / "lgp.mini.md"
    page.parent.mkdir()
    block = ("## Table 1\n\nTraining budget: seq: until 3 validations without a better dev BLEU, ≤ 30 epochs.\n"
             "Results recorded 2026-11-26 at commit {}.\n\n<!-- table: lgp_table1_measured -->\n| a |\n|---|\n")
    docs = str(page.parent)
    page.write_text(block.format(f"{old[:12]}, {fix[:12]}+dirty"))
    assert campaign.on_page(docs, "lgp.mini", "lgp_table1_measured")  # no commit asked for
    assert not campaign.on_page(docs, "lgp.mini", "lgp_table1_measured", fix[:7], repo=str(repo))
    assert campaign.on_page(docs, "lgp.mini", "lgp_table1_measured", old[:7], repo=str(repo))
    page.write_text(block.format(f"{fix[:12]}+dirty"))
    assert campaign.on_page(docs, "lgp.mini", "lgp_table1_measured", fix[:7], repo=str(repo))
    # a commit this clone does not have is an error naming it, not a silent "measured"
    page.write_text(block.format("0123456789ab"))
    with pytest.raises(SystemExit, match="0123456789ab"):
        campaign.on_page(docs, "lgp.mini", "lgp_table1_measured", fix[:7], repo=str(repo))
