#!/usr/bin/env python3
"""The mini campaign's cost (pipeline/config/mini_campaign.yaml): every table of every mini
experiment file with the training runs it needs beyond those of the tables before it (round 2's
tables first, in their order), and their estimated CPU-hours on the 2-core machine.

  campaign.py                 prints the Markdown table (docs/reproducing.md, "Mini campaign")
  campaign.py --json          the same as JSON (make_scoreboard.py's "configured, not run" lines)
  campaign.py --write DOC     replaces the table between DOC's <!-- campaign --> and <!-- /campaign -->
  campaign.py --check DOC     exit 1 when that table is not the current one
  campaign.py --commands      round 2's Snakemake commands, one per item of the plan, in its order
                              (run them one after another: `campaign.py --commands | bash -e`; an
                              interrupted run resumes where it stopped with the same commands)
  campaign.py --commands --resume   the same, each unlocking its experiment first (after a kill)
  campaign.py --commands --pending  only the items not yet measured on their results pages (as
                              --progress counts them): a new machine, whose results/ is empty,
                              resumes the campaign with `campaign.py --commands --resume --pending | bash -e`
                              instead of training the measured items' runs again
  campaign.py --progress      round 2's training runs: finished, training (epoch of its cap) or not
                              started, with the seconds per epoch measured so far, and the CPU-hours
                              left by the plan's per-run estimates and at the speeds measured here
"""
import collections
import functools
import json
import os
import re
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import experiment  # noqa: E402
import metrics_io  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAPERS = ["sa_nmt", "pascal", "lgp", "latent_graphs"]


def training_runs(runs, cells):
    """The runs a table's cells read that train (an ensemble's members, not the decode-only run)."""
    out = set()
    for cell in cells:
        for rid in cell["runs"]:
            members = runs[rid].get("ensemble")
            out.update(members if members else [rid])
    return out


def table_runs(name, with_specs=False):
    """{table: {run id: its pair}} of an experiment file (with_specs: also {run id: its expanded
    spec} and the file's results_dir)."""
    cfg = yaml.safe_load(open(os.path.join(ROOT, "pipeline", "config", "experiments", f"{name}.yaml"), encoding="utf-8"))
    runs = experiment.expand_systems(cfg["systems"], cfg["pairs"])
    out = {}
    for table in cfg["experiment"]["tables"]:
        resolved = experiment.resolve_table(table, cfg["tables"][table], runs, cfg["pairs"], "results")
        out[table] = {r: runs[r]["pair"] for r in training_runs(runs, resolved["cells"])}
    return (out, runs, cfg["results_dir"]) if with_specs else out


RunState = collections.namedtuple("RunState", "state epoch best_ppl seconds_per_epoch")


def run_state(system_dir, max_epochs, valid_per_epoch=1):
    """A run's RunState from one reading of its files: state "finished" (summary.json exists; its
    epochs and best dev perplexity), "training" (metrics.jsonl grows, or the run waits to resume
    from its state; the last epoch logged, capped at max_epochs, and the lowest validation
    perplexity so far or None) or "not started" (0, None). seconds_per_epoch: the elapsed time at
    the last validation record over the epochs those validations cover (valid_per_epoch of them an
    epoch), validations included; None before the first validation. elapsed_s runs on across
    resumes (the training state keeps it), so an interrupted run is measured by its training time."""
    metrics = os.path.join(system_dir, "metrics.jsonl")
    epoch, best, count, elapsed = 0, None, 0, None
    if os.path.exists(metrics):
        try:
            for _, rec in metrics_io.records(metrics):
                epoch = max(epoch, rec.get("epoch", 0))
                ppl = rec.get("valid_ppl")
                if ppl is not None and (best is None or ppl < best):
                    best = ppl
                if rec.get("type") == "valid" and "elapsed_s" in rec:
                    count, elapsed = count + 1, rec["elapsed_s"]
        except metrics_io.RecordError as e:
            sys.exit(str(e))
    rate = elapsed / (count / valid_per_epoch) if count else None
    summary = os.path.join(system_dir, "summary.json")
    if os.path.exists(summary):
        done = json.load(open(summary, encoding="utf-8"))
        return RunState("finished", done["epochs"], done.get("best_valid_ppl"), rate)
    if not os.path.exists(metrics):
        return RunState("not started", 0, None, None)
    return RunState("training", min(epoch, max_epochs), best, rate)


