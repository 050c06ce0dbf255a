# conllu_words.py: the gold treebank's words as the model's text, escaped as synmt-tok escapes the
# pair's training text (checked against synmt-tok itself where the build has it).
import os
import subprocess
import sys

import pytest

import conllu_words

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TOK = os.path.join(ROOT, "build", "bin", "synmt-tok")
WORDS = ["McDonald", "'s", "\"", "&", "a|b", "<x>", "[1]", "plain"]


def test_escape_matches_tokenizer_perls_order():
    assert conllu_words.escape("&apos;") == "&amp;apos;"  # & first: an escape is escaped again, as tokenizer.perl
    assert [conllu_words.escape(w) for w in WORDS] == [
        "McDonald", "&apos;s", "&quot;", "&amp;", "a&#124;b", "&lt;x&gt;", "&#91;1&#93;", "plain"]


@pytest.mark.skipif(not os.path.exists(TOK), reason="synmt-tok not built")
def test_each_escaped_word_is_what_synmt_tok_writes_for_it(tmp_path):
    # one word a line: the tokeniser may split a word (e.g. '"'), but its characters' escapes agree
    src = tmp_path / "w.txt"
    src.write_text("\n".join(["&", "|", "<", ">", "\"", "[", "]", "'s"]) + "\n")
    out = subprocess.run([TOK, "-l", "en", "-i", str(src), "-o", "-"], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:8] == ["&amp;", "&#124;", "&lt;", "&gt;", "&quot;", "&#91;", "&#93;", "&apos;s"]


def test_the_script_escapes_only_when_asked(tmp_path):
    conllu = tmp_path / "t.conllu"
    conllu.write_text("# text\n1\tit\t_\tPRON\t_\t_\t0\troot\t_\t_\n2\t's\t_\tAUX\t_\t_\t1\tcop\t_\t_\n\n")
    script = os.path.join(ROOT, "pipeline", "scripts", "conllu_words.py")
    for flags, expected in (([], "it 's\n"), (["--escape"], "it &apos;s\n"), (["--escape", "--lower"], "it &apos;s\n")):
        subprocess.run([sys.executable, script, str(conllu), str(tmp_path / "o.txt")] + flags, check=True)
        assert (tmp_path / "o.txt").read_text() == expected
