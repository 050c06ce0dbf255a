"""The reproduction verdict of one comparison a paper makes (a row against its comparison row, in one
column), computed from the data: the paper's difference and whether the paper marks it significant,
the measured difference and whether the paired bootstrap finds it significant here.

    agrees            same sign, and significant here where the paper's was (a paper difference
                      without a significance mark needs only the sign; where the paper marks its
                      table but the marks are unknown, significance here is needed too)
    not significant   the measured difference is not significant, and the sign alone cannot agree:
                      opposite sign, or same sign where the paper's difference was (or may have
                      been) significant
    contradicts       significant here, with the opposite sign to the paper's
    same direction (untested) / opposite direction (untested)
                      a statistic without a significance test (e.g. a head distance): the sign only

A paper difference of exactly zero agrees with a measured difference that is not significant and is
contradicted by a significant one. Imported by make_table.py and make_scoreboard.py; tested by
tests/pipeline/test_verdict.py on a hand table.
"""
import re

AGREES = "agrees"
NOT_SIGNIFICANT = "not significant"
CONTRADICTS = "contradicts"
SAME_UNTESTED = "same direction (untested)"
OPPOSITE_UNTESTED = "opposite direction (untested)"
ORDER = [AGREES, NOT_SIGNIFICANT, CONTRADICTS, SAME_UNTESTED, OPPOSITE_UNTESTED]

TALLY_PREFIX = "Reproduction tally"


def sign(x):
    return (x > 0) - (x < 0)


def verdict(paper_delta, paper_significant, measured_delta, measured_significant, conflicting=False):
    """paper_significant: True or False where the paper's marks were recorded for this cell's
    table, None where the paper marks the table but its marks are unknown (`marks_unknown`): the
    sign alone agrees only with an unmarked paper difference, so an unknown one needs a
    significant result here as a marked one does (a same-sign difference within noise is no
    evidence for a claim the paper may have backed with its test);
    measured_significant: bool, or None when the statistic has no significance test; conflicting:
    the only test there is (a one-run row against the seed group's run of the same seed) is
    significant in the direction opposite to the means' difference, so the measurement neither
    agrees nor contradicts: not significant, whatever the sign of the means."""
    if paper_delta is None or measured_delta is None:
        return None
    if measured_significant is None:
        return SAME_UNTESTED if sign(paper_delta) == sign(measured_delta) else OPPOSITE_UNTESTED
    if conflicting:
        return NOT_SIGNIFICANT
    if sign(paper_delta) == 0:
        return CONTRADICTS if measured_significant else AGREES
    if sign(paper_delta) == sign(measured_delta) and (measured_significant or paper_significant is False):
        return AGREES
    if sign(paper_delta) == -sign(measured_delta) and measured_significant:
        return CONTRADICTS
    return NOT_SIGNIFICANT


def paper_marks(paper, row_key, column, base_key):
    """The paper's own significance marks in its cell (row_key, column) that test against the paper
    row base_key, by the paper table's `mark_against` ({paper row: [mark at p < 0.05, mark at
    p < 0.01]}): a mark the paper gave against another row says nothing of this comparison (a
    check that compares SA-NMT shared with FA-NMT shared must not read the paper's ‡ against NMT)."""
    cell = ((paper.get("marks") or {}).get(row_key) or {}).get(column, "")
    own = (paper.get("mark_against") or {}).get(base_key, [])
    return "".join(m for m in own if m in cell)


def paper_significance(paper, row_key, column, base_key):
    """Whether the paper marks the comparison (row_key against base_key, in column) significant:
    True or False by its recorded marks; None for a table whose marks the paper prints but the
    transcription could not read (`marks_unknown: true` in pipeline/papers/*.yaml)."""
    if paper.get("marks_unknown"):
        return None
    return bool(paper_marks(paper, row_key, column, base_key))


def mark_legend(paper):
    """'† p < 0.05, ‡ p < 0.01 against NMT; ...' of the paper's own marks, or ''."""
    return "; ".join(f"{m[0]} p < 0.05, {m[1]} p < 0.01 against {row}" for row, m in (paper.get("mark_against") or {}).items())


def signed(x, decimals):
    return f"{x:+.{decimals}f}"


def verdict_text(comparison_row, paper_delta, paper_marks, measured_delta, measured_marks, result, decimals):
    """The verdict cell of one comparison: 'vs NMT: paper +0.82‡ · here +1.37‡ · agrees'."""
    return (f"vs {comparison_row}: paper {signed(paper_delta, 2)}{paper_marks} · here {signed(measured_delta, decimals)}"
            f"{measured_marks} · {result}")


def tally(verdicts):
    """{verdict: count} over a list of verdict strings (None left out)."""
    counts = {}
    for v in verdicts:
        if v is not None:
            counts[v] = counts.get(v, 0) + 1
    return counts


def tally_line(counts):
    """One line, machine-readable by parse_tally: 'Reproduction tally: 6 comparisons with a paper
    difference: 3 agrees, 2 not significant, 1 contradicts.'"""
    total = sum(counts.values())
    if total == 0:
        return f"{TALLY_PREFIX}: no comparison of the paper's has both its numbers here."
    parts = ", ".join(f"{counts[v]} {v}" for v in ORDER if counts.get(v))
    return f"{TALLY_PREFIX}: {total} comparison{'s' if total != 1 else ''} with a paper difference: {parts}."


_TALLY_RE = re.compile(r"^" + TALLY_PREFIX + r": (\d+) comparisons? with a paper difference: (.*)\.$")


def parse_tally(line):
    """The counts of a tally_line, or None when the line is not one (or tallies nothing)."""
    m = _TALLY_RE.match(line.strip())
    if not m:
        return None
    counts = {}
    for part in m.group(2).split(", "):
        n, name = part.split(" ", 1)
        if name not in ORDER:
            raise ValueError(f"unknown verdict '{name}' in: {line}")
        counts[name] = int(n)
    if sum(counts.values()) != int(m.group(1)):
        raise ValueError(f"tally does not add up: {line}")
    return counts
