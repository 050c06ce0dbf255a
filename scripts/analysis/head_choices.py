#!/usr/bin/env python3
"""Where a model's latent heads point: for an analysis dump of word-level head distributions
(synmt-translate --teacher-forced --dump heads: row i is word i's distribution over the words,
p(ROOT) on the diagonal, as LGP-NMT dumps it), the share of words whose most likely head is ROOT,
the sentence's first word, the previous word, the next word, or another word, and the mean entropy
of the rows (nats per word). Sentences of fewer than 3 words are left out (there every head is
first, previous or next).

usage: scripts/analysis/head_choices.py DUMP.h5 [DUMP.h5 ...]   (one line per dump)
"""
import argparse

import h5py
import numpy as np


def head_choices(path, tensor="heads"):
    with h5py.File(path, "r") as f:
        if tensor not in f:
            raise SystemExit(f"{path}: no tensor '{tensor}' (dumped: {', '.join(k for k in f if not k.endswith(('_offsets', '_shapes')))})")
        values, offsets = f[tensor][:], f[f"{tensor}_offsets"][:]
        shapes = f[f"{tensor}_shapes"][:].reshape(-1, 2)
    counts = dict.fromkeys(("ROOT", "first word", "previous", "next", "other"), 0)
    entropies = []
    for s in range(len(offsets) - 1):
        rows, cols = shapes[s]
        if rows != cols:
            raise SystemExit(f"{path}: sentence {s} has a {rows} x {cols} '{tensor}' matrix; expected words x words")
        if rows < 3:
            continue
        m = values[offsets[s]:offsets[s + 1]].reshape(rows, cols)
        for i, h in enumerate(m.argmax(1)):
            kind = "ROOT" if h == i else "first word" if h == 0 else "previous" if h == i - 1 else "next" if h == i + 1 else "other"
            counts[kind] += 1
        p = np.clip(m, 1e-12, 1.0)
        entropies.append(float(-(p * np.log(p)).sum(1).mean()))
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}, float(np.mean(entropies)), total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dumps", nargs="+")
    ap.add_argument("--tensor", default="heads")
    a = ap.parse_args()
    for path in a.dumps:
        shares, entropy, words = head_choices(path, a.tensor)
        print(f"{path}: {words} words; most likely head: " + ", ".join(f"{k} {100 * v:.1f}%" for k, v in shares.items())
              + f"; entropy {entropy:.2f} nats/word")


if __name__ == "__main__":
    main()
