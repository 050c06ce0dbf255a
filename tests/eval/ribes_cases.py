"""What the two RIBES reference checks share: reading the WMT22 outputs, RIBES.py's tokenisation,
running synmt-score on a pair of files, and counting the checks.

check_ribes_vs_nltk.py and check_ribes_vs_ribes_py.py compare synmt-score with different references
on the same data; one reader and one tally keep the two from drifting apart (a tokenisation that
differs between them would make their sentence counts disagree for no reason of the metric).
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile

WMT22 = "eval/wmt22/generaltest2022"


def wmt22_case(data, direction, system):
    """The (hypothesis, reference) paths of one WMT22 system output, e.g. ('de-en', 'Online-B')."""
    tgt = direction.split("-")[1]
    w = f"{data}/{WMT22}"
    return f"{w}.{direction}.hyp.{system}.{tgt}.gz", f"{w}.{direction}.ref.A.{tgt}.gz"


def read(path):
    if not os.path.isfile(path):
        raise FileNotFoundError(f"missing input {path}")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def words(line):  # RIBES.py's Corpus: strip, collapse whitespace, lower-case
    return line.lower().split()


def non_empty_pairs(hyps, refs):
    """The pairs whose hypothesis and reference both have a word. RIBES.py scores a sentence with an
    empty side as 0 or leaves it out (-z); both are edge cases of the file format, not of the metric."""
    keep = [i for i in range(len(refs)) if words(refs[i]) and words(hyps[i])]
    return [hyps[i] for i in keep], [refs[i] for i in keep]


def has_repeated_aligned_word(hyp, ref):
    """A hypothesis word found in the reference that occurs more than once in either: its alignment
    is decided by the aligner's context search, where RIBES.py and NLTK differ."""
    return any(w in ref and (ref.count(w) > 1 or hyp.count(w) > 1) for w in hyp)


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def synmt_ribes(score, hyp_path, ref_path, sentence=False):
    """synmt-score ribes's JSON: {'score': corpus, 'sentences': [...] when sentence}."""
    cmd = [score, "ribes", "-r", ref_path] + (["--sentence"] if sentence else []) + ["--format", "json", hyp_path]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def scored_cases(score, cases):
    """For each (hypothesis, reference) case: its non-empty pairs, written to files in a temporary
    folder, and synmt-score's sentence-level RIBES of them. Yields (case's hypothesis path, hyps,
    refs, synmt-score's JSON, hypothesis file, reference file); the files are rewritten for the next case."""
    with tempfile.TemporaryDirectory() as tmp:
        for hyp_path, ref_path in cases:
            hyps, refs = non_empty_pairs(read(hyp_path), read(ref_path))
            hp, rp = f"{tmp}/hyp", f"{tmp}/ref"
            write_lines(hp, hyps)
            write_lines(rp, refs)
            yield hyp_path, hyps, refs, synmt_ribes(score, hp, rp, sentence=True), hp, rp


class Tally:
    """Counts named checks, printing each mismatch; `exit_code()` after the summary line."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, label, ok, detail):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"MISMATCH {label}: {detail}")

    def exit_code(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def run_check(main):
    """Exits with main()'s code; a missing input is one FAILED line naming the file (rc 1), the way
    the other reference checks report it, not a traceback."""
    try:
        sys.exit(main())
    except FileNotFoundError as e:
        print(f"FAILED: {e}")
        sys.exit(1)