def descends_from(commit, ancestor, repo=ROOT):
    """Whether `commit` is `ancestor` or comes after it in this checkout's history."""
    r = subprocess.run(["git", "-C", repo, "merge-base", "--is-ancestor", ancestor, commit], capture_output=True, text=True)
    if r.returncode not in (0, 1):  # 128: a commit this clone does not have (a shallow clone, a typo)
        sys.exit(f"campaign: git cannot place commit {commit} after {ancestor}: {r.stderr.strip()}")
    return r.returncode == 0


def _page_lines(page):
    """A results page's lines, read once per process while the file is unchanged (a page holds
    several tables' blocks); None when it does not exist."""
    try:
        st = os.stat(page)
    except FileNotFoundError:
        return None
    return _read_lines(page, st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=None)
def _read_lines(page, mtime_ns, size):  # the stat fields key the cache: a rewritten page is read again
    return tuple(open(page, encoding="utf-8").read().split("\n"))


def page_block(docs, exp, table):
    """A table's block on its experiment's results page, read once: None when the page or the
    table's marker is missing, else (converged, commits): whether the block's budget (the lines from
    its section heading to the marker) is the convergence rule rather than round 1's fixed number
    of updates, and the commits on its "Results recorded ... at commit" line (None without one)."""
    lines = _page_lines(os.path.join(docs, f"{exp}.md"))
    if lines is None:
        return None
    marker = f"<!-- table: {table} -->"
    if marker not in lines:
        return None
    converged, commits = True, None
    for line in reversed(lines[: lines.index(marker)]):
        if line.startswith("## "):
            break
        if line.startswith("Training budget:"):
            converged = "until" in line
        if line.startswith("Results recorded") and " at commit " in line:
            commits = re.findall(r"\b[0-9a-f]{7,40}\b", line.split(" at commit ", 1)[1])
    return converged, commits


def measured_by(block, measured_since, repo=ROOT):
    """Whether a page block (page_block's answer) counts as measured in round 2: on the page, under
    the convergence rule, and, with `measured_since` (a commit whose code changed what the table
    measures), recorded only at that commit or later ones: a table measured by older code is to
    be measured again."""
    if block is None or not block[0]:
        return False
    if measured_since is None:
        return True
    return bool(block[1]) and all(descends_from(c, measured_since, repo) for c in block[1])


def on_page(docs, exp, table, measured_since=None, repo=ROOT):
    """Whether a table is measured in round 2 (measured_by of its page block)."""
    return measured_by(page_block(docs, exp, table), measured_since, repo)


def expected_epochs(plan, exp, pair, cap):
    """The epochs the plan's per-run estimate assumes for a run (`epochs_per_run`, per experiment
    with a default and per-pair entries, as `hours_per_run`): the cap where the plan gives none (the
    cap binds) and never more than the cap."""
    table = (plan.get("epochs_per_run") or {}).get(exp) or {}
    return min(table.get(pair, table.get("default", cap)), cap)


def epochs_left(state, epoch, expected, window):
    """The epochs a run still trains by the plan: all it expects before it starts, the rest of them
    while it trains, and at least one patience window (`window` epochs: the validations without a
    better score that stop it) once it has trained past them; none when finished."""
    if state == "finished":
        return 0.0
    if state == "not started":
        return float(expected)
    return max(expected - epoch, window)


def measured_rates(results_root, results, specs, known):
    """pair -> the seconds per epoch measured in this checkout by every run of the experiment on it
    (finished or training; other rows of a table train on the same pair at similar speeds); `known`
    holds the states already read (run id -> RunState), so that no run's files are read twice."""
    rates = collections.defaultdict(list)
    for rid, spec in sorted(specs.items()):
        run_dir = os.path.join(results_root, results, "systems", rid)
        if rid not in known and not os.path.isdir(run_dir):
            continue
        st = known.get(rid) or run_state(run_dir, spec["train"]["max_epochs"], spec["train"].get("valid_per_epoch", 1))
        if st.seconds_per_epoch is not None:
            rates[spec["pair"]].append(st.seconds_per_epoch)
    return rates


