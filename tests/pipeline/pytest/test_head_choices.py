# scripts/analysis/head_choices.py on a dump written here in the layout synmt-translate writes
# (values flattened per sentence, offsets, shapes; row i = word i's heads, p(ROOT) on the diagonal).
import h5py
import numpy as np
import pytest

import head_choices as hc


def write_dump(path, matrices, tensor="heads"):
    with h5py.File(path, "w") as f:
        f[tensor] = np.concatenate([m.ravel() for m in matrices]).astype(np.float32)
        f[f"{tensor}_offsets"] = np.cumsum([0] + [m.size for m in matrices]).astype(np.int64)
        f[f"{tensor}_shapes"] = np.array([s for m in matrices for s in m.shape], dtype=np.int64)


def test_counts_each_kind_of_head(tmp_path):
    hub = np.array([[0.9, 0.1, 0.0, 0.0],   # word 0: ROOT (diagonal)
                    [1.0, 0.0, 0.0, 0.0],   # word 1: the first word (also its previous; first wins)
                    [0.8, 0.1, 0.1, 0.0],   # word 2: the first word
                    [0.0, 0.0, 0.7, 0.3]])  # word 3: the previous word
    chain = np.array([[0.0, 1.0, 0.0],      # word 0: the next word
                      [0.0, 0.0, 1.0],      # word 1: the next word
                      [0.0, 0.0, 1.0]])     # word 2: ROOT
    short = np.array([[1.0, 0.0], [1.0, 0.0]])  # fewer than 3 words: left out
    write_dump(tmp_path / "d.h5", [hub, chain, short])
    shares, entropy, words, reach = hc.head_choices(str(tmp_path / "d.h5"))
    assert words == 7
    # the last word heads chain's word 1 (its own diagonal, word 2's ROOT, does not count)
    assert shares == pytest.approx({"ROOT": 2 / 7, "first word": 2 / 7, "previous": 1 / 7, "next": 2 / 7, "other": 0.0,
                                    "last word": 1 / 7})
    # mean row entropy per sentence (nats), then over the sentences: hub's rows 0.325, 0, 0.639 and
    # 0.611, chain's all 0 (one-hot)
    def h(*p):
        return -sum(x * np.log(x) for x in p)
    assert entropy == pytest.approx((h(0.9, 0.1) + 0 + h(0.8, 0.1, 0.1) + h(0.7, 0.3)) / 4 / 2)
    # non-ROOT heads: hub w1->0 (1), w2->0 (2), w3->2 (1); chain w0->1 (1), w1->2 (1): mean 6/5.
    # Heads at neither end: hub's w3->2 (ends 0 and 3) and chain's w0->1 (ends 0 and 2), each at
    # distance 1; the others point at an end: 2 of the 7 words, distance 1.
    assert reach == pytest.approx({"distance": 6 / 5, "inner share": 2 / 7, "inner distance": 1.0})


def test_refuses_a_missing_tensor_and_a_non_square_matrix(tmp_path):
    write_dump(tmp_path / "d.h5", [np.ones((3, 3)) / 3])
    with pytest.raises(SystemExit, match="no tensor 'attention'"):
        hc.head_choices(str(tmp_path / "d.h5"), "attention")
    write_dump(tmp_path / "r.h5", [np.ones((3, 4)) / 4])
    with pytest.raises(SystemExit, match="3 x 4"):
        hc.head_choices(str(tmp_path / "r.h5"))


def test_trees_in_conllu(tmp_path):
    def sent(rows):
        return "".join(f"{i}\tw{i}\t_\t{u}\t_\t_\t{h}\t_\t_\t_\n" for i, (u, h) in enumerate(rows, 1)) + "\n"
    # 4 words: ROOT, previous, the last word (also next), the last word is PUNCT; then first/other
    text = sent([("NOUN", 0), ("VERB", 1), ("ADJ", 4), ("PUNCT", 2)]) + sent([("NOUN", 3), ("DET", 1), ("NOUN", 0)])
    text += sent([("X", 0), ("X", 1)])  # fewer than 3 words: left out
    path = tmp_path / "t.conllu"
    path.write_text(text)
    shares, words = hc.tree_choices(str(path))
    assert words == 7
    # sentence 1: w1 ROOT, w2 head 1 = first word, w3 head 4 = next, w4 head 2 = other;
    # sentence 2: w1 head 3 = other, w2 head 1 = first word, w3 ROOT
    assert shares["ROOT"] == pytest.approx(2 / 7) and shares["first word"] == pytest.approx(2 / 7)
    assert shares["next"] == pytest.approx(1 / 7) and shares["other"] == pytest.approx(2 / 7)
    assert shares["last word"] == pytest.approx(2 / 7)  # w3 -> 4 (last of 4), w1 -> 3 (last of 3)
    assert shares["PUNCT"] == pytest.approx(1 / 7)      # w3's head w4 is PUNCT


def test_a_head_outside_the_sentence_is_an_error(tmp_path):
    path = tmp_path / "bad.conllu"
    path.write_text("".join(f"{i}\tw\t_\tX\t_\t_\t{h}\t_\t_\t_\n" for i, h in ((1, 0), (2, 1), (3, 9))) + "\n")
    with pytest.raises(SystemExit, match="has the head '9'"):
        hc.tree_choices(str(path))
