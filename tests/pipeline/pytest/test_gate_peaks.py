# scripts/analysis/gate_peaks.py on a gate dump written here in synmt-translate's layout (one value
# per target piece plus </s>, flattened per sentence, with offsets), BPE text and CoNLL-U.
import h5py
import numpy as np
import pytest

import gate_peaks as gp


def write_case(tmp_path, norms, target_lines, conllu):
    with h5py.File(tmp_path / "d.h5", "w") as f:
        f["gate_norm"] = np.concatenate(norms).astype(np.float32)
        f["gate_norm_offsets"] = np.cumsum([0] + [len(z) for z in norms]).astype(np.int64)
    (tmp_path / "t.bpe").write_text("\n".join(target_lines) + "\n")
    (tmp_path / "g.conllu").write_text(conllu)
    return str(tmp_path / "d.h5"), str(tmp_path / "t.bpe"), str(tmp_path / "g.conllu")


def row(i, form, upos):
    return f"{i}\t{form}\t_\t{upos}\t_\t_\t0\troot\t_\t_\n"


GOLD = ("# sent 1\n" + row(1, "Der", "DET") + row(2, "Hund", "NOUN") + row(3, "läuft", "VERB") + "\n"
        # a multiword token: 'am' = 'an dem', whose words the tokenised text carries
        + "1-2\tam\t_\t_\t_\t_\t_\t_\t_\t_\n" + row(1, "an", "ADP") + row(2, "dem", "DET") + row(3, "Haus", "NOUN") + "\n")


def test_peaks_chance_rates_and_first_word(tmp_path):
    # sentence 1: 'Der Hu@@ nd läuft' -> pieces 4, words [0,0] [1,2] [3,3]; the highest piece is one of
    # 'Hund' (0.9), the highest word mean 'läuft' (0.6 against Hund's 0.45)
    # sentence 2: 'an dem Haus' -> peak on word 1, 'an' (ADP); after word 1 the peak is 'Haus'
    d, t, g = write_case(tmp_path, [np.array([0.1, 0.9, 0.0, 0.6, 0.0]), np.array([0.8, 0.1, 0.3, 0.0])],
                         ["Der Hu@@ nd läuft", "an dem Haus"], GOLD)
    r = gp.analyse(d, t, "bpe", g)
    assert r["sentences"] == 2
    assert r["words"] == {"DET": 2, "NOUN": 2, "VERB": 1, "ADP": 1}
    assert r["pieces"] == {"DET": 2, "NOUN": 3, "VERB": 1, "ADP": 1}
    assert r["peaks"] == {"NOUN": 1, "ADP": 1}
    # mean over pieces: a word split in two gains nothing from its higher piece; 'an' 0.8 first
    assert r["mean_peaks"] == {"VERB": 1, "ADP": 1}
    assert r["later_peaks"] == {"NOUN": 2}
    assert r["first_words"] == {1: 1, 0: 1}


def test_refuses_mismatched_words_and_pieces(tmp_path):
    d, t, g = write_case(tmp_path, [np.zeros(5), np.zeros(4)], ["Der Hund läuft weg", "an dem Haus"], GOLD)
    with pytest.raises(SystemExit, match="4 words, sentence 1 of .* has 3"):
        gp.analyse(d, t, "bpe", g)
    d, t, g = write_case(tmp_path, [np.zeros(3), np.zeros(4)], ["Der Hu@@ nd läuft", "an dem Haus"], GOLD)
    with pytest.raises(SystemExit, match="4 pieces, the dump has 2 steps"):
        gp.analyse(d, t, "bpe", g)


def test_refuses_a_gold_file_longer_than_the_dump(tmp_path):
    # a target (and its dump) cut short after sentence 1: the shares would be computed over a prefix
    # of the gold file without a word
    d, t, g = write_case(tmp_path, [np.array([0.1, 0.9, 0.0, 0.6, 0.0])], ["Der Hu@@ nd läuft"], GOLD)
    with pytest.raises(SystemExit, match="g.conllu: 2 sentences, the dump .* have 1"):
        gp.analyse(d, t, "bpe", g)


def test_sentencepiece_word_spans():
    assert gp.word_spans("\u2581Der \u2581Hu nd \u2581läuft", "spm") == [(0, 0), (1, 2), (3, 3)]
    assert gp.word_spans("Der Hu@@ nd läuft", "bpe") == [(0, 0), (1, 2), (3, 3)]
