#!/usr/bin/env python3
"""Self-check of the published-results YAML files in this folder.

Every file must load, follow the schema (citation, tables with source, caption,
statistic, columns, rows), and every row's and mark's keys must be in the
table's columns. Cells are numbers or {value, sd|var|ci}. Claims (the paper's
text, no numbers) name a measured table, row, column, the row they compare
with and the direction the paper states.
Usage: check_papers.py [FILE.yaml ...]   (default: all *.yaml beside this script)
"""
import glob
import numbers
import os
import sys

import yaml


def check_cell(where, cell):
    if isinstance(cell, numbers.Number) and not isinstance(cell, bool):
        return []
    if isinstance(cell, dict):
        extra = set(cell) - {"value", "sd", "var", "ci"}
        errs = [f"{where}: unknown cell keys {sorted(extra)}"] if extra else []
        if not isinstance(cell.get("value"), numbers.Number):
            errs.append(f"{where}: cell without numeric value")
        if len(set(cell) & {"sd", "var", "ci"}) != 1:
            errs.append(f"{where}: cell needs exactly one of sd, var, ci")
        ci = cell.get("ci")
        if ci is not None and not (isinstance(ci, list) and len(ci) == 2 and ci[0] <= cell["value"] <= ci[1]):
            errs.append(f"{where}: ci must be [lo, hi] around value")
        return errs
    return [f"{where}: cell is neither a number nor a mapping: {cell!r}"]


def check_file(path):
    errs = []
    doc = yaml.safe_load(open(path, encoding="utf-8"))
    if not isinstance(doc.get("citation"), str):
        errs.append(f"{path}: no citation")
    for tkey, t in doc.get("tables", {}).items():
        w = f"{path}:{tkey}"
        for k in ("source", "caption", "statistic", "columns", "rows"):
            if k not in t:
                errs.append(f"{w}: missing {k}")
        cols = t.get("columns", [])
        if len(set(cols)) != len(cols):
            errs.append(f"{w}: duplicate columns")
        for rkey, row in t.get("rows", {}).items():
            for ckey, cell in row.items():
                if ckey not in cols:
                    errs.append(f"{w}: row {rkey!r} has key {ckey!r} not in columns")
                errs += check_cell(f"{w}:{rkey}:{ckey}", cell)
        # a mark means "significant against some row": which one, the table says (mark_against)
        against = t.get("mark_against") or {}
        known_marks = {m for pair in against.values() for m in pair}
        if t.get("marks") and not against:
            errs.append(f"{w}: marks without mark_against (which row each mark tests against)")
        for rkey, pair in against.items():
            if rkey not in t.get("rows", {}):
                errs.append(f"{w}: mark_against names unknown row {rkey!r}")
            if not isinstance(pair, list) or len(pair) != 2:
                errs.append(f"{w}: mark_against[{rkey!r}] is [mark at p < 0.05, mark at p < 0.01]")
        for rkey, row in (t.get("marks") or {}).items():
            for ckey, cell in row.items():
                for m in cell:
                    if against and m not in known_marks:
                        errs.append(f"{w}: mark {m!r} of {rkey!r}/{ckey!r} is in no mark_against pair")
            if rkey not in t.get("rows", {}):
                errs.append(f"{w}: marks for unknown row {rkey!r}")
            for ckey in row:
                if ckey not in cols or ckey not in t.get("rows", {}).get(rkey, {}):
                    errs.append(f"{w}: mark on empty cell {rkey!r}/{ckey!r}")
        # marks_unknown: the paper prints significance marks in this table that the transcription
        # could not read; verdicts then need a significant result where the sign alone would do
        if "marks_unknown" in t and not isinstance(t["marks_unknown"], bool):
            errs.append(f"{w}: marks_unknown is true or false")
        if t.get("marks_unknown") and t.get("marks"):
            errs.append(f"{w}: marks_unknown with recorded marks")
        if not isinstance(t.get("notes", []), list):
            errs.append(f"{w}: notes must be a list")
    for i, c in enumerate(doc.get("claims") or []):
        w = f"{path}:claims[{i}]"
        # claim: the paper's words, quoted; reading: how this repository reads them on its table
        keys = {"source", "claim", "reading", "table", "row", "column", "against", "direction"}
        if set(c) != keys:
            errs.append(f"{w}: needs exactly the keys {sorted(keys)}, has {sorted(c)}")
        if c.get("direction") not in ("higher", "lower"):
            errs.append(f"{w}: direction is higher or lower (the row against the 'against' row)")
    return errs


def main(argv):
    files = argv or sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "*.yaml")))
    errs = [e for f in files for e in check_file(f)]
    for e in errs:
        print(e, file=sys.stderr)
    print(f"{len(files)} files, {len(errs)} problems")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
