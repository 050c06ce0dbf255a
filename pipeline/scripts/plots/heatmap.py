#!/usr/bin/env python3
"""Heat maps of the analysis tensors that `synmt-translate --teacher-forced --dump NAMES --dump-file
F.h5` writes (attention, the SA-NMT head selections phi/beta, gate norms), for looking at what a
model attends to in given sentences, as the papers' attention figures do.

The dump (format synmt-analysis-1, trainer/decode/analysis_dump.h, core/ragged.h) holds per tensor
NAME a ragged float32 array: NAME (the blocks, concatenated), NAME_offsets (int64, sentences + 1),
NAME_shapes (int32, sentences x rank) and the attribute NAME_axes ("tgt src", "src src", "4 src src",
"tgt"); a '/' in NAME is stored as '.'. A leading numeric axis is the attention heads: --head H
(0-based) picks one, otherwise every head gets a panel. One row of panels per sentence (0-based
indices of the dumped split).

The dump stores no tokens. With --data (the binarised split the dump was made from) and the
vocabularies, axes are labelled with the sub-word tokens (a tgt axis: the target, then </s>);
otherwise with positions.

  heatmap.py --dump F.h5 --tensor NAME --sentences 0,3 [--head H] --out PREFIX
             [--data SPLIT.h5 --src-vocab V --tgt-vocab V]       -> PREFIX.png, PREFIX.svg
"""
import argparse
import hashlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_io import InputError, plt, run, save_figure  # noqa: E402
from ragged_h5 import open_h5, ragged  # noqa: E402

ANALYSIS_FORMAT = "synmt-analysis-1"
DATASET_FORMAT = "synmt-dataset-1"


def attribute(f, path, name):
    if name not in f.attrs:
        raise InputError(path, 0, f"attribute '{name}' is missing")
    value = f.attrs[name]
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def load_vocab(path):
    """Tokens in id order ("token<TAB>count" lines) and the file's sha256 (the id datasets record)."""
    with open(path, "rb") as f:
        data = f.read()
    lines = data.decode("utf-8").split("\n")
    if lines[-1] == "":
        lines.pop()
    tokens = []
    for i, line in enumerate(lines, 1):
        tab = line.rfind("\t")
        if tab <= 0:
            raise InputError(path, i, "expected 'token<TAB>count'")
        tokens.append(line[:tab])
    return tokens, hashlib.sha256(data).hexdigest()


