"""What the BLEU-by-length figure (length_buckets.py) and its test per bucket
(scripts/analysis/length_significance.py) share, so that both read the same lines and put a sentence
in the same bucket (no matplotlib here: the test does not draw)."""


def read_lines(path):
    """The file's lines as bytes, without their '\\n' (what the scorer gets back is byte-identical)."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def bucket_of(length, bounds):
    """The index of the first (inclusive) upper bound >= length, or len(bounds): the open bucket."""
    return next((i for i, b in enumerate(bounds) if length <= b), len(bounds))
