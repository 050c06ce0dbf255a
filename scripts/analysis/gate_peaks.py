#!/usr/bin/env python3
"""Which target words SA-NMT's syntax gate favours, measured against the rates chance would give
(Tran & Bisk 2018, §6: the gate norm z_t = ||sigmoid(W_g h_t)|| peaks "disproportionately" on verbs).

The pipeline's gate_pos table counts, per sentence, the gold UPOS of the word holding the highest z_t
over all target pieces. A word split into many sub-word pieces has more chances to hold that peak
than a word of one piece, so a count of peaks alone cannot say whether the gate prefers a part of
speech. For a teacher-forced analysis dump (synmt-translate --teacher-forced --dump gate_norm) and
the gold CoNLL-U of the same target sentences, this prints per UPOS:
  words %        share of the words (the peak share if the peak fell on a random word)
  pieces %       share of the sub-word pieces (the peak share if it fell on a random piece)
  peak %         share of the sentences whose highest piece z_t lies in a word of this UPOS
  peak/pieces    over-representation of the peaks against the pieces' chance rate
  mean-peak %    the same peak share when each word scores the mean z_t of its pieces (no advantage
                 for being split)
  peak after word 1 %   the peak share over the pieces after the sentence's first word (a
                 decoder's first step, read from <s> alone, can hold every sentence's peak)
  z (sd)         the mean within-sentence standardised word score (mean z_t of the word's pieces,
                 minus the sentence's mean over words, over the sentence's sd): > 0 above the
                 sentence's average word
and the share of peaks in the first, middle and last third of the sentence and on its first words.

usage: scripts/analysis/gate_peaks.py DUMP.h5 TARGET.sub GOLD.conllu[.gz] [--subwords bpe|spm] [--min-share 1.0]
"""
import argparse
import os
import sys
from collections import Counter

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipeline", "scripts", "plots"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipeline", "scripts"))
import conllu_words  # noqa: E402  (the pipeline's CoNLL-U reader)
from script_io import InputError  # noqa: E402
import ragged_h5  # noqa: E402  (the layout-checked reader of synmt's ragged HDF5 arrays)


def read_upos(path):
    """Per sentence, the UPOS of each syntactic word (multiword-token ranges skipped: the tokenised
    text carries their words, as synmt-trees gate-pos reads them)."""
    return list(conllu_words.sentences(path, field=3))


def word_spans(line, subwords):
    """[first, last] piece of each word of one sub-word-segmented line: BPE marks a piece that
    continues into the next with a trailing '@@', SentencePiece a piece that starts a word with '▁'."""
    pieces = line.split()
    spans, start = [], 0
    for i, p in enumerate(pieces):
        if subwords == "bpe":
            if not p.endswith("@@"):
                spans.append((start, i))
                start = i + 1
        else:
            if p.startswith("\u2581") and i > 0:
                spans.append((start, i - 1))
                start = i
    if subwords != "bpe" and pieces:
        spans.append((start, len(pieces) - 1))
    return spans


def read_dump(path, target, subwords, tensor="gate_norm"):
    try:
        norms = ragged_h5.read_blocks(path, tensor, rank=1)
    except InputError as e:
        raise SystemExit(str(e)) from None
    with open(target, encoding="utf-8") as t:
        lines = t.read().splitlines()
    if len(lines) != len(norms):
        raise SystemExit(f"{target}: {len(lines)} lines, the dump {path} has {len(norms)} sentences")
    for s, (line, z) in enumerate(zip(lines, norms)):
        spans = word_spans(line, subwords)
        if len(z) != len(line.split()) + 1:
            raise SystemExit(f"{target}:{s + 1}: {len(line.split())} pieces, the dump has {len(z) - 1} steps before </s>")
        yield s, z, spans


