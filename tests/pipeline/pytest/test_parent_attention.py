# scripts/analysis/parent_attention.py: each encoder head's agreement with the parser's parents.
import h5py
import numpy as np
import pytest

import parent_attention as pa

# sentence 0: words "a b@@ c d" -> tokens 0..3, words [0, 1, 1, 2]; sentence 1: two one-token words
PARENTS = [np.array([1, 3, 3, 3]), np.array([1, 1])]
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
    """head 0: all mass on the parent's first sub-word; head 1: on the parent word's last sub-word
    (sentence 0 token 0, whose parent word is tokens 1-2, -> token 2; elsewhere the parent itself);
    head 2: uniform."""
    n = len(parents)
    m = np.zeros((3, n, n))
    m[0, np.arange(n), parents] = 1.0
    for i, p in enumerate(parents):
        same = np.flatnonzero(words == words[p])
        m[1, i, same[-1]] = 1.0
    m[2] = 1.0 / n
    return m


def test_heads_scored_against_the_parents(tmp_path):
    write_data(tmp_path / "data.h5")
    write_dump(tmp_path / "dump.h5", [attention(p, w) for p, w in zip(PARENTS, WORDS)])
    per_head, refs, tokens = pa.parent_scores(pa.read_dump(str(tmp_path / "dump.h5"), "encoder_attention_0"),
                                              pa.read_dataset(str(tmp_path / "data.h5")))
    assert tokens == 6
    assert per_head[0] == pytest.approx((1.0, 1.0, 1.0))
    # head 1: token 0's parent word {1, 2} is attended at token 2, not the first sub-word 1
    assert per_head[1] == pytest.approx((5 / 6, 1.0, 1.0))
    # head 2 (uniform): every argmax is token 0 (ties), which is no token's parent nor in its parent
    # word; its mass on the parent word is the word's share of the sentence: 2/4, 1/4 x 3, 1/2 x 2
    assert per_head[2] == pytest.approx((0.0, 0.0, (2 / 4 + 3 / 4 + 2 / 2) / 6))
    # the positional references: no parent is the previous token; sentence 0's tokens 0 and 2 and
    # sentence 1's token 0 have the next token as parent
    assert refs == pytest.approx({"previous token": 0.0, "next token": 3 / 6})


def test_a_dump_of_another_split_names_both_files(tmp_path):
    write_data(tmp_path / "data.h5")
    write_dump(tmp_path / "dump.h5", [attention(PARENTS[0], WORDS[0])] * 2)
    with pytest.raises(SystemExit, match=r"dump.h5: sentence 1 has a 3 x 4 x 4 attention; .*data.h5 gives 2 source tokens"):
        pa.parent_scores(pa.read_dump(str(tmp_path / "dump.h5"), "encoder_attention_0"),
                         pa.read_dataset(str(tmp_path / "data.h5")), str(tmp_path / "dump.h5"), str(tmp_path / "data.h5"))
    with pytest.raises(SystemExit, match=r"no tensor 'encoder_attention_1' \(dumped: encoder_attention_0\)"):
        pa.read_dump(str(tmp_path / "dump.h5"), "encoder_attention_1")
