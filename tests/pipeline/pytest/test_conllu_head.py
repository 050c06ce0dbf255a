# conllu_head.py: a gold treebank's first N sentences (gold_trees.sentences), whole sentences with
# their comments; fewer sentences than asked is an error naming the file.
import gzip
import os
import subprocess
import sys

import conllu_head

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCRIPT = os.path.join(ROOT, "pipeline", "scripts", "conllu_head.py")
SENTENCES = [
    "# sent_id = a\n1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n1\tdo\t_\tAUX\t_\t_\t0\troot\t_\t_\n2\tn't\t_\tPART\t_\t_\t1\tadvmod\t_\t_\n",
    "# sent_id = b\n1\tyes\t_\tINTJ\t_\t_\t0\troot\t_\t_\n",
    "# sent_id = c\n1\tno\t_\tINTJ\t_\t_\t0\troot\t_\t_\n",
]


def test_keeps_whole_sentences_with_comments_and_multiword_lines(tmp_path):
    src = tmp_path / "t.conllu.gz"
    with gzip.open(src, "wt") as f:
        f.write("\n".join(SENTENCES) + "\n\n")  # blank lines between sentences, two after the last
    out = tmp_path / "o.conllu"
    assert conllu_head.head(str(src), str(out), 2) == 2
    assert out.read_text() == SENTENCES[0] + "\n" + SENTENCES[1] + "\n"


def test_a_last_sentence_without_its_blank_line_counts(tmp_path):
    src = tmp_path / "t.conllu"
    src.write_text(SENTENCES[0] + "\n" + SENTENCES[1])
    assert conllu_head.head(str(src), str(tmp_path / "o.conllu"), 5) == 2
    assert (tmp_path / "o.conllu").read_text() == SENTENCES[0] + "\n" + SENTENCES[1] + "\n"


def test_fewer_sentences_than_asked_fails_naming_the_file(tmp_path):
    src = tmp_path / "t.conllu"
    src.write_text("\n".join(SENTENCES) + "\n")
    run = subprocess.run([sys.executable, SCRIPT, str(src), str(tmp_path / "o.conllu"), "4"], capture_output=True, text=True)
    assert run.returncode != 0
    assert f"{src}: 3 sentences, fewer than the 4 asked for" in run.stderr
    ok = subprocess.run([sys.executable, SCRIPT, str(src), str(tmp_path / "o.conllu"), "3"], capture_output=True, text=True)
    assert ok.returncode == 0 and (tmp_path / "o.conllu").read_text().count("# sent_id") == 3