class Labels:
    """Tick labels per axis name and sentence: tokens from --data and the vocabularies, else positions."""

    def __init__(self, args):
        self.tokens = {}  # "src"/"tgt" -> (tokens dataset, offsets, vocab)
        if not args.data:
            return
        with open_h5(args.data) as d:
            if attribute(d, args.data, "format") != DATASET_FORMAT:
                raise InputError(args.data, 0, f"not a binarised split (format is not {DATASET_FORMAT})")
            for side, vocab_path in (("src", args.src_vocab), ("tgt", args.tgt_vocab)):
                if not vocab_path:
                    continue
                vocab, digest = load_vocab(vocab_path)
                recorded = attribute(d, args.data, f"{side}_vocab_sha256")
                if recorded != digest:
                    raise InputError(vocab_path, 0, f"not the vocabulary {args.data} was built with "
                                                    f"({side}_vocab_sha256 {recorded}, this file {digest})")
                values, offsets, _ = ragged(d, args.data, f"{side}_tokens", f"{side}_offsets")
                ids = values[()]
                if ids.size and (ids.min() < 0 or ids.max() >= len(vocab)):
                    raise InputError(args.data, 0, f"{side} token id outside {vocab_path}")
                self.tokens[side] = (ids, offsets, vocab)

    def get(self, axis, sentence, size, dump_path):
        if axis not in self.tokens:
            return [str(i) for i in range(size)]
        ids, offsets, vocab = self.tokens[axis]
        if sentence + 1 >= len(offsets):
            raise InputError(dump_path, 0, f"sentence {sentence} is beyond the {len(offsets) - 1} sentences of --data")
        words = [vocab[i] for i in ids[offsets[sentence]:offsets[sentence + 1]]] + (["</s>"] if axis == "tgt" else [])
        if len(words) != size:
            raise InputError(dump_path, 0, f"sentence {sentence}: {axis} axis has {size} positions, --data gives "
                                           f"{len(words)} tokens (a dump of another split?)")
        return words


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dump", required=True, help="HDF5 analysis dump (synmt-analysis-1)")
    parser.add_argument("--tensor", required=True, help="the tensor's name, as given to --dump")
    parser.add_argument("--sentences", required=True, help="0-based sentence indices, comma-separated")
    parser.add_argument("--head", type=int, help="with a heads axis: this head only (0-based)")
    parser.add_argument("--out", required=True, metavar="PREFIX", help="writes PREFIX.png and PREFIX.svg")
    parser.add_argument("--data", help="the binarised split the dump was made from (token ids for labels)")
    parser.add_argument("--src-vocab")
    parser.add_argument("--tgt-vocab")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    try:
        sentences = [int(s) for s in args.sentences.split(",")]
    except ValueError:
        parser.error(f"--sentences: expected 0-based indices like 0,3, got '{args.sentences}'")
    if (args.src_vocab or args.tgt_vocab) and not args.data:
        parser.error("--src-vocab/--tgt-vocab need --data: the dump stores no token ids")
    labels = Labels(args)

    stored = args.tensor.replace("/", ".")
    with open_h5(args.dump) as f:
        if attribute(f, args.dump, "format") != ANALYSIS_FORMAT:
            raise InputError(args.dump, 0, f"not an analysis dump (format is not {ANALYSIS_FORMAT})")
        if stored not in f:
            known = sorted(k[:-5] for k in f.attrs if k.endswith("_axes"))
            raise InputError(args.dump, 0, f"no tensor '{args.tensor}' (it has: {', '.join(known) or 'none'})")
        axes = attribute(f, args.dump, stored + "_axes").split()
        values, offsets, shapes = ragged(f, args.dump, stored, stored + "_offsets", stored + "_shapes")
        if shapes.shape[1] != len(axes):
            raise InputError(args.dump, 0, f"'{stored}': rank {shapes.shape[1]}, its axes '{' '.join(axes)}'")
        heads_axis = len(axes) == 3 and axes[0].isdigit()
        plane_axes = axes[1:] if heads_axis else axes
        if not (len(axes) in (1, 2) or heads_axis) or any(a not in ("src", "tgt") for a in plane_axes):
            raise InputError(args.dump, 0, f"'{stored}': cannot draw axes '{' '.join(axes)}'")
        if args.head is not None and not heads_axis:
            parser.error(f"--head: '{args.tensor}' has no heads axis (axes '{' '.join(axes)}')")
        n_heads = int(axes[0]) if heads_axis else 1
        if heads_axis and len(shapes) and np.any(shapes[:, 0] != n_heads):
            raise InputError(args.dump, 0, f"'{stored}': a block's first axis is not its {n_heads} heads")
        if args.head is not None and not 0 <= args.head < n_heads:
            parser.error(f"--head {args.head}: '{args.tensor}' has heads 0-{n_heads - 1}")
        heads = [args.head] if args.head is not None else list(range(n_heads)) if heads_axis else [None]
        if len(plane_axes) == 1:  # a vector per sentence ("tgt"): one row
            plane_axes = ["", plane_axes[0]]
        panels = []  # (sentence, head, matrix, row labels, column labels, row axis, column axis)
        for s in sentences:
            if not 0 <= s < len(offsets) - 1:
                raise InputError(args.dump, 0, f"sentence {s}: the dump has sentences 0-{len(offsets) - 2}")
            block = values[offsets[s]:offsets[s + 1]].astype(np.float32).reshape(shapes[s])
            for h in heads:
                m = block[h] if h is not None else block
                m = m.reshape(1, -1) if m.ndim == 1 else m
                rows = labels.get(plane_axes[0], s, m.shape[0], args.dump) if plane_axes[0] else [""]
                cols = labels.get(plane_axes[1], s, m.shape[1], args.dump)
                panels.append((s, h, m, rows, cols, *plane_axes))

    n_cols = len(heads)
    n_rows = len(sentences)
    cell = 0.22
    width = max(max(p[2].shape[1] for p in panels) * cell + 1.6, 3.0)
    height = max(max(p[2].shape[0] for p in panels) * cell + 1.4, 2.2)
    fig, axs = plt.subplots(n_rows, n_cols, figsize=(width * n_cols, height * n_rows), squeeze=False)
    for ax, (s, h, m, rows, cols, row_axis, col_axis) in zip(axs.flat, panels):
        image = ax.imshow(m, cmap="viridis", aspect="equal", interpolation="nearest")
        fig.colorbar(image, ax=ax, fraction=0.046, pad=0.03)
        font = 7 if max(m.shape) <= 40 else 5
        ax.set_xticks(range(m.shape[1]), cols, rotation=90, fontsize=font)
        ax.set_yticks(range(m.shape[0]), rows, fontsize=font)
        ax.set_xlabel(col_axis)
        ax.set_ylabel(row_axis)
        ax.set_title(f"sentence {s}" + (f", head {h}" if h is not None else ""), fontsize=8)
    fig.suptitle(args.title or f"{args.tensor} ({' '.join(axes)})")
    fig.tight_layout()
    save_figure(fig, args.out)


if __name__ == "__main__":
    run(main)
