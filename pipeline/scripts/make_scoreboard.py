#!/usr/bin/env python3
"""docs/results/README.md: the reproduction scoreboard, generated from the tally line under every
table of the results pages (docs/results/<paper>.<scale>.md; verdict.py's rule), one section per
paper. Usage: make_scoreboard.py [DOCS_DIR] [--check]  (--check: exit 1 when README.md is stale).
"""
import glob
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict as verdicts  # noqa: E402
import campaign  # noqa: E402
import docs_verdicts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COLUMNS = [verdicts.AGREES, verdicts.NOT_SIGNIFICANT, verdicts.CONTRADICTS, verdicts.SAME_UNTESTED, verdicts.OPPOSITE_UNTESTED]


SEEDS = re.compile(r"\(n=(\d+)\)")
CAP = re.compile(r"^\s*(\w+): .*≤ (\d+) epochs")     # "nmt: until 3 validations ..., ≤ 10 epochs"
REACHED = re.compile(r"(\d+) / \d+")                # "10 / 9070": epochs / updates of one run
DECODED_FROM = re.compile(r"(\w+)(?:\.s\d+)? decoded from its")  # "x_avg: x.s1 decoded from its averaged.pt (...)"


def training_label(budget, reached):
    """How a table's runs were trained, from its "Training budget:" line and (round 2) its "Training
    reached" line: a convergence rule only reads as convergence where the runs stopped before the
    epoch cap; a cap that stopped every run is said plainly (the rule did not decide)."""
    if not budget:
        return "n/a"
    if "until" not in budget:
        return "fixed updates (round 1)"
    caps, untrained = {}, set()
    for group in budget.split(":", 1)[1].split("; "):
        if ": no training (" in group:  # a checkpoint of initial parameters: neither rule nor cap applies
            untrained.add(group.strip().split(":", 1)[0])
            continue
        m = CAP.match(group)
        if m:
            caps[m[1]] = int(m[2])
            # a decode-only system (an averaged checkpoint, UnkRep) reports its member's run as reached
            for member in DECODED_FROM.findall(group):
                caps.setdefault(member, int(m[2]))
    runs = at_cap = unknown = 0
    for group in reached.split(":", 1)[-1].split("; ") if reached else []:
        name = group.strip().split(" ", 1)[0]
        if name.split(".", 1)[0] in untrained:
            continue
        cap = caps.get(name.split(".", 1)[0])
        for epochs in REACHED.findall(group):
            runs += 1
            at_cap += cap is not None and int(epochs) >= cap
            unknown += cap is None
    if unknown:  # never "to convergence" for runs whose cap the budget line does not state
        return f"{runs - unknown} of {runs} runs with a stated cap, {at_cap} of them stopped by it"
    if runs and at_cap == runs:
        return "epoch cap reached by every run"
    if at_cap:
        return f"to convergence ({at_cap} of {runs} runs stopped by the epoch cap)"
    return "to convergence"


def page_tallies(path):
    """[(table heading, table name, counts, training, seeds)] of one page, in order (the name from the
    latest `<!-- table: NAME -->` marker, "" for a tally outside one): training says whether the
    table's runs trained to a convergence rule (round 2; or to its epoch cap) or for a fixed number of
    updates (round 1), from the table's "Training budget:" and "Training reached" lines (or the page's
    "- **Budget**" summary); seeds is the most runs behind one cell."""
    heading, name, out = os.path.basename(path), "", []
    budget, reached, seeds = "", "", 1
    for line in open(path, encoding="utf-8"):
        marker = docs_verdicts.MARKER.match(line)
        if marker:
            name = marker[1]
        if line.startswith("#"):  # the latest heading: a section, or a generated table's own title
            heading = line.lstrip("#").strip()
        if line.startswith(("Training budget:", "- **Budget**")):  # a generated header, or a page's own summary
            budget = line
        if line.startswith("Training reached"):
            reached = line
        if line.startswith("|"):
            seeds = max([seeds] + [int(n) for n in SEEDS.findall(line)])
        counts = verdicts.parse_tally(line)
        if counts is not None:
            out.append((heading, name, counts, training_label(budget, reached), seeds))
            budget, reached, seeds, name = "", "", 1, ""
    return out


def page_table(page, name):
    """(header, rows, budget line, reached line) of the table marked `<!-- table: NAME -->` on a
    page, or None; the budget lines are those of the table's block (above the marker)."""
    lines = open(page, encoding="utf-8").read().split("\n")
    marker = f"<!-- table: {name} -->"
    if marker not in lines:
        return None
    at = lines.index(marker)
    budget = reached = ""
    for line in reversed(lines[:at]):
        if line.startswith("## "):
            break
        if line.startswith("Training budget:"):
            budget = budget or line
        if line.startswith("Training reached"):
            reached = reached or line
    try:
        table = [docs_verdicts.split_row(line) for line in docs_verdicts.table_at(lines, at + 1)[0]]
    except ValueError as e:
        raise ValueError(f"{page}: {e}") from None
    return table[0], table[2:], budget, reached