def hours_left(plan, exp, specs, states, pair_rates):
    """CPU-hours the item's runs (run id -> RunState) still need: by the plan's estimates, and at
    the speeds measured here (a run's own seconds per epoch, else its pair's mean, else the plan's
    figure), with the number of unfinished runs priced by the plan for want of a measured pair."""
    cost = plan["hours_per_run"][exp]
    by_plan = measured = 0.0
    unmeasured = 0
    for rid, (state, epoch, _, rate) in states.items():
        pair, train = specs[rid]["pair"], specs[rid]["train"]
        expected = expected_epochs(plan, exp, pair, train["max_epochs"])
        window = train["patience"] / train.get("valid_per_epoch", 1) if train.get("patience") else 1.0
        todo = epochs_left(state, epoch, expected, window)
        hours = cost.get(pair, cost["default"]) * todo / expected
        by_plan += hours
        if rate is None and pair_rates[pair]:
            rate = sum(pair_rates[pair]) / len(pair_rates[pair])
        if rate is None:
            measured += hours
            unmeasured += todo > 0
        else:
            measured += todo * rate / 3600
    return by_plan, measured, unmeasured


def progress(path=os.path.join(ROOT, "pipeline", "config", "mini_campaign.yaml"), results_root=ROOT):
    """Round 2's training runs, in the plan's order, with their state and the CPU-hours left, twice:
    by the plan's estimates (a run costs its `hours_per_run` for the `epochs_per_run` it is expected
    to train, charged for the epochs it has not trained yet), and at the speeds measured in this
    checkout (hours_left). An item whose tables are all on their results page is done, whether or not its runs are on this machine: its runs are charged
    only to a later item that needs them again (a check that carries them on)."""
    plan = yaml.safe_load(open(path, encoding="utf-8"))
    docs = os.path.join(results_root, "docs", "results")
    lines, total, total_measured, listed = [], 0.0, 0.0, {}
    for item in plan["run"]:
        exp = item["experiment"]
        since = item.get("measured_since")
        blocks = [page_block(docs, exp, t) for t in item["tables"]]
        if item_measured(item, docs):
            lines.append(f"{exp}: measured ({', '.join(item['tables'])} on docs/results/{exp}.md)")
            continue
        if since and all(measured_by(b, None) for b in blocks):
            lines.append(f"{exp}: {', '.join(item['tables'])} on docs/results/{exp}.md measured by code before {since}: "
                         "to be measured again")
        tables, specs, results = table_runs(exp, with_specs=True)
        # a run an earlier item of the same experiment needs is listed (and charged) there only
        wanted = sorted({r for t in item["tables"] for r in tables[t]} - listed.setdefault(exp, set()))
        listed[exp].update(wanted)
        counts = {"finished": 0, "training": 0, "not started": 0}
        detail, states = [], {}
        for rid in wanted:
            train = specs[rid]["train"]
            cap, per_epoch = train["max_epochs"], train.get("valid_per_epoch", 1)
            run_dir = os.path.join(results_root, results, "systems", rid)
            states[rid] = state, epoch, ppl, rate = run_state(run_dir, cap, per_epoch)
            counts[state] += 1
            detail.append(f"  {rid}: {state}" + (f" (epoch {epoch} of {cap})" if state == "training" else
                                                  f" ({epoch} epochs)" if state == "finished" else "")
                          + (f", best dev ppl {ppl:.2f}" if ppl is not None else "")
                          + (f", {rate:.0f} s per epoch" if rate is not None else "")
                          + ("; WARNING: a training state was set aside (state.pt.stale): the run restarted from scratch"
                             if os.path.exists(os.path.join(results_root, results, "systems", rid, "state.pt.stale")) else ""))
        left, measured, unmeasured = hours_left(plan, exp, specs, states, measured_rates(results_root, results, specs, states))
        total += left
        total_measured += measured
        lines.append(f"{exp}: {counts['finished']} finished, {counts['training']} training or waiting to resume, "
                     f"{counts['not started']} not started; ~{left:.1f} CPU-hours left by the plan's estimates, "
                     f"~{measured:.1f} at the speeds measured here"
                     + (f" ({unmeasured} run(s) of pairs not measured here at the plan's estimate)" if unmeasured else ""))
        lines += detail
    lines.append(f"round 2: ~{total:.1f} CPU-hours left by the plan (~{total / 2:.1f} h on the 2 cores), "
                 f"~{total_measured:.1f} at the speeds measured here (~{total_measured / 2:.1f} h)")
    return "\n".join(lines)


