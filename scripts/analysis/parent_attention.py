#!/usr/bin/env python3
"""How well each encoder self-attention head of a layer points at the source tokens' dependency
parents: the check of +SISA's parent-attention loss (its head is trained towards each token's
parent, so it should point there; the same head trained without the loss, or any head of a plain
Transformer, shows what translation alone teaches).

Inputs: an analysis dump of one encoder layer's attention, teacher-forced on a binarised split
(`synmt-translate --teacher-forced --dump encoder_attention_L`, the pipeline's analysis_dump rule:
results/<exp>/analysis/<run>/<split>.encoder_attention_L.h5, one heads x tokens x tokens array per
sentence), and that split's dataset (work/<exp>/<pair>/data/<split>.h5), whose src_parent_first is
the target +SISA trains towards: the first sub-word of the token's parent word, the root word's
tokens pointing at the root's own first sub-word, as the parser (not a gold treebank) attached them.

Per head, over all source tokens:
  first sub-word  share of tokens whose most attended token is the parent's first sub-word itself
                  (what +SISA's loss asks)
  parent word     share whose most attended token is any sub-word of the parent word (Pascal's
                  Gaussian is centred inside that word: on the middle of its sub-words)
  mass            mean attention on the parent word's sub-words
  tied maximum    share of tokens whose largest attention weight is shared by several keys; the
                  "most attended token" is then the first of them, a miss unless it is the parent:
                  the shares above are conservative there. (Pascal multiplies the scores by a
                  Gaussian, so far keys' scores go to about 0 and tie wherever the scores near the
                  parent are negative.)
and reference lines that need no model: the two shares a fixed positional head would get,
predicting the previous token, the next token, or the token itself (a root's first sub-word is its
own parent), so that a head's share reads against chance.

usage: scripts/analysis/parent_attention.py DUMP.h5 DATA.h5 [--tensor encoder_attention_0]
  -> a Markdown table on stdout
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipeline", "scripts", "plots"))
from script_io import InputError  # noqa: E402
import ragged_h5  # noqa: E402  (the layout-checked reader of synmt's ragged HDF5 arrays)


def read_dataset(path):
    """Per sentence: (parent_first, word) int arrays over its source tokens."""
    try:
        with ragged_h5.open_h5(path) as f:
            for key in ("src_offsets", "src_parent_first", "src_word"):
                if key not in f:
                    raise SystemExit(f"{path}: no '{key}' (a dataset binarised without the source parse?)")
            parents, offsets, _ = ragged_h5.ragged(f, path, "src_parent_first", "src_offsets")
            words, _, _ = ragged_h5.ragged(f, path, "src_word", "src_offsets")
            parents, words = parents[()], words[()]
    except InputError as e:
        raise SystemExit(str(e)) from None
    return [(parents[a:b], words[a:b]) for a, b in zip(offsets[:-1], offsets[1:])]


def read_dump(path, tensor):
    """Per sentence: a heads x tokens x tokens array."""
    try:
        return ragged_h5.read_blocks(path, tensor, rank=3)
    except InputError as e:
        raise SystemExit(str(e)) from None


# positional predictions that need no model, as references: the predicted parent of token i
POSITIONAL = {"previous token": lambda i: i - 1, "next token": lambda i: i + 1, "the token itself": lambda i: i}


def parent_scores(dump, data, dump_path="dump", data_path="data"):
    """{head: {"first", "word", "mass", "tied"}} (shares over the tokens: the most attended token is
    the parent's first sub-word / a sub-word of the parent word; the mean attention on the parent
    word; the share of tokens whose maximum is tied), {reference: {"first", "word"}} for the
    POSITIONAL predictions, and the token count."""
    if len(dump) != len(data):
        raise SystemExit(f"{dump_path}: {len(dump)} sentences, {data_path}: {len(data)}: not a dump of this split")
    heads = dump[0].shape[0] if dump else 0
    sums = {k: np.zeros(heads) for k in ("first", "word", "mass", "tied")}
    refs = {name: {"first": 0, "word": 0} for name in POSITIONAL}
    tokens = 0
    for s, (m, (parents, words)) in enumerate(zip(dump, data)):
        n = len(parents)
        if m.shape != (heads, n, n):
            raise SystemExit(f"{dump_path}: sentence {s} has a {' x '.join(map(str, m.shape))} attention; "
                             f"{data_path} gives {n} source tokens ({heads} heads expected)")
        if n and not np.allclose(m.sum(2), 1.0, atol=1e-3):
            raise SystemExit(f"{dump_path}: sentence {s}: the attention rows do not sum to 1 over the last axis "
                             "(expected heads x queries x keys, each query's distribution over the keys)")
        if n and (parents.min() < 0 or parents.max() >= n):
            raise SystemExit(f"{data_path}: sentence {s} has a parent outside its {n} tokens")
        idx = np.arange(n)
        top = m.argmax(2)                                   # heads x tokens: the first of tied maxima
        parent_word = words[parents]                        # the parent word of each token
        on_parent = words[None, :] == parent_word[:, None]  # tokens x tokens: j is a sub-word of i's parent
        sums["first"] += (top == parents).sum(1)
        sums["word"] += on_parent[idx[None, :], top].sum(1)
        sums["mass"] += (m * on_parent[None]).sum((1, 2))
        sums["tied"] += ((m == m.max(2, keepdims=True)).sum(2) > 1).sum(1)
        for name, predict in POSITIONAL.items():
            guess = predict(idx)
            inside = (guess >= 0) & (guess < n)
            refs[name]["first"] += int((guess[inside] == parents[inside]).sum())
            refs[name]["word"] += int(on_parent[idx[inside], guess[inside]].sum())
        tokens += n
    if not tokens:
        raise SystemExit(f"{data_path}: no source tokens")
    per_head = {h: {k: v[h] / tokens for k, v in sums.items()} for h in range(heads)}
    return per_head, {name: {k: v / tokens for k, v in r.items()} for name, r in refs.items()}, tokens


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", help="analysis dump of one encoder layer's attention")
    parser.add_argument("data", help="the split's binarised dataset (the dump's --data)")
    parser.add_argument("--tensor", default="encoder_attention_0", help="the dumped tensor (default encoder_attention_0)")
    a = parser.parse_args(argv)
    per_head, references, tokens = parent_scores(read_dump(a.dump, a.tensor), read_dataset(a.data), a.dump, a.data)
    print(f"{a.tensor}, {tokens} source tokens; the most attended token of each:\n")
    print("| head | first sub-word of the parent | any sub-word of the parent | mean mass on the parent | tied maximum |")
    print("|---|---|---|---|---|")
    for h, r in per_head.items():
        print(f"| {h} | {r['first']:.3f} | {r['word']:.3f} | {r['mass']:.3f} | {r['tied']:.3f} |")
    for name, r in references.items():
        print(f"| ({name}) | {r['first']:.3f} | {r['word']:.3f} |  |  |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
