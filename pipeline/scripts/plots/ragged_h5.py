"""Reading the ragged arrays of synmt's HDF5 files (core/ragged.h): the tensors of an analysis dump
(`synmt-translate --teacher-forced --dump`, format synmt-analysis-1) and the token arrays of a
binarised split. An array NAME holds its per-sentence blocks concatenated; NAME_offsets (int64,
sentences + 1) says where each block begins, NAME_shapes (sentences x rank), where present, each
block's shape. One reader for the heat maps and the analysis scripts, so that each checks the
layout as core/ragged.h's read_ragged does and a truncated file is an error, not a short result."""
import h5py
import numpy as np

from script_io import InputError


def open_h5(path):
    try:
        return h5py.File(path, "r")
    except OSError as e:
        raise InputError(path, 0, f"cannot open HDF5 file ({e})") from None


def ragged_names(f):
    """The ragged arrays of an open file: the datasets with a NAME_offsets beside them."""
    return sorted(k for k in f if k + "_offsets" in f)


def ragged(f, path, name, offsets_name, shapes_name=None):
    """(values dataset, offsets, shapes or None) of one ragged array, its layout checked: offsets
    from 0 to the values' length and monotone; every block's shape the same rank and its size."""
    for n in [name, offsets_name] + ([shapes_name] if shapes_name else []):
        if n not in f:
            raise InputError(path, 0, f"array '{name}': dataset '{n}' is missing")
    values, offsets = f[name], f[offsets_name][()].astype(np.int64)
    if offsets.ndim != 1 or len(offsets) == 0 or offsets[0] != 0 or offsets[-1] != values.shape[0]:
        raise InputError(path, 0, f"array '{name}': offsets do not cover the values (truncated or corrupt file)")
    if np.any(np.diff(offsets) < 0):
        raise InputError(path, 0, f"array '{name}': offsets are not monotone (corrupt file)")
    shapes = None
    if shapes_name:
        flat, items = f[shapes_name][()].astype(np.int64), len(offsets) - 1
        if items and flat.size % items:
            raise InputError(path, 0, f"array '{name}': shapes do not give every item the same rank")
        shapes = flat.reshape(items, flat.size // items if items else 0)
        bad = np.nonzero(np.prod(shapes, axis=1) != np.diff(offsets))[0]
        if bad.size:
            raise InputError(path, 0, f"array '{name}': item {bad[0] + 1}: shape does not match its block size")
    return values, offsets, shapes


def read_blocks(path, name, rank=None):
    """The array `name` of the file at `path` as a list of per-sentence numpy arrays, each of its
    shape (NAME_shapes), or flat where the file has no shapes for it. With `rank`, every block must
    have that many axes."""
    with open_h5(path) as f:
        if name not in f:
            raise InputError(path, 0, f"no tensor '{name}' (dumped: {', '.join(ragged_names(f)) or 'none'})")
        shapes_name = name + "_shapes" if name + "_shapes" in f else None
        values, offsets, shapes = ragged(f, path, name, name + "_offsets", shapes_name)
        values = values[()]
    found = shapes.shape[1] if shapes is not None else 1
    if rank is not None and found != rank:
        raise InputError(path, 0, f"'{name}' has {found} axes per sentence; expected {rank}")
    return [values[a:b].reshape(shapes[s]) if shapes is not None else values[a:b]
            for s, (a, b) in enumerate(zip(offsets[:-1], offsets[1:]))]