def check_status(docs, row):
    """Where a check's table stands: measured on its experiment's page (campaign.on_page), or planned."""
    page = f"{row['experiment']}.md"
    if campaign.on_page(docs, row["experiment"], row["table"]):
        return f"measured ([{page}]({page}))"
    return f"planned ({row['new_runs']} new run{'s' if row['new_runs'] != 1 else ''}, {row['cpu_hours']:.1f} CPU-h est.)"


def claim_rows(doc, pages):
    """The paper's claims in its text (`claims:` of its YAML), each read on the page that holds its
    table: [(scale, page, label, training, seeds, counts, detail)]. A claim has no number of the
    paper's, so its verdict is its direction only (untested)."""
    out = []
    for c in doc.get("claims") or []:
        for page in pages:
            found = page_table(page, c["table"])
            if found is None:
                continue
            header, rows, budget, reached = found
            by_label = {r[0]: r for r in rows}
            if c["column"] not in header or c["row"] not in by_label or c["against"] not in by_label:
                raise SystemExit(f"{page}: table {c['table']} has no cell for the claim '{c['claim']}' "
                                 f"(row '{c['row']}', against '{c['against']}', column '{c['column']}')")
            ci = header.index(c["column"])
            here, there = docs_verdicts.number(by_label[c["row"]][ci]), docs_verdicts.number(by_label[c["against"]][ci])
            same = (here - there > 0) if c["direction"] == "higher" else (here - there < 0)
            result = verdicts.SAME_UNTESTED if same else verdicts.OPPOSITE_UNTESTED
            seeds = max([1] + [int(n) for n in SEEDS.findall(by_label[c["row"]][ci])])
            scale = os.path.basename(page)[: -len(".md")].split(".", 1)[1]
            detail = (f"{c['source']}, \"{c['claim']}\" (read here as: {c['reading']}): {c['row']} {c['column']} {by_label[c['row']][ci]} against "
                      f"{c['against']} {by_label[c['against']][ci]} ([{os.path.basename(page)}]({os.path.basename(page)})): {result}.")
            # two readings of one claim (e.g. one per encoder) are told apart by the reading's subject
            subject = c["reading"].split(":", 1)[0] if ":" in c["reading"] else c["reading"]
            out.append((scale, os.path.basename(page), f"{c['source']}: {c['claim']} — {subject}", c["table"],
                        training_label(budget, reached), seeds, {result: 1}, detail))
    return out


def pending_text(row):
    """A configured table not run yet: its own runs and their cost, and the earlier tables whose runs it reuses."""
    shared = ", ".join(f"`{t}`" for t in row["runs_from"])
    if row["new_runs"] == 0:
        return f"`{row['table']}` no runs of its own (those of {shared})"
    return f"`{row['table']}` {row['new_runs']} runs, {row['cpu_hours']:.1f} h" + (f", and those of {shared}" if shared else "")


