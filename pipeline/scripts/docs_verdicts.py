#!/usr/bin/env python3
"""Verdict columns and tallies for the tables already committed in docs/results/, computed from the
tables themselves (measured means and bootstrap marks, as the DAG wrote them) and the paper's YAML,
by the rule of verdict.py; the DAG's own tables (make_table.py) carry the same columns when they
are made.

A docs table opts in with a marker line right above it, naming its experiment table:
    <!-- table: sa_nmt_table2 -->
The page is docs/results/<paper>.<scale>.md; the experiment is pipeline/config/experiments/
<paper>.<scale>.yaml and the paper pipeline/papers/<paper>.yaml. Each "paper (P)" column gets a
"verdict (COLUMN)" column beside it and the table a tally line under it (replaced when run again).
Usage: docs_verdicts.py PAGE.md [...] [--check]  (--check: exit 1 if a page would change)
"""
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict as verdicts  # noqa: E402
from experiment import DEFAULT_MARKS, row_comparisons  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = re.compile(r"^<!-- table: (\S+) -->$")
FIRST_NUMBER = re.compile(r"[+\-−]?\d+(?:\.\d+)?")


def split_row(line):
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def join_row(cells):
    return "| " + " | ".join(cells) + " |"


def number(text):
    m = FIRST_NUMBER.search(text or "")
    return None if m is None else float(m.group(0).replace("−", "-"))


def decimals_of(text):
    m = FIRST_NUMBER.search(text or "")
    return len(m.group(0).split(".")[1]) if m and "." in m.group(0) else 0


def paper_value(cell):
    return None if cell is None else float(cell["value"] if isinstance(cell, dict) else cell)


# one comparison in a verdict cell the DAG wrote: its measured part ("here -2.50‡", or "here +0.48
# (seed-1 pair -8.50‡)" where the one-seed pair tested points against the group mean)
HERE = re.compile(r"vs (?P<row>.+?): paper [^·]*· here (?P<delta>[+\-−]?\d+(?:\.\d+)?)(?P<marks>[^ ·(]*)(?P<seed> \(seed-\d+ pair [^)]*\))? · ")


def written_marks(header, rows):
    """{(row label, measured column's label, compared row): (marks, seed-pair note, Δ)} from the
    verdict cells already in the table: a cell holding several comparisons' marks does not say which
    mark is whose, the DAG's verdict text does; and its Δ comes from the unrounded means, where the
    table's cells only give rounded ones."""
    out = {}
    for i, h in enumerate(header):
        m = re.fullmatch(r"verdict \((.*)\)", h)
        if not m or m.group(1) not in header:
            continue
        for r in rows:
            for part in (r[i] if i < len(r) else "").split("; "):
                hit = HERE.match(part + " ")
                if hit and not part.endswith("(untested)"):  # an untested verdict records no test
                    out[(r[0], m.group(1), hit.group("row"))] = (hit.group("marks"), hit.group("seed") or "",
                                                                 number(hit.group("delta")))
    return out


