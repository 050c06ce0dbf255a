#!/usr/bin/env python3
"""The verdict rule on a hand table: every branch (agree / not significant / contradict / untested,
with and without the paper's significance marks, marks unknown, a zero paper difference), and the tally line's
round trip. Run by ctest (pipeline_verdict)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipeline", "scripts"))
import verdict as v  # noqa: E402

# (paper delta, paper marked significant, measured delta, measured significant) -> verdict
HAND_TABLE = [
    (+1.3, True, +0.9, True, v.AGREES),             # same sign, significant both
    (+1.3, True, +0.9, False, v.NOT_SIGNIFICANT),   # same sign, but the paper's significance not reproduced
    (+0.4, False, +0.2, False, v.AGREES),           # paper unmarked: the sign suffices
    (+0.4, False, +0.2, True, v.AGREES),
    (-0.4, False, +0.73, True, v.CONTRADICTS),      # significant, opposite sign
    (-0.4, True, +0.73, True, v.CONTRADICTS),
    (+1.3, False, -3.22, True, v.CONTRADICTS),
    (+1.3, True, -0.5, False, v.NOT_SIGNIFICANT),   # opposite sign, not significant
    (+1.3, False, -0.5, False, v.NOT_SIGNIFICANT),
    (+1.0, True, 0.0, False, v.NOT_SIGNIFICANT),    # no measured difference
    (0.0, False, +0.3, False, v.AGREES),            # paper: no difference; here none significant
    (0.0, False, -0.9, True, v.CONTRADICTS),
    (+2.1, False, +1.2, None, v.SAME_UNTESTED),     # a statistic without a test
    (+2.1, True, -1.2, None, v.OPPOSITE_UNTESTED),
    (+0.8, None, +0.07, False, v.NOT_SIGNIFICANT),  # the paper's marks unknown: the sign alone is not enough
    (+0.8, None, +0.9, True, v.AGREES),
    (+0.8, None, -0.9, True, v.CONTRADICTS),
    (+0.8, None, -0.2, False, v.NOT_SIGNIFICANT),
    (None, False, +1.0, True, None),                # the paper has no number for one of the rows
    (+1.0, False, None, True, None),
]


def main():
    failures = []
    for paper_delta, paper_sig, measured, measured_sig, expected in HAND_TABLE:
        got = v.verdict(paper_delta, paper_sig, measured, measured_sig)
        if got != expected:
            failures.append(f"verdict({paper_delta}, {paper_sig}, {measured}, {measured_sig}) = {got!r}, expected {expected!r}")
    counts = v.tally([row[-1] for row in HAND_TABLE])
    expected_counts = {v.AGREES: 5, v.NOT_SIGNIFICANT: 6, v.CONTRADICTS: 5, v.SAME_UNTESTED: 1, v.OPPOSITE_UNTESTED: 1}
    if counts != expected_counts:
        failures.append(f"tally {counts} != {expected_counts}")
    line = v.tally_line(counts)
    if line != ("Reproduction tally: 18 comparisons with a paper difference: 5 agrees, 6 not significant, 5 contradicts, "
                "1 same direction (untested), 1 opposite direction (untested)."):
        failures.append(f"tally line: {line}")
    if v.parse_tally(line) != counts:
        failures.append(f"parse_tally({line!r}) = {v.parse_tally(line)}")
    if v.parse_tally(v.tally_line({})) is not None or v.parse_tally("Reading: 3 agree.") is not None:
        failures.append("parse_tally accepted a line that tallies nothing")
    # paper_significance: a table whose marks are unknown answers None, whatever its cells
    table = {"marks": {"New": {"BLEU": "‡"}}, "mark_against": {"Base": ["†", "‡"]}}
    got = (v.paper_significance(table, "New", "BLEU", "Base"), v.paper_significance(table, "Old", "BLEU", "Base"),
           v.paper_significance({"rows": {}, "marks_unknown": True}, "New", "BLEU", "Base"))
    if got != (True, False, None):
        failures.append(f"paper_significance: {got}")
    one = v.tally_line({v.AGREES: 1})
    if v.parse_tally(one) != {v.AGREES: 1} or "1 comparison with" not in one:
        failures.append(f"singular tally: {one}")
    for f in failures:
        print("FAIL:", f)
    print(f"verdict rule: {len(HAND_TABLE)} hand cases, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