def campaign(path=os.path.join(ROOT, "pipeline", "config", "mini_campaign.yaml")):
    plan = yaml.safe_load(open(path, encoding="utf-8"))
    rows, trained, owner = [], {}, {}
    order = [(item["experiment"], t, True) for item in plan["run"] for t in item["tables"]]
    # checks of contradictions (item 4): an item's `checks:` tables, or all its tables with `check: true`
    checks = {(item["experiment"], t) for item in plan["run"]
              for t in (item["tables"] if item.get("check") else item.get("checks", []))}
    tables = {f"{p}.mini": table_runs(f"{p}.mini") for p in PAPERS}
    for exp, names in tables.items():
        order += [(exp, t, False) for t in names if not any(o[0] == exp and o[1] == t for o in order)]
    for exp, table, in_round in order:
        if table not in tables[exp]:
            raise SystemExit(f"{path}: {exp} has no table '{table}'")
        cost = plan["hours_per_run"][exp]
        done = trained.setdefault(exp, set())  # before the loop: a table without runs has none to ask
        new = {r: p for r, p in tables[exp][table].items() if r not in done}
        done.update(new)
        # the earlier tables whose runs this one reuses (their cost is counted there)
        runs_of = owner.setdefault(exp, {})
        shared = sorted({runs_of[r] for r in tables[exp][table] if r in runs_of}, key=[o[1] for o in order].index)
        runs_of.update({r: table for r in new})
        hours = sum(cost.get(p, cost["default"]) for p in new.values())
        rows.append({"paper": exp.split(".")[0], "experiment": exp, "table": table, "round2": in_round,
                     "check": (exp, table) in checks,
                     "runs": len(tables[exp][table]), "new_runs": len(new), "cpu_hours": round(hours, 1),
                     "runs_from": shared})
    return rows


# the rules given half the cores: trainings, what runs beside the last of them, and the threaded
# preparation steps (language filter, SentencePiece, parsers, parse caches), which otherwise wait for
# both cores while a training runs: with --prioritize (or a pair prepared after another pair's runs
# started) one core idled for the whole of a training (+C&H's, 2026-11-29)
HALF_CORE_RULES = ("train", "translate", "analysis_dump", "significance", "tree_significance", "langid_filter_train", "langid_filter_clean",
                   "langid_set", "learn_spm", "apply_spm", "train_parser", "parse_corpus", "pretrain_lgp_parser")


def item_measured(item, docs):
    """Whether every table of a plan item is measured on its results page (measured_by, with the
    item's `measured_since`): the item is done wherever its runs are."""
    return all(measured_by(page_block(docs, item["experiment"], t), item.get("measured_since")) for t in item["tables"])


