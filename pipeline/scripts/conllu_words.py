"""The syntactic words of a CoNLL-U file, one sentence per line, space-separated: a treebank's
sentences as already-tokenised text (multi-word token ranges and empty nodes skipped), so that the
words a model reads are the gold tree's words. Usage: conllu_words.py IN.conllu[.gz] OUT.txt [--lower]
(--lower: lower-cased words, for a pair whose corpus is lower-cased)"""
import gzip
import os
import sys


def sentences(path, field=1):
    """Per sentence, one column of its syntactic words: FORM (1) by default, e.g. UPOS (3); a tuple
    of columns gives a tuple per word, e.g. (6, 3) for (HEAD, UPOS)."""
    opener = gzip.open if path.endswith(".gz") else open
    words = []
    with opener(path, "rt", encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                if words:
                    yield words
                words = []
            elif not line.startswith("#"):
                cols = line.split("\t")
                if len(cols) != 10:
                    sys.exit(f"{path}:{number}: a CoNLL-U line has 10 tab-separated fields, this one {len(cols)}")
                if cols[0].isdigit():
                    if field == 1 and " " in cols[1]:
                        sys.exit(f"{path}:{number}: the word '{cols[1]}' contains a space")
                    words.append(cols[field] if isinstance(field, int) else tuple(cols[f] for f in field))
    if words:
        yield words


def main():
    src, out = sys.argv[1], sys.argv[2]
    lower = "--lower" in sys.argv[3:]
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for words in sentences(src):
            line = " ".join(words)
            f.write((line.lower() if lower else line) + "\n")
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
