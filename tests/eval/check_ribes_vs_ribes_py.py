"""synmt-score ribes against RIBES.py 1.03.1 itself, sentence by sentence, on real system outputs.

RIBES.py (NTT's script, GPL; not redistributed here) is the reference the papers report RIBES with.
This compares every sentence of WMT22 system outputs with a non-empty hypothesis and reference,
including those where the score depends on RIBES.py's own choices (docs/evaluation.md): which
occurrence a repeated word is aligned to (its left-then-right context search) and its Kendall's tau
over every pair of aligned positions. It reports how many sentences have repeated aligned words, and
fails unless every sentence score and the corpus score agree to RIBES.py's printed precision (6
decimals).

Exit 77 (a skip ctest shows) when no RIBES.py is given: the script is not on PyPI or in Debian, so a
machine that cannot reach its repository cannot run this check. Prints 'N passed, N failed'.
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys

from ribes_cases import Tally, has_repeated_aligned_word, run_check, scored_cases, wmt22_case, words

# RIBES.py as released in version 1.03.1 (github.com/nttcslab-nlp/RIBES, commit 7e76cf2)
RIBES_PY_SHA256 = "d3d3d3d05a0dc23aeb76594106e561e95dda1e495e6076d9973fc0469a44fa81"
SKIP = 77


def ribes_py_scores(ribes_py, ref_path, hyp_path):
    out = subprocess.run([sys.executable, ribes_py, "-s", "-r", ref_path, hyp_path], check=True, capture_output=True,
                         text=True).stdout
    sentences, corpus = {}, None
    for line in out.splitlines():
        if line.startswith("#"):
            continue
        m = re.match(r"^(\S+) alpha=\S+ beta=\S+ (\S+) sentence (\d+)$", line)
        if m:
            sentences[int(m.group(3))] = float(m.group(1))
            continue
        m = re.match(r"^(\S+) alpha=\S+ beta=\S+ (\S+)$", line)
        if m:
            corpus = float(m.group(1))
    return sentences, corpus


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--score", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--ribes-py", default="", help="RIBES.py 1.03.1 (empty: $SYNMT_RIBES_PY)")
    args = ap.parse_args()
    args.ribes_py = args.ribes_py or os.environ.get("SYNMT_RIBES_PY", "")
    if not args.ribes_py or not os.path.isfile(args.ribes_py):
        print("SKIPPED: no RIBES.py 1.03.1 (set SYNMT_RIBES_PY or cmake -DSYNMT_RIBES_PY=PATH to NTT's script)")
        return SKIP
    digest = hashlib.sha256(open(args.ribes_py, "rb").read()).hexdigest()
    if digest != RIBES_PY_SHA256:
        print(f"FAILED: {args.ribes_py} is not RIBES.py 1.03.1 (sha256 {digest})")
        return 1
    cases = [wmt22_case(args.data, "de-en", "Online-B"), wmt22_case(args.data, "de-en", "JDExploreAcademy"),
             wmt22_case(args.data, "en-de", "Online-W"), wmt22_case(args.data, "en-de", "OpenNMT")]
    tally = Tally()
    for hyp_path, hyps, refs, ours, hp, rp in scored_cases(args.score, cases):
        theirs, their_corpus = ribes_py_scores(args.ribes_py, rp, hp)
        repeated = sum(has_repeated_aligned_word(words(h), words(r)) for h, r in zip(hyps, refs))
        bad = [(i, ours["sentences"][i], theirs.get(i)) for i in range(len(hyps))
               if theirs.get(i) is None or abs(ours["sentences"][i] - theirs[i]) > 5.01e-7]
        bad_repeated = sum(has_repeated_aligned_word(words(hyps[i]), words(refs[i])) for i, _, _ in bad)
        corpus_ok = their_corpus is not None and abs(ours["score"] - their_corpus) <= 5.01e-7
        name = hyp_path.split("/")[-1]
        print(f"{name}: {len(hyps)} sentences, {repeated} with repeated aligned words; "
              f"differ from RIBES.py: {len(bad)} ({bad_repeated} of them with repeated words); "
              f"corpus {ours['score']:.6f} vs RIBES.py {their_corpus}")
        tally.check(f"{name} every sentence equals RIBES.py's", not bad, f"{bad[:3]}")
        tally.check(f"{name} corpus score equals RIBES.py's", corpus_ok, f"{ours['score']} vs {their_corpus}")
        tally.check(f"{name} has sentences with repeated aligned words", repeated >= 100, f"{repeated}")
    return tally.exit_code()


if __name__ == "__main__":
    run_check(main)
