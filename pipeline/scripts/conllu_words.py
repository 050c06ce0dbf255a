"""The syntactic words of a CoNLL-U file, one sentence per line, space-separated: a treebank's
sentences as already-tokenised text (multi-word token ranges and empty nodes skipped), so that the
words a model reads are the gold tree's words. Usage: conllu_words.py IN.conllu[.gz] OUT.txt [--lower] [--escape]
(--lower: lower-cased words, for a pair whose corpus is lower-cased; --escape: the XML escaping
synmt-tok gives the pair's training text, for a pair tokenised by it)"""
import gzip
import os
import sys


def open_text(path):
    """A treebank for reading, gzip-compressed (.gz) or plain UTF-8 text."""
    return (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8")


def sentences(path, field=1):
    """Per sentence, one column of its syntactic words: FORM (1) by default, e.g. UPOS (3); a tuple
    of columns gives a tuple per word, e.g. (6, 3) for (HEAD, UPOS)."""
    words = []
    with open_text(path) as f:
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


# tokenizer.perl's escape_xml, in its order (& first), as synmt-tok applies it to every training
# text it tokenises. The gold words cannot go through synmt-tok itself, which would split some of
# them again and change the word count the gold trees need; without the escaping a word such as
# 's or "&" reaches BPE and the vocabulary in a form training never showed (&apos;s, &amp;).
XML_ESCAPES = [("&", "&amp;"), ("|", "&#124;"), ("<", "&lt;"), (">", "&gt;"), ("'", "&apos;"), ('"', "&quot;"),
               ("[", "&#91;"), ("]", "&#93;")]


def escape(word):
    for raw, escaped in XML_ESCAPES:
        word = word.replace(raw, escaped)
    return word


def main():
    src, out = sys.argv[1], sys.argv[2]
    lower = "--lower" in sys.argv[3:]
    escaping = "--escape" in sys.argv[3:]
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for words in sentences(src):
            line = " ".join(escape(w) if escaping else w for w in words)
            f.write((line.lower() if lower else line) + "\n")
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
