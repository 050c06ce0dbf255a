"""The first N sentences of a CoNLL-U treebank (gold_trees.sentences: tree scores on a subset, for a
quick look or a smoke test). Usage: conllu_head.py IN.conllu[.gz] OUT.conllu N

A sentence is a block of lines ending at a blank line (CoNLL-U's rule); comments and multi-word
token lines stay with their sentence. A treebank with fewer than N sentences is an error naming
the file, not a silently shorter subset."""
import sys

from conllu_words import open_text


def head(path, out_path, n):
    kept, block = 0, []
    with open_text(path) as f, open(out_path, "w", encoding="utf-8") as out:
        for line in f:
            if line.strip():
                block.append(line)
                continue
            if block:
                out.writelines(block)
                out.write("\n")
                kept, block = kept + 1, []
                if kept == n:
                    return kept
        if block:  # a last sentence without its closing blank line
            out.writelines(block)
            out.write("\n")
            kept += 1
    return kept


def main():
    if len(sys.argv) != 4 or not sys.argv[3].isdigit() or int(sys.argv[3]) < 1:
        sys.exit("usage: conllu_head.py IN.conllu[.gz] OUT.conllu N (N >= 1)")
    path, out_path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    kept = head(path, out_path, n)
    if kept < n:
        sys.exit(f"{path}: {kept} sentences, fewer than the {n} asked for (gold_trees.sentences)")


if __name__ == "__main__":
    main()
