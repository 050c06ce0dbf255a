#!/usr/bin/env bash
# GPU benchmark (issue #6): Transformer base trained by synmt-train (CUDA build, bf16 autocast)
# and by a plain PyTorch loop (scripts/bench/gpu/pytorch_transformer_loop.py) on the same GPU,
# with batches of the same shape, in one run; prints both target-token rates and their ratio.
# Data: a synthetic parallel corpus in which every sentence has LEN tokens over VOCAB word types
# (the arithmetic per step is what is compared, not translation quality).
# Usage on the GPU machine, after scripts/gpu/build.sh:  bash scripts/bench/bench_gpu_transformer.sh
# Knobs (environment): BIN (build-cuda/bin), BATCH (sentences, 128), LEN (30), VOCAB (8000),
# STEPS (timed updates, 200), ARCH (transformer_base), DEVICE (cuda), PRECISION (bf16),
# REFERENCE (1: also run the PyTorch loop).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-build-cuda/bin}
BATCH=${BATCH:-128}
LEN=${LEN:-30}
VOCAB=${VOCAB:-8000}
STEPS=${STEPS:-200}
WARMUP=20
ARCH=${ARCH:-transformer_base}
DEVICE=${DEVICE:-cuda}
PRECISION=${PRECISION:-bf16}
REFERENCE=${REFERENCE:-1}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# one epoch covers warm-up and timed updates
bash scripts/bench/synthetic_data.sh "$BIN" "$T" $((BATCH * (STEPS + 40))) 64 "$LEN" "$VOCAB"
cat > "$T/config.json" <<JSON
{"model": {"arch": "$ARCH"},
 "train": {"device": "$DEVICE", "precision": "$PRECISION", "batch_size": $BATCH, "max_len": $((LEN + 1)),
           "max_steps": $((STEPS + WARMUP)), "max_epochs": 1, "log_interval": $WARMUP, "checkpoint_interval": 0,
           "optimizer": "adam", "lr": 0.0001, "adam_beta2": 0.98, "adam_eps": 1e-9, "label_smoothing": 0.1,
           "clip_norm": 5.0, "halve_lr_on_plateau": false}}
JSON
"$BIN/synmt-train" -c "$T/config.json" --train "$T/train.h5" --valid "$T/valid.h5" --src-vocab "$T/src.vocab" \
  --tgt-vocab "$T/tgt.vocab" -o "$T/run" --dist single 2> "$T/train.log" || { cat "$T/train.log"; exit 1; }
# the windows after the first (warm-up) one: log_interval updates each
SYNMT=$(python3 - "$T/run/metrics.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"type": "train"' in l or '"type":"train"' in l]
timed = rows[1:]
print(sum(r["tgt_tokens_per_s"] for r in timed) / len(timed))
PY
)
VOCAB_SRC=$(wc -l < "$T/src.vocab")
VOCAB_TGT=$(wc -l < "$T/tgt.vocab")
echo "synmt-train ($ARCH, $DEVICE, $PRECISION, batch $BATCH x $((LEN + 1)) target tokens): $SYNMT target tokens/s"
grep -m1 "device:" "$T/train.log" || true
if [ "$REFERENCE" = 1 ]; then
  REF=$(python3 scripts/bench/gpu/pytorch_transformer_loop.py --src-vocab "$VOCAB_SRC" --tgt-vocab "$VOCAB_TGT" \
        --batch-size "$BATCH" --src-len $((LEN + 1)) --tgt-len $((LEN + 1)) --steps "$STEPS" --warmup "$WARMUP" \
        --device "$DEVICE" --precision "$PRECISION")
  echo "PyTorch loop: $REF"
  python3 - "$SYNMT" "$REF" <<'PY'
import json, sys
ours, ref = float(sys.argv[1]), json.loads(sys.argv[2])["tgt_tokens_per_s"]
print(f"synmt / PyTorch = {ours / ref:.2f}")
PY
fi