def commands(path=os.path.join(ROOT, "pipeline", "config", "mini_campaign.yaml"), cores=2, resume=False, pending=False,
             docs=os.path.join(ROOT, "docs", "results")):
    """One command per item of round 2's plan (an experiment), its tables as targets. On the 2-core machine two
    trainings run side by side with one thread each (docs/benchmarks.md: 1.19-1.26x the throughput
    of one run on both cores), so train's threads are set to cores / 2; so are the threads of the
    jobs that follow a training (decoding, analysis dumps, significance), which otherwise wait for
    every core while one training still runs and leave the other idle, and of the threaded preparation
    steps, which would wait the same way beside a training. resume: each command first
    removes the lock a killed Snakemake leaves behind (a session or machine that ended under it);
    only for a chain that runs alone in this directory, as --unlock removes every lock here.
    pending: the items measured on their pages (`docs`) are left out."""
    plan = yaml.safe_load(open(path, encoding="utf-8"))
    out = []
    for item in plan["run"]:
        exp = item["experiment"]
        if pending and item_measured(item, docs):
            continue
        cfg = yaml.safe_load(open(os.path.join(ROOT, "pipeline", "config", "experiments", f"{exp}.yaml"), encoding="utf-8"))
        known = cfg["experiment"]["tables"]
        for t in item["tables"]:
            if t not in known:
                raise SystemExit(f"{path}: {exp} has no table '{t}' in its experiment.tables")
        targets = " ".join(f"{cfg['results_dir']}/tables/{t}.md" for t in item["tables"])
        # `first:` the item's longest trainings, started before the others (Snakemake does not schedule
        # by the longest path: started last, +C&H's ~3x longer run trains alone on one core while the
        # other idles for hours); every rule of a training's path takes half the cores (HALF_CORE_RULES),
        # so the priority never holds a core back waiting for both
        first = item.get("first", [])
        if first:
            runs = table_runs(exp)
            item_runs = set().union(*(runs[t] for t in item["tables"]))
            for r in first:
                if r not in item_runs:
                    raise SystemExit(f"{path}: {exp}: 'first' names {r}, which none of the item's tables trains")
        # one flag for all of them: Snakemake's --prioritize takes a list (nargs="+") and a repeated
        # flag keeps only its last list (9.27), which left +C&H unprioritised on 2026-12-07
        prioritize = (" --prioritize " + " ".join(f"{cfg['results_dir']}/systems/{r}/summary.json" for r in first)
                      if first else "")
        unlock = (f".venv/bin/snakemake --unlock --cores 1 --configfile pipeline/config/experiments/{exp}.yaml > /dev/null && "
                  if resume else "")
        out.append(f"{unlock}.venv/bin/snakemake {targets}{prioritize} --profile cluster/local --cores {cores} "
                   f"--configfile pipeline/config/experiments/{exp}.yaml --rerun-incomplete "
                   "--set-threads " + " ".join(f"{rule}={max(1, cores // 2)}" for rule in HALF_CORE_RULES))
    return out


def markdown(rows):
    lines = ["| order | experiment | table | training runs | new runs | CPU-hours (est.) |", "|---|---|---|---|---|---|"]
    for i, r in enumerate(rows, 1):
        lines.append(f"| {i}{' (round 2)' if r['round2'] else ''} | `{r['experiment']}` | `{r['table']}` | {r['runs']} | "
                     f"{r['new_runs']} | {r['cpu_hours']:.1f} |")
    round2 = sum(r["cpu_hours"] for r in rows if r["round2"])
    rest = sum(r["cpu_hours"] for r in rows if not r["round2"])
    lines += ["", f"Round 2: {round2:.0f} CPU-hours; the configured tables after it: {rest:.0f} CPU-hours more."]
    return "\n".join(lines)


def replace_block(doc, table):
    text = open(doc, encoding="utf-8").read()
    start, end = "<!-- campaign -->\n", "<!-- /campaign -->"
    if start not in text or end not in text:
        raise SystemExit(f"{doc}: no <!-- campaign --> ... <!-- /campaign --> block")
    head, rest = text.split(start, 1)
    return text, head + start + table + "\n" + end + rest.split(end, 1)[1]


if __name__ == "__main__":
    if "--progress" in sys.argv:
        print(progress())
        sys.exit(0)
    if "--commands" in sys.argv:
        print("\n".join(commands(resume="--resume" in sys.argv, pending="--pending" in sys.argv)))
        sys.exit(0)
    result = campaign()
    if "--write" in sys.argv or "--check" in sys.argv:
        doc = sys.argv[sys.argv.index("--write" if "--write" in sys.argv else "--check") + 1]
        old, new = replace_block(doc, markdown(result))
        if "--check" in sys.argv:
            if old != new:
                print(f"{doc}: the campaign table is stale; run pipeline/scripts/campaign.py --write {doc}")
                sys.exit(1)
            print(f"{doc}: campaign table current")
        else:
            open(doc, "w", encoding="utf-8").write(new)
    else:
        print(json.dumps(result, indent=1) if "--json" in sys.argv else markdown(result))
