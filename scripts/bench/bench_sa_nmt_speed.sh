#!/usr/bin/env bash
# SA-NMT training speed of every Table 2 variant relative to NMT (Tran & Bisk report SA-NMT about
# 2x slower than NMT in target words/s; the goal here is at most 1.3x), in one run on one machine:
# BENCH_REPS (default 3) interleaved rounds of UPDATES (default 200) updates of each preset at the
# mini experiment's sizes (embeddings 256, BiLSTM 2 x 128, decoder 256, 32 sentences per update)
# on its En->De data; prints each run's target tokens/s, the medians and NMT / variant ratios.
# usage: scripts/bench/bench_sa_nmt_speed.sh [BIN_DIR]
#   needs the mini data: .venv/bin/snakemake work/sa_nmt.mini/sa_mini_en_de/data/train.h5 \
#     work/sa_nmt.mini/sa_mini_en_de/data/valid.h5 --cores 2 --configfile pipeline/config/experiments/sa_nmt.mini.yaml
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-build/bin}
REPS=${BENCH_REPS:-3} UPDATES=${UPDATES:-200}
DATA=work/sa_nmt.mini/sa_mini_en_de
for f in data/train.h5 data/valid.h5 vocab.src vocab.tgt; do
  [ -f "$DATA/$f" ] || { echo "missing $DATA/$f (see the usage above)" >&2; exit 2; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PRESETS=(sa_nmt_nmt sa_nmt_fa_shared sa_nmt_fa_not_shared sa_nmt_1set sa_nmt_hard sa_nmt_shared sa_nmt_not_shared)
declare -A speeds=()
for ((r = 0; r < REPS; ++r)); do
  for arch in "${PRESETS[@]}"; do
    printf '{"model": {"arch": "%s", "options": {"embed_dim": 256, "encoder_hidden": 128, "decoder_hidden": 256, "dropout": 0.3, "init_range": 0.1}}, "train": {"batch_size": 32, "max_epochs": 1, "max_steps": %d, "log_interval": %d, "lr": 0.001, "seed": 1, "threads": 2, "checkpoint_interval": 0, "valid_interval": 100000}}\n' \
      "$arch" "$UPDATES" "$UPDATES" > "$TMP/config.json"
    rm -rf "$TMP/run"
    "$BIN/synmt-train" -c "$TMP/config.json" --train $DATA/data/train.h5 --valid $DATA/data/valid.h5 \
      --src-vocab $DATA/vocab.src --tgt-vocab $DATA/vocab.tgt -o "$TMP/run" 2> "$TMP/run.log" || { cat "$TMP/run.log" >&2; exit 1; }
    s=$(python3 -c "import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if '\"train\"' in l][-1]['tgt_tokens_per_s'])" "$TMP/run/metrics.jsonl")
    speeds[$arch]="${speeds[$arch]:-} $s"
  done
done
for arch in "${PRESETS[@]}"; do echo "$arch ${speeds[$arch]}"; done > "$TMP/speeds.txt"
python3 - "$TMP/speeds.txt" <<'PY'
import statistics, sys
rows = [(l.split()[0], [float(x) for x in l.split()[1:]]) for l in open(sys.argv[1]) if l.strip()]
nmt = statistics.median(rows[0][1])
print(f"{'preset':<22} {'tgt tokens/s (each run)':<28} {'median':>8} {'NMT / preset':>13}")
for name, v in rows:
    m = statistics.median(v)
    runs = " ".join(f"{x:.0f}" for x in v)
    print(f"{name:<22} {runs:<28} {m:8.0f} {nmt / m:13.2f}")
PY
