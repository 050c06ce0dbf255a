"""synmt-score ribes against NLTK's ribes_score on real system outputs (WMT22 De-En, En-De).

RIBES.py 1.03.1 and NLTK differ by definition in two places (docs/evaluation.md):
  1. Kendall's tau: RIBES.py counts every ascending pair of aligned reference positions; NLTK only
     pairs inside runs of consecutive positions (+1 steps).
  2. Alignment of repeated words: RIBES.py tries the left context before the right, NLTK the right
     first (and NLTK's n-gram lists stop at the reference length).
So the per-sentence scores must agree (to 1e-9) exactly on the sentences where neither matters:
every hypothesis word found in the reference is unique in both, and every ascending pair lies inside
a +1 run. The test checks those, and their corpus score (synmt-score run on them alone against the
mean of NLTK's scores), requires that they are a real share of the data, and prints how many
sentences fall under each difference. The sentences outside that share are compared with RIBES.py
itself by check_ribes_vs_ribes_py.py, which runs only where SYNMT_RIBES_PY names a copy of it. Prints 'N passed, N failed'.
"""
import argparse

from nltk.translate.ribes_score import sentence_ribes, word_rank_alignment

from ribes_cases import Tally, has_repeated_aligned_word, run_check, scored_cases, synmt_ribes, wmt22_case, words, write_lines


def ascending_pairs(order):
    return sum(1 for i in range(len(order)) for j in range(i + 1, len(order)) if order[i] < order[j])


def run_pairs(order):
    total, run = 0, 1
    for a, b in zip(order, order[1:]):
        if b == a + 1:
            run += 1
        else:
            total += run * (run - 1) // 2
            run = 1
    return total + run * (run - 1) // 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--score", required=True)
    ap.add_argument("--data", required=True)
    args = ap.parse_args()
    cases = [wmt22_case(args.data, "de-en", "Online-B"), wmt22_case(args.data, "en-de", "Online-W")]
    tally = Tally()
    for hyp_path, hyps, refs, scored, hp, rp in scored_cases(args.score, cases):
        ours = scored["sentences"]
        comparable = context = kendall = 0
        bad, kept = [], []
        for i, (h, r) in enumerate(zip(hyps, refs)):
            hw, rw = words(h), words(r)
            if has_repeated_aligned_word(hw, rw):
                context += 1
                continue
            order = word_rank_alignment(rw, hw)
            if ascending_pairs(order) != run_pairs(order):
                kendall += 1
                continue
            if len(order) == 1 and len(rw) == 1:
                continue  # RIBES.py's special case (nkt = 1); NLTK has tau = -1 there
            comparable += 1
            theirs = sentence_ribes([rw], hw)
            kept.append((i, max(theirs, 0.0)))
            if abs(ours[i] - max(theirs, 0.0)) > 1e-9:
                bad.append((i, ours[i], theirs))
        # the corpus score of the comparable sentences alone (synmt-score's own aggregation, run
        # on them as a corpus) equals the mean of NLTK's sentence scores
        write_lines(hp, [hyps[i] for i, _ in kept])
        write_lines(rp, [refs[i] for i, _ in kept])
        corpus = synmt_ribes(args.score, hp, rp)["score"]
        nltk_corpus = sum(v for _, v in kept) / max(len(kept), 1)
        name = hyp_path.split("/")[-1]
        print(f"{name}: {len(hyps)} sentences; comparable {comparable}, differ by alignment order {context}, "
              f"by Kendall definition {kendall}")
        ok_share = comparable >= 0.03 * len(hyps) and comparable >= 30
        tally.check(f"{name} comparable sentences agree", not bad, f"{bad[:3]}")
        tally.check(f"{name} corpus score of the comparable sentences", abs(corpus - nltk_corpus) < 1e-9,
                    f"{corpus} vs {nltk_corpus}")
        tally.check(f"{name} enough comparable sentences", ok_share, f"{comparable}")
    return tally.exit_code()


if __name__ == "__main__":
    run_check(main)
