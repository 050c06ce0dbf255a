#!/usr/bin/env bash
# A synthetic parallel corpus for the speed benchmarks, binarised: every sentence LEN tokens over
# VOCAB word types (seeded), so that every batch has the same shape and two trainers do the same
# arithmetic per step. Writes OUT/{train,valid}.{src,tgt}, OUT/{src,tgt}.vocab, OUT/{train,valid}.h5.
# usage: scripts/bench/synthetic_data.sh BIN OUT TRAIN_SENTENCES VALID_SENTENCES LEN VOCAB
set -euo pipefail
BIN=$1 OUT=$2
python3 - "$OUT" "$3" "$4" "$5" "$6" <<'PY'
import random, sys
out, n_train, n_valid, length, vocab = sys.argv[1], *map(int, sys.argv[2:])
rng = random.Random(1)
def corpus(path, n):
    with open(path, "w") as f:
        for _ in range(n):
            f.write(" ".join(f"w{rng.randrange(vocab)}" for _ in range(length)) + "\n")
for side in ("src", "tgt"):
    corpus(f"{out}/train.{side}", n_train)
    corpus(f"{out}/valid.{side}", n_valid)
PY
"$BIN/synmt-binarize" vocab -i "$OUT/train.src" -o "$OUT/src.vocab" 2>/dev/null
"$BIN/synmt-binarize" vocab -i "$OUT/train.tgt" -o "$OUT/tgt.vocab" 2>/dev/null
for split in train valid; do
  "$BIN/synmt-binarize" data --src "$OUT/$split.src" --tgt "$OUT/$split.tgt" --src-vocab "$OUT/src.vocab" \
    --tgt-vocab "$OUT/tgt.vocab" -o "$OUT/$split.h5" 2>/dev/null
done
