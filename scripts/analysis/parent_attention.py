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
  first sub-word  share of tokens whose most attended token is the target itself (what the loss asks)
  parent word     share whose most attended token is any sub-word of the parent word
  mass            mean attention on the parent word's sub-words
and two reference lines that need no model: the share the previous token / the next token would get
as the prediction (a positional head's score), so that a head's share reads against chance.

usage: scripts/analysis/parent_attention.py DUMP.h5 DATA.h5 [--tensor encoder_attention_0]
  -> a Markdown table on stdout
"""
import argparse
import sys

import h5py
import numpy as np


def read_dataset(path):
    """Per sentence: (parent_first, word) int arrays over its source tokens."""
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise SystemExit(f"{path}: not an HDF5 file ({e})") from None
    with f:
        for key in ("src_offsets", "src_parent_first", "src_word"):
            if key not in f:
                raise SystemExit(f"{path}: no '{key}' (a dataset binarised without the source parse?)")
        offsets, parents, words = f["src_offsets"][:], f["src_parent_first"][:], f["src_word"][:]
    return [(parents[a:b], words[a:b]) for a, b in zip(offsets[:-1], offsets[1:])]


def read_dump(path, tensor):
    """Per sentence: a heads x tokens x tokens array."""
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise SystemExit(f"{path}: not an HDF5 file ({e})") from None
    with f:
        if tensor not in f:
            raise SystemExit(f"{path}: no tensor '{tensor}' (dumped: {', '.join(k for k in f if not k.endswith(('_offsets', '_shapes', '_axes')))})")
        values, offsets = f[tensor][:], f[f"{tensor}_offsets"][:]
        shapes = f[f"{tensor}_shapes"][:].reshape(len(offsets) - 1, -1)
    if shapes.shape[1] != 3:
        raise SystemExit(f"{path}: '{tensor}' has {shapes.shape[1]} axes per sentence; expected heads x src x src")
    return [values[offsets[s]:offsets[s + 1]].reshape(shapes[s]) for s in range(len(offsets) - 1)]


def parent_scores(dump, data, dump_path="dump", data_path="data"):
    """{head: (first sub-word share, parent word share, mean mass)}, the positional references
    {"previous token": share, "next token": share}, and the token count."""
    if len(dump) != len(data):
        raise SystemExit(f"{dump_path}: {len(dump)} sentences, {data_path}: {len(data)}: not a dump of this split")
    heads = dump[0].shape[0] if dump else 0
    first = np.zeros(heads)
    word = np.zeros(heads)
    mass = np.zeros(heads)
    previous = following = tokens = 0
    for s, (m, (parents, words)) in enumerate(zip(dump, data)):
        n = len(parents)
        if m.shape != (heads, n, n):
            raise SystemExit(f"{dump_path}: sentence {s} has a {' x '.join(map(str, m.shape))} attention; "
                             f"{data_path} gives {n} source tokens ({heads} heads expected)")
        if n and (parents.min() < 0 or parents.max() >= n):
            raise SystemExit(f"{data_path}: sentence {s} has a parent outside its {n} tokens")
        top = m.argmax(2)                                   # heads x tokens
        first += (top == parents).sum(1)
        parent_word = words[parents]                        # the parent word of each token
        on_parent = words[None, :] == parent_word[:, None]  # tokens x tokens: j is a sub-word of i's parent
        word += on_parent[np.arange(n)[None, :], top].sum(1)
        mass += (m * on_parent[None]).sum((1, 2))
        idx = np.arange(n)
        previous += int((parents == idx - 1).sum())
        following += int((parents == idx + 1).sum())
        tokens += n
    if not tokens:
        raise SystemExit(f"{data_path}: no source tokens")
    per_head = {h: (first[h] / tokens, word[h] / tokens, mass[h] / tokens) for h in range(heads)}
    return per_head, {"previous token": previous / tokens, "next token": following / tokens}, tokens


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", help="analysis dump of one encoder layer's attention")
    parser.add_argument("data", help="the split's binarised dataset (the dump's --data)")
    parser.add_argument("--tensor", default="encoder_attention_0", help="the dumped tensor (default encoder_attention_0)")
    a = parser.parse_args(argv)
    per_head, references, tokens = parent_scores(read_dump(a.dump, a.tensor), read_dataset(a.data), a.dump, a.data)
    print(f"{a.tensor}, {tokens} source tokens; the most attended token of each:\n")
    print("| head | first sub-word of the parent | any sub-word of the parent | mean mass on the parent |")
    print("|---|---|---|---|")
    for h, (f, w, m) in per_head.items():
        print(f"| {h} | {f:.3f} | {w:.3f} | {m:.3f} |")
    for name, share in references.items():
        print(f"| ({name}) | {share:.3f} |  |  |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