def analyse(dump, target, subwords, gold):
    upos = read_upos(gold)
    words, pieces, peaks, mean_peaks, later_peaks = Counter(), Counter(), Counter(), Counter(), Counter()
    zsum, zn, thirds, first_words = Counter(), Counter(), Counter(), Counter()
    n_sent = 0
    read = 0  # sentences of the dump, short ones included: the gold file must have exactly as many
    for s, z, spans in read_dump(dump, target, subwords):
        read += 1
        if s >= len(upos):
            raise SystemExit(f"{dump}: sentence {s + 1} has no gold sentence in {gold} ({len(upos)} there)")
        tags = upos[s]
        if len(tags) != len(spans):
            raise SystemExit(f"{target}:{s + 1}: {len(spans)} words, sentence {s + 1} of {gold} has {len(tags)}")
        if len(tags) < 2:
            continue
        last_piece = spans[-1][1]
        z = z[: last_piece + 1]  # the </s> step is not a word's
        piece_word = np.empty(last_piece + 1, dtype=int)
        for w, (a, b) in enumerate(spans):
            piece_word[a:b + 1] = w
        word_mean = np.array([z[a:b + 1].mean() for a, b in spans])
        for w, (a, b) in enumerate(spans):
            words[tags[w]] += 1
            pieces[tags[w]] += b - a + 1
        peak_word = piece_word[int(z.argmax())]
        peaks[tags[peak_word]] += 1
        mean_peaks[tags[int(word_mean.argmax())]] += 1
        rest = z[spans[1][0]:]  # every piece after the first word
        later_peaks[tags[piece_word[spans[1][0] + int(rest.argmax())]]] += 1
        thirds[min(2, 3 * peak_word // len(tags))] += 1
        first_words[min(int(peak_word), 3)] += 1
        sd = word_mean.std()
        if sd > 0:
            standard = (word_mean - word_mean.mean()) / sd
            for w, t in enumerate(tags):
                zsum[t] += standard[w]
                zn[t] += 1
        n_sent += 1
    if read != len(upos):
        raise SystemExit(f"{gold}: {len(upos)} sentences, the dump {dump} and {target} have {read}")
    return dict(words=words, pieces=pieces, peaks=peaks, mean_peaks=mean_peaks, later_peaks=later_peaks, zsum=zsum, zn=zn, thirds=thirds, first_words=first_words, sentences=n_sent)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dump")
    ap.add_argument("target", help="the sub-word-segmented target text the dump was made from")
    ap.add_argument("gold")
    ap.add_argument("--subwords", choices=("bpe", "spm"), default="bpe")
    ap.add_argument("--min-share", type=float, default=1.0, help="list UPOS with at least this %% of the words")
    a = ap.parse_args()
    r = analyse(a.dump, a.target, a.subwords, a.gold)
    W, P, n = sum(r["words"].values()), sum(r["pieces"].values()), r["sentences"]
    print(f"{a.dump}: {n} sentences, {W} words, {P} pieces")
    print("| UPOS | words % | pieces % | peak % | peak/pieces | mean-peak % | peak after word 1 % | z |")
    print("|---|---|---|---|---|---|---|---|")
    for tag, count in r["words"].most_common():
        if 100 * count / W < a.min_share:
            continue
        pw, pp = 100 * count / W, 100 * r["pieces"][tag] / P
        pk, mp = 100 * r["peaks"][tag] / n, 100 * r["mean_peaks"][tag] / n
        z = r["zsum"][tag] / r["zn"][tag] if r["zn"][tag] else float("nan")
        lp = 100 * r["later_peaks"][tag] / n
        print(f"| {tag} | {pw:.1f} | {pp:.1f} | {pk:.1f} | {pk / pp:.2f} | {mp:.1f} | {lp:.1f} | {z:+.2f} |")
    th, fw = r["thirds"], r["first_words"]
    print("peaks by position: " + ", ".join(f"{name} {100 * th[i] / n:.1f}%" for i, name in enumerate(("first third", "middle third", "last third")))
          + "; on word 1, 2, 3, later: " + ", ".join(f"{100 * fw[i] / n:.1f}%" for i in range(4)))


if __name__ == "__main__":
    main()
