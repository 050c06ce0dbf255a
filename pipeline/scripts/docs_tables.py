#!/usr/bin/env python3
"""Copies the DAG's generated tables into a results page (docs/results/<paper>.<scale>.md), so that
every number of a page's tables, its header (scale, hardware, budget, epochs reached, date,
commits) and its notes come from results/<paper>.<scale>/tables/NAME.md, never from typing.

A page holds a generated table as a block: its header lines first (from the line that starts
"Experiment `" on), the marker and the table, its notes, and an end marker:

    Experiment `sa_nmt.mini`, scale **mini**: ...
    ...
    <!-- table: sa_nmt_table2_en_de -->
    | system | ... |
    ...
    Marks: ...
    <!-- /table -->

The block is replaced by the generated file's lines (its "# " title stays the page's own heading),
and docs_verdicts.py then renders the verdict columns and the tally under the table as for any
committed table. Prose before and after the block is the page's own.
Usage: docs_tables.py PAGE.md [...] [--results DIR] [--check]
  --results DIR  where <paper>.<scale>/tables/ are (default: results)
  --check        exit 1 when a page's blocks differ from the generated tables; a table whose
                 generated file is absent (no runs on this machine, as in CI) is skipped and named
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docs_verdicts  # noqa: E402
import verdict as verdicts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
END = "<!-- /table -->"
HEADER_START = "Experiment `"


def generated_block(path, name):
    """The page lines of one generated table: header, marker, table, notes (without the tally,
    which docs_verdicts writes under the table)."""
    lines = open(path, encoding="utf-8").read().rstrip("\n").split("\n")
    if not lines or not lines[0].startswith("# "):
        raise SystemExit(f"{path}:1: not a generated table (no '# ' title)")
    body = [l for l in lines[1:] if not l.startswith(verdicts.TALLY_PREFIX)]
    while body and body[0] == "":
        body.pop(0)
    first_row = next((i for i, l in enumerate(body) if l.startswith("|")), None)
    if first_row is None:
        raise SystemExit(f"{path}: no table rows")
    return body[:first_row] + [f"<!-- table: {name} -->"] + body[first_row:] + [END]


def process(page, results):
    """(new text, [skipped table names]) of one page."""
    stem = os.path.basename(page)[: -len(".md")]
    lines = open(page, encoding="utf-8").read().split("\n")
    out, skipped, i = [], [], 0
    while i < len(lines):
        m = docs_verdicts.MARKER.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        name = m.group(1)
        end = next((k for k in range(i + 1, len(lines)) if lines[k] == END), None)
        nxt = next((k for k in range(i + 1, len(lines)) if docs_verdicts.MARKER.match(lines[k])), len(lines))
        if end is None or end > nxt:
            raise SystemExit(f"{page}:{i + 1}: table '{name}' has no '{END}' line before the next table")
        # the block starts at its header: the last "Experiment `" line above the marker, in this section
        start = len(out)
        for k in range(len(out) - 1, -1, -1):
            if out[k].startswith("## "):
                break
            if out[k].startswith(HEADER_START):
                start = k
                break
        generated = os.path.join(results, stem, "tables", f"{name}.md")
        if not os.path.exists(generated):
            skipped.append(name)
            out += lines[i:end + 1]
        else:
            del out[start:]
            out += generated_block(generated, name)
        i = end + 1
    return "\n".join(out), skipped


def main(argv):
    args = argv[1:]
    check = "--check" in args
    results = os.path.join(ROOT, "results")
    if "--results" in args:
        results = args[args.index("--results") + 1]
        args = [a for a in args if a not in ("--results", results)]
    def render(page):
        text, skipped = process(page, results)
        for name in skipped:
            print(f"{page}: {name}: no generated table under {results} (kept as it is)")
        return docs_verdicts.process(page, text)

    return docs_verdicts.update_pages([a for a in args if a != "--check"], render, check)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