def scoreboard(docs):
    papers, claims = {}, {}
    # round-2 tables are run (their pages carry tallies once measured); the others are listed as
    # configured with their cost, where they need runs of their own
    plan = campaign.campaign()
    checks = [r for r in plan if r.get("check")]
    check_tables = {r["table"] for r in checks}
    # every configured table that trains runs and is on no page yet, also one whose runs all belong
    # to an earlier table (it costs nothing of its own, but its comparisons are still unmeasured)
    not_run = [r for r in plan if not r["round2"] and r["runs"] > 0 and not check_status(docs, r).startswith("measured")]
    for page in sorted(glob.glob(os.path.join(docs, "*.*.md"))):
        name = os.path.basename(page)[: -len(".md")]
        paper, scale = name.split(".", 1)
        for heading, table, counts, training, seeds in page_tallies(page):
            papers.setdefault(paper, []).append((scale, os.path.basename(page), heading, table, training, seeds, counts))
    for paper in list(papers):
        doc = yaml.safe_load(open(os.path.join(ROOT, "pipeline", "papers", f"{paper}.yaml"), encoding="utf-8"))
        pages = sorted(glob.glob(os.path.join(docs, f"{paper}.*.md")))
        for scale, page, label, table, training, seeds, counts, detail in claim_rows(doc, pages):
            papers[paper].append((scale, page, label, table, training, seeds, counts))
            claims.setdefault(paper, []).append(detail)
    lines = ["# Reproduction scoreboard", "",
             "Generated by `pipeline/scripts/make_scoreboard.py` from the tally under each table of the pages in this",
             "folder; do not edit by hand. For every comparison a paper makes (a row against its comparison row, per",
             "column) the table beside the paper's number shows a verdict computed from the data: **agrees** (same",
             "sign, and significant here where the paper's was or its marks are unknown), **not significant**, **contradicts** (significant",
             "here, opposite sign), or *untested* (a statistic without a significance test: its sign only). The mini",
             "tables of round 1 trained every run for a fixed, short number of updates, mostly with one seed; round 2",
             "trains every run to a convergence rule under an epoch cap, with 3 seeds for each paper's headline rows",
             "(`training` and `seeds` below; `training` says when the cap, not the rule, stopped runs). Claims a paper",
             "makes in its text without a number (`claims:` in `pipeline/papers/<paper>.yaml`) are read on the table that",
             "measures them: their direction only. A verdict is a reading of these measurements, not a replication. "
             "Seed-group comparisons measured before 2026-12-02 were tested by a bootstrap that drew the runs' "
             "concatenated lines one by one, which makes p-values too small when runs agree; each such page says so "
             "in its first note (the bootstrap now resamples by test sentence).", ""]
    for paper in sorted(papers):
        doc = yaml.safe_load(open(os.path.join(ROOT, "pipeline", "papers", f"{paper}.yaml"), encoding="utf-8"))
        lines += [f"## {doc['citation'].split(' (')[0]} ({doc['citation'].split('(')[1].split(')')[0]})", "",
                  "| scale | page | table | training | seeds | " + " | ".join(COLUMNS) + " | comparisons |",
                  "|" + "---|" * (len(COLUMNS) + 6)]
        total, has_checks = {}, False
        for scale, page, heading, table, training, seeds, counts in papers[paper]:
            is_check = table in check_tables
            has_checks |= is_check
            lines.append(f"| {scale} | [{page}]({page}) | {heading}{' (check)' if is_check and 'check' not in heading else ''} | {training} | {seeds} | "
                         + " | ".join(str(counts.get(c, 0)) for c in COLUMNS) + f" | {sum(counts.values())} |")
            if is_check:  # a check repeats comparisons of a paper table, with other runs or settings
                continue
            for c, n in counts.items():
                total[c] = total.get(c, 0) + n
        lines.append("| **all** | | | | | " + " | ".join(f"**{total.get(c, 0)}**" for c in COLUMNS) + f" | **{sum(total.values())}** |")
        lines.append("")
        if has_checks:
            lines += ["The **all** row leaves out the checks: their comparisons repeat a paper table's, with other",
                      "settings or runs, and would count the same claim twice.", ""]
        if claims.get(paper):
            lines += ["Claims of the text (no number to compare with, so their direction only):", ""]
            lines += [f"- {d}" for d in claims[paper]] + [""]
        own_checks = [r for r in checks if r["paper"] == paper]
        if own_checks:
            lines += ["Checks of contradictions (round 2's plan, `pipeline/config/mini_campaign.yaml`: ablations and longer",
                      "budgets, each written up under its table on the page): "
                      + "; ".join(f"`{r['table']}` " + check_status(docs, r) for r in own_checks) + ".", ""]
        in_round2 = [r for r in plan if r["paper"] == paper and r["round2"] and not r.get("check")
                     and not check_status(docs, r).startswith("measured")]
        if in_round2:  # a paper table of the round-2 plan, not measured yet: its comparisons are still to come
            lines += ["Round 2, not on the page yet (the campaign trains them; `docs/reproducing.md`, \"Mini campaign\"): "
                      + "; ".join(f"`{r['table']}` " + check_status(docs, r) for r in in_round2) + ".", ""]
        pending = [r for r in not_run if r["paper"] == paper]
        if pending:
            lines += ["Configured, not run at mini scale (estimated CPU-hours on the 2-core machine for the runs not shared with an",
                      "earlier table; `docs/reproducing.md`, \"Mini campaign\"): " + "; ".join(pending_text(r) for r in pending) + ".", ""]
    return "\n".join(lines)


def main(argv):
    args = [a for a in argv[1:] if a != "--check"]
    docs = args[0] if args else os.path.join(ROOT, "docs", "results")
    text = scoreboard(docs)
    target = os.path.join(docs, "README.md")
    if "--check" in argv:
        current = open(target, encoding="utf-8").read() if os.path.exists(target) else ""
        if current != text:
            print(f"{target} is out of date: run pipeline/scripts/make_scoreboard.py")
            return 1
        print(f"{target}: up to date")
        return 0
    with open(target, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