def render(table_name, header, rows, experiment, paper):
    """(header, rows, tally line) with the verdict columns recomputed."""
    spec = experiment["tables"][table_name]
    written = written_marks(header, rows)
    keep = [i for i, h in enumerate(header) if not h.startswith("verdict (")]
    header = [header[i] for i in keep]
    rows = [[r[i] if i < len(r) else "" for i in keep] for r in rows]
    by_label = {r[0]: r for r in rows}
    row_specs = {r["label"]: dict(r) for r in spec["rows"]}
    baseline = spec.get("baseline")  # as experiment.resolve_table: a row without `compare` is tested against it
    for label, r in row_specs.items():
        if r.get("compare") is None:
            r["compare"] = [baseline] if baseline is not None and baseline != label else []
    col_specs = {c["label"]: c for c in spec["columns"]}
    default_marks = spec.get("marks", DEFAULT_MARKS)
    if not any(r.get("compare") for r in row_specs.values()):
        return header, rows, None  # no comparison of the paper's in this table
    new_header, plan = [], []
    for i, h in enumerate(header):
        new_header.append(h)
        plan.append(("cell", i))
        m = re.fullmatch(r"paper \((.*)\)", h)
        if m:
            column = next((label for label, c in col_specs.items() if c.get("paper", label) == m.group(1)), None)
            if column is None or column not in header:
                raise KeyError(f"{table_name}: no measured column for '{h}'")
            new_header.append(f"verdict ({column})")
            plan.append(("verdict", header.index(column), m.group(1)))
    results = []
    new_rows = []
    for r in rows:
        out = []
        rs = row_specs.get(r[0], {})
        for step in plan:
            if step[0] == "cell":
                out.append(r[step[1]])
                continue
            _, ci, pcol = step
            texts = []
            for comp in row_comparisons(rs.get("compare", []), default_marks, f"tables.{table_name}.rows ({r[0]})"):
                marks = comp["marks"]
                base = by_label.get(comp["row"])
                p_row = paper_value(paper["rows"].get(rs.get("paper", r[0]), {}).get(pcol))
                p_base = paper_value(paper["rows"].get(row_specs.get(comp["row"], {}).get("paper", comp["row"]), {}).get(pcol))
                here, there = number(r[ci]), number(base[ci]) if base else None
                if None in (p_row, p_base, here, there):
                    continue
                delta = here - there
                delta_column = f"Δ ({header[ci]})"
                first = rs["compare"][0]
                if (first if isinstance(first, str) else first["row"]) == comp["row"] and delta_column in header:
                    delta = number(r[header.index(delta_column)])  # the table's own Δ, from unrounded means
                base_key = row_specs.get(comp["row"], {}).get("paper", comp["row"])
                paper_mark = verdicts.paper_marks(paper, rs.get("paper", r[0]), pcol, base_key)
                measured_mark = "".join(mk for mk in marks if mk in r[ci])  # the bootstrap's symbols in the cell
                seed_note = ""
                if (r[0], header[ci], comp["row"]) in written:  # the DAG's own verdict text says whose mark it is
                    measured_mark, seed_note, delta = written[(r[0], header[ci], comp["row"])]
                col = col_specs[header[ci]]
                # a translation metric is always tested by the DAG; an attachment score only where the
                # table was made with its bootstrap, which its verdict text then shows
                tested = "metric" in col or ("bootstrap" in col.get("stat", {}) and (r[0], header[ci], comp["row"]) in written)
                significant = bool(measured_mark) and not seed_note  # a seed pair against the mean is no evidence
                result = verdicts.verdict(round(p_row - p_base, 6),
                                          verdicts.paper_significance(paper, rs.get("paper", r[0]), pcol, base_key), delta,
                                          significant if tested else None, conflicting=bool(seed_note))
                results.append(result)
                texts.append(verdicts.verdict_text(comp["row"], round(p_row - p_base, 6), paper_mark,
                                                   delta, seed_note or (measured_mark if tested else ""), result, decimals_of(r[ci])))
            out.append("; ".join(texts))
        new_rows.append(out)
    return new_header, new_rows, verdicts.tally_line(verdicts.tally(results))


def table_at(lines, i):
    """(the Markdown table's lines starting at lines[i] after any blank lines, the index after it):
    how a marked table is read here and by make_scoreboard.page_table."""
    while i < len(lines) and lines[i].strip() == "":
        i += 1
    start = i
    while i < len(lines) and lines[i].startswith("|"):
        i += 1
    if i == start:
        raise ValueError(f"line {start + 1}: a table marker with no table after it")
    return lines[start:i], i


def process(page, text=None):
    """The page's text with its verdicts rendered; `text`: the page's content when it is not yet
    the file's (docs_tables.py)."""
    stem = os.path.basename(page)[: -len(".md")]
    paper_name = stem.split(".")[0]
    experiment = yaml.safe_load(open(os.path.join(ROOT, "pipeline", "config", "experiments", f"{stem}.yaml"), encoding="utf-8"))
    papers = yaml.safe_load(open(os.path.join(ROOT, "pipeline", "papers", f"{paper_name}.yaml"), encoding="utf-8"))
    lines = (open(page, encoding="utf-8").read() if text is None else text).split("\n")
    out, i = [], 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m:
            continue
        table_name = m.group(1)
        if table_name not in experiment.get("tables", {}):
            raise KeyError(f"{page}:{i}: no table '{table_name}' in the experiment {stem}")
        if "paper" not in experiment["tables"][table_name]:  # a table of this repository's (no paper column): no verdicts
            continue
        paper = papers["tables"][experiment["tables"][table_name]["paper"]["table"]]
        while i < len(lines) and lines[i].strip() == "":
            out.append(lines[i])
            i += 1
        try:
            table, i = table_at(lines, i)
        except ValueError as e:
            raise ValueError(f"{page}: {e}") from None
        header, body = split_row(table[0]), [split_row(t) for t in table[2:]]
        new_header, new_rows, tally = render(table_name, header, body, experiment, paper)
        out += [join_row(new_header), "|" + "---|" * len(new_header)] + [join_row(r) for r in new_rows]
        # the tally line follows the table (after one blank line); an earlier one is replaced
        rest = i
        if rest + 1 < len(lines) and lines[rest].strip() == "" and lines[rest + 1].startswith(verdicts.TALLY_PREFIX):
            i = rest + 2
        if tally is not None:
            out += ["", tally]
    return "\n".join(out)


def update_pages(pages, render, check):
    """Writes render(page) over each page that it changes (--check: writes nothing); 1 when a
    checked page is out of date. Shared with docs_tables.py."""
    changed = []
    for page in pages:
        text = render(page)
        if text != open(page, encoding="utf-8").read():
            changed.append(page)
            if not check:
                with open(page, "w", encoding="utf-8") as f:
                    f.write(text)
    for page in changed:
        print(("out of date: " if check else "updated: ") + page)
    return 1 if check and changed else 0


def main(argv):
    return update_pages([a for a in argv[1:] if a != "--check"], process, "--check" in argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
