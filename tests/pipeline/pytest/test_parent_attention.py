# scripts/analysis/parent_attention.py: each encoder head's agreement with the parser's parents.
import h5py
import numpy as np
import pytest

import parent_attention as pa

# sentence 0: words "a b@@ c d" -> tokens 0..3, words [0, 1, 1, 2], parents [1, 3, 3, 3] (d the
# root); sentence 1: two one-token words, token 0 the root, token 1 headed by the previous token
PARENTS = [np.array([1, 3, 3, 3]), np.array([0, 0])]
WORDS = [np.array([0, 1, 1, 2]), np.array([0, 1])]


def write_data(path):
    with h5py.File(path, "w") as f:
        f["src_offsets"] = np.array([0, 4, 6], dtype=np.int64)
        f["src_parent_first"] = np.concatenate(PARENTS).astype(np.int32)
        f["src_word"] = np.concatenate(WORDS).astype(np.int32)


def write_dump(path, arrays, name="encoder_attention_0"):
    with h5py.File(path, "w") as f:
        f[name] = np.concatenate([a.ravel() for a in arrays]).astype(np.float32)
        f[name + "_offsets"] = np.cumsum([0] + [a.size for a in arrays]).astype(np.int64)
        f[name + "_shapes"] = np.concatenate([a.shape for a in arrays]).astype(np.int32)


def attention(parents, words):
    """heads x queries x keys. head 0: all mass on the parent's first sub-word; head 1: on the
    parent word's last sub-word (sentence 0 token 0, whose parent word is tokens 1-2, -> token 2;
    elsewhere the parent itself); head 2: uniform (every maximum tied)."""
    n = len(parents)
    m = np.zeros((3, n, n))
    m[0, np.arange(n), parents] = 1.0
    for i, p in enumerate(parents):
        m[1, i, np.flatnonzero(words == words[p])[-1]] = 1.0
    m[2] = 1.0 / n
    return m


def scores(tmp_path, arrays):
    write_data(tmp_path / "data.h5")
    write_dump(tmp_path / "dump.h5", arrays)
    return pa.parent_scores(pa.read_dump(str(tmp_path / "dump.h5"), "encoder_attention_0"),
                            pa.read_dataset(str(tmp_path / "data.h5")), str(tmp_path / "dump.h5"), str(tmp_path / "data.h5"))


def test_heads_scored_against_the_parents(tmp_path):
    per_head, refs, tokens = scores(tmp_path, [attention(p, w) for p, w in zip(PARENTS, WORDS)])
    assert tokens == 6
    assert per_head[0] == pytest.approx({"first": 1.0, "word": 1.0, "mass": 1.0, "tied": 0.0})
    # head 1: token 0's parent word {1, 2} is attended at token 2, not at its first sub-word 1
    assert per_head[1] == pytest.approx({"first": 5 / 6, "word": 1.0, "mass": 1.0, "tied": 0.0})
    # head 2 (uniform): every argmax is token 0 (the first of the tied), the parent of sentence 1's
    # two tokens only; the mass on the parent word is its share of the sentence: 2/4, 1/4 x 3, 1/2 x 2
    assert per_head[2] == pytest.approx({"first": 2 / 6, "word": 2 / 6, "mass": (2 / 4 + 3 / 4 + 2 / 2) / 6, "tied": 1.0})
    # the positional references: sentence 1's token 1 is headed by the previous token; sentence 0's
    # tokens 0 (parent word {1, 2}, first sub-word 1) and 2 (parent 3) by the next; the roots
    # (sentence 0 token 3, sentence 1 token 0) head themselves
    expected = {"previous token": [1 / 6, 1 / 6], "next token": [2 / 6, 2 / 6], "the token itself": [2 / 6, 2 / 6]}
    assert list(refs) == list(expected)
    for name, r in refs.items():
        assert [r["first"], r["word"]] == pytest.approx(expected[name]), name


def test_a_dump_of_another_split_or_layout_names_the_file(tmp_path):
    with pytest.raises(SystemExit, match=r"dump.h5: sentence 1 has a 3 x 4 x 4 attention; .*data.h5 gives 2 source tokens"):
        scores(tmp_path, [attention(PARENTS[0], WORDS[0])] * 2)
    # queries and keys swapped: each key's column sums to 1, not each query's row
    transposed = [attention(p, w).transpose(0, 2, 1) for p, w in zip(PARENTS, WORDS)]
    with pytest.raises(SystemExit, match=r"dump.h5: sentence 0: the attention rows do not sum to 1 over the last axis"):
        scores(tmp_path, transposed)
    with pytest.raises(SystemExit, match=r"no tensor 'encoder_attention_1' \(dumped: encoder_attention_0\)"):
        pa.read_dump(str(tmp_path / "dump.h5"), "encoder_attention_1")


def test_a_truncated_file_is_an_error_not_fewer_sentences(tmp_path):
    write_dump(tmp_path / "dump.h5", [attention(p, w) for p, w in zip(PARENTS, WORDS)])
    with h5py.File(tmp_path / "dump.h5", "r+") as f:  # the last block cut off the values
        values = f["encoder_attention_0"][:-5]
        del f["encoder_attention_0"]
        f["encoder_attention_0"] = values
    with pytest.raises(SystemExit, match=r"dump.h5: array 'encoder_attention_0': offsets do not cover the values"):
        pa.read_dump(str(tmp_path / "dump.h5"), "encoder_attention_0")
    write_data(tmp_path / "data.h5")
    with h5py.File(tmp_path / "data.h5", "r+") as f:  # one sentence's parents missing
        del f["src_parent_first"]
        f["src_parent_first"] = np.concatenate(PARENTS[:1]).astype(np.int32)
    with pytest.raises(SystemExit, match=r"data.h5: array 'src_parent_first': offsets do not cover the values"):
        pa.read_dataset(str(tmp_path / "data.h5"))
