#!/usr/bin/env python3
"""Paper numbers in docs/results/ come from pipeline/papers/*.yaml only.

A results page is named after its experiment (`<paper>.<scale>.md`, e.g. sa_nmt.mini.md) and may
quote numbers of that paper in two places, both checked against the paper's YAML:
  - generated tables: a cell of a "paper (COLUMN)" column must be a number of that column in the
    YAML; a verdict cell's "paper +D" must be the difference of two numbers of that column;
  - prose: in a sentence that attributes something to the paper (it names the paper, its authors,
    or says "paper"), every decimal number must be a number of the paper's YAML (a value, sd,
    variance, interval end, or a number in its transcription notes) or a setting of the page's
    experiment file (a numeric value of pipeline/config/experiments/<page>.yaml: the hyper-parameters it
    reproduces; its notes are prose and do not count).
    Differences, rounded or recomputed figures are not: prose interprets, the tables' paper and
    verdict columns quote.
Usage: check_results_docs.py [DOCS_DIR] [PAPERS_DIR]; exit 1 with file:line for each violation.
"""
import glob
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBER = re.compile(r"(?<![\w.:/§])[+\-−]?\d+\.\d+(?![\w.]*\d)")
ATTRIBUTION = re.compile(r"\b[Pp]apers?\b|\b[Pp]aper's|\b[Aa]uthors\b|\b(Tran|Bisk|Bugliarello|Okazaki|Hashimoto|Tsuruoka|Bastings)\b")
P_VALUE = re.compile(r"\bp\s*[<=>≤]\s*\d+(\.\d+)?")  # significance levels and p-values are no paper numbers
# a section number ("Section 6.2", as a table's generated "Paper column:" line cites a paper's text;
# "§6.2" is left out by NUMBER itself) is no paper number either
SECTION = re.compile(r"\bSections?\s+\d+(\.\d+)+")


def as_float(text):
    return float(text.replace("−", "-").replace("+", ""))


def paper_numbers(doc):
    """{column: [values]} over every table, and the set of every number in the file."""
    by_column, every = {}, set()
    for t in doc.get("tables", {}).values():
        for row in t.get("rows", {}).values():
            for col, cell in row.items():
                values = [cell] if not isinstance(cell, dict) else [cell["value"]]
                by_column.setdefault(col, []).append(float(values[0]))
                if isinstance(cell, dict):
                    values += [cell[k] for k in ("sd", "var") if k in cell] + list(cell.get("ci", []))
                every.update(round(float(x), 6) for x in values)
        for note in t.get("notes", []) + [t.get("caption", "")]:
            every.update(round(as_float(m), 6) for m in NUMBER.findall(note))
    return by_column, every


def numeric_values(node):
    """Every numeric scalar of a parsed YAML document (not its strings: a table note is prose)."""
    if isinstance(node, dict):
        for v in node.values():
            yield from numeric_values(v)
    elif isinstance(node, list):
        for v in node:
            yield from numeric_values(v)
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield round(float(node), 6)


def close_to(x, values, tol=0.0051):
    return any(abs(x - v) <= tol for v in values)


def check_table_row(path, lineno, header, cells, by_column, errors):
    for name, text in zip(header, cells):
        m = re.fullmatch(r"paper \((.*)\)", name)
        if m and text.strip():
            col = m.group(1)
            value = NUMBER.search(text) or re.search(r"\d+(\.\d+)?", text)
            if value and not close_to(as_float(value.group(0)), by_column.get(col, [])):
                errors.append(f"{path}:{lineno}: paper cell '{text.strip()}' of column '{col}' is no number of that column in the paper's YAML")
        m = re.fullmatch(r"verdict \((.*)\)", name)
        if m:
            before = [h for h in header[: header.index(name)] if h.startswith("paper (")]
            col = before[-1][len("paper ("):-1] if before else None  # the paper column beside it
            values = by_column.get(col, [])
            for d in re.findall(r"paper ([+\-−]?\d+\.\d+)", text):
                diffs = [a - b for a in values for b in values]
                if not close_to(as_float(d), diffs):
                    errors.append(f"{path}:{lineno}: verdict's paper difference {d} is no difference of two numbers of column '{col}'")


def sentences(paragraph):
    return re.split(r"(?<=[.;!?])\s+(?=[A-Z(*`])", paragraph)


def check_page(path, papers_dir, errors):
    stem = os.path.basename(path).split(".")[0]
    yaml_path = os.path.join(papers_dir, f"{stem}.yaml")
    by_column, every = ({}, set())
    if os.path.exists(yaml_path):
        by_column, every = paper_numbers(yaml.safe_load(open(yaml_path, encoding="utf-8")))
    # a setting quoted from the experiment's configuration (the paper's hyper-parameters it
    # reproduces) is no result: the numbers of pipeline/config/experiments/<page>.yaml pass too
    experiment = os.path.join(ROOT, "pipeline", "config", "experiments", os.path.basename(path)[: -len(".md")] + ".yaml")
    if os.path.exists(experiment):
        every = every | set(numeric_values(yaml.safe_load(open(experiment, encoding="utf-8"))))
    lines = open(path, encoding="utf-8").read().split("\n")
    header = None
    paragraph, start = [], 0
    in_code = False

    def flush():
        text = " ".join(paragraph)
        for sentence in sentences(text):
            if not ATTRIBUTION.search(sentence):
                continue
            for n in NUMBER.findall(SECTION.sub("", P_VALUE.sub("", sentence))):
                if not close_to(as_float(n), every, tol=1e-9):
                    errors.append(f"{path}:{start}: '{n}' in a sentence about the paper is no number of "
                                  f"{os.path.relpath(yaml_path, ROOT)}: \"{sentence.strip()[:160]}\"")

    for i, line in enumerate(lines, 1):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if header is None:
                header = cells
            elif not all(set(c) <= set("-: ") for c in cells):
                check_table_row(path, i, header, cells, by_column, errors)
            continue
        header = None
        if line.strip() == "" or line.startswith("#") or line.startswith("!["):
            if paragraph:
                flush()
            paragraph = []
            continue
        if line.lstrip().startswith("- ") and paragraph:  # a list item is a paragraph of its own
            flush()
            paragraph = []
        if not paragraph:
            start = i
        paragraph.append(line.strip().lstrip("-* "))
    if paragraph:
        flush()


def main(argv):
    docs = argv[1] if len(argv) > 1 else os.path.join(ROOT, "docs", "results")
    papers = argv[2] if len(argv) > 2 else os.path.join(ROOT, "pipeline", "papers")
    errors = []
    pages = sorted(glob.glob(os.path.join(docs, "*.md")))
    for page in pages:
        check_page(page, papers, errors)
    for e in errors:
        print(e)
    print(f"results docs: {len(pages)} pages, {len(errors)} paper number(s) not from the YAML")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
