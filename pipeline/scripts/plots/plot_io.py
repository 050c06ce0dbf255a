"""What every plotting script shares: a matplotlib set up so that the same inputs give byte-identical
PNG and SVG files (Agg, default style whatever matplotlibrc says, no dates or versions in the files,
a fixed SVG id salt), and, from script_io, atomic writes and the "file:line: message" error every
synmt tool prints.

The scripts import this module from their own folder (sys.path), as the table scripts import table_io.
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from script_io import InputError, replace_atomically, run  # noqa: E402,F401  (re-exported: the plots import them from here)

plt.style.use("default")  # a user's matplotlibrc must not change the figures
plt.rcParams.update({
    "svg.hashsalt": "synmt",   # the ids of clip paths and glyphs; random per run otherwise
    "svg.fonttype": "path",    # text as paths: the SVG does not depend on the viewer's fonts
    "savefig.dpi": 150,
    "font.size": 9,
})


def save_figure(fig, prefix):
    """Write PREFIX.png and PREFIX.svg; returns their paths."""
    paths = []
    for ext, metadata in (("png", {"Software": None}), ("svg", {"Date": None, "Creator": None})):
        path = f"{prefix}.{ext}"
        replace_atomically(path, lambda f, e=ext, m=metadata: fig.savefig(f, format=e, metadata=m), mode="wb")
        paths.append(path)
    plt.close(fig)
    return paths


def named_paths(parser, values, option):
    """["NAME=PATH", ...] -> [(NAME, PATH), ...]; names unique, both parts non-empty (a usage error,
    exit status 2, otherwise)."""
    pairs, seen = [], set()
    for v in values:
        name, sep, path = v.partition("=")
        if not sep or not name or not path:
            parser.error(f"{option}: expected NAME=PATH, got '{v}'")
        if name in seen:
            parser.error(f"{option}: name '{name}' given twice")
        seen.add(name)
        pairs.append((name, path))
    return pairs
