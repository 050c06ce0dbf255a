#!/usr/bin/env python3
"""Where a model's latent heads point: for an analysis dump of word-level head distributions
(synmt-translate --teacher-forced --dump heads: row i is word i's distribution over the words,
p(ROOT) on the diagonal, as LGP-NMT dumps it), the share of words whose most likely head is ROOT,
the sentence's first word, the previous word, the next word, or another word, then (overlapping
those) the share headed by the sentence's last word, and the mean entropy of the rows (nats per
word). Latent-graph dumps (--tensor graph, sub-word tokens, no ROOT: a zero diagonal) read the same. Sentences of fewer than 3 words are left out (there every head is
first, previous or next). Also the mean distance (in positions) from a word to its most likely head
other than ROOT, over all such words and over those whose head is at neither end of the sentence:
a model whose heads pile up on the first or last token (a BiLSTM's two summaries sit there) has a
near-chance mean distance that says nothing about how far its other heads reach.

usage: scripts/analysis/head_choices.py DUMP.h5 [DUMP.h5 ...]   (one line per dump)
       scripts/analysis/head_choices.py --conllu TREES.conllu [...]
With --conllu the inputs are trees (the pipeline's induced trees, systems/<run>/trees.<split>.conllu,
or a gold treebank for reference): the same shares of the words' heads, plus the share of words
headed by the sentence's last word and by a word whose UPOS is PUNCT (a hub check for trees).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipeline", "scripts", "plots"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipeline", "scripts"))
import conllu_words  # noqa: E402  (the pipeline's CoNLL-U reader)
from script_io import InputError  # noqa: E402
import ragged_h5  # noqa: E402  (the layout-checked reader of synmt's ragged HDF5 arrays)

KINDS = ("ROOT", "first word", "previous", "next", "other")


def kind_of(head, word):
    """head and word count from 1 (head 0 = ROOT); the first match wins, as for the dumps."""
    return "ROOT" if head == 0 else "first word" if head == 1 else "previous" if head == word - 1 else "next" if head == word + 1 else "other"


def tree_choices(path):
    """Shares over the words of sentences of 3 or more words: KINDS, then 'last word' and 'PUNCT'."""
    counts = dict.fromkeys(KINDS + ("last word", "PUNCT"), 0)
    total = 0
    for number, words in enumerate(conllu_words.sentences(path, field=(6, 3)), 1):  # (HEAD, UPOS) of each word
        n = len(words)
        if n < 3:
            continue
        upos = [u for _, u in words]
        for word, (h, _) in enumerate(words, 1):
            if not h.isdigit() or int(h) > n:
                raise SystemExit(f"{path}: sentence {number} (of {n} words), word {word}, has the head '{h}'")
            h = int(h)
            counts[kind_of(h, word)] += 1
            counts["last word"] += h == n
            counts["PUNCT"] += h > 0 and upos[h - 1] == "PUNCT"
            total += 1
    return {k: v / total for k, v in counts.items()}, total


def head_choices(path, tensor="heads"):
    try:
        matrices = ragged_h5.read_blocks(path, tensor, rank=2)
    except InputError as e:
        raise SystemExit(str(e)) from None
    counts = dict.fromkeys(KINDS, 0)
    last = 0  # words whose most likely head is the sentence's last (a hub check, as for trees)
    entropies = []
    distances, inner = [], []  # to the most likely head other than ROOT; those at neither end
    for s, m in enumerate(matrices):
        rows, cols = m.shape
        if rows != cols:
            raise SystemExit(f"{path}: sentence {s} has a {rows} x {cols} '{tensor}' matrix; expected words x words")
        if rows < 3:
            continue
        for i, h in enumerate(m.argmax(1)):  # 0-based, p(ROOT) on the diagonal
            counts[kind_of(0 if h == i else h + 1, i + 1)] += 1
            last += h != i and h == rows - 1
            if h != i:
                distances.append(abs(int(h) - i))
                if 0 < h < rows - 1:
                    inner.append(abs(int(h) - i))
        p = np.clip(m, 1e-12, 1.0)
        entropies.append(float(-(p * np.log(p)).sum(1).mean()))
    total = sum(counts.values())
    shares = {k: v / total for k, v in counts.items()}
    shares["last word"] = last / total  # overlaps the kinds above (the last word is also 'next' or 'other')
    reach = {"distance": float(np.mean(distances)) if distances else float("nan"),
             "inner share": len(inner) / total,
             "inner distance": float(np.mean(inner)) if inner else float("nan")}
    return shares, float(np.mean(entropies)), total, reach


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dumps", nargs="+")
    ap.add_argument("--tensor", default="heads")
    ap.add_argument("--conllu", action="store_true", help="the inputs are trees in CoNLL-U")
    a = ap.parse_args()
    for path in a.dumps:
        if a.conllu:
            shares, words = tree_choices(path)
            print(f"{path}: {words} words; head: " + ", ".join(f"{k} {100 * v:.1f}%" for k, v in shares.items()))
            continue
        shares, entropy, words, reach = head_choices(path, a.tensor)
        print(f"{path}: {words} words; most likely head: " + ", ".join(f"{k} {100 * v:.1f}%" for k, v in shares.items())
              + f"; entropy {entropy:.2f} nats/word; distance to it {reach['distance']:.2f}; heads at neither end: "
              + f"{100 * reach['inner share']:.1f}% of the words, distance {reach['inner distance']:.2f}")


if __name__ == "__main__":
    main()
