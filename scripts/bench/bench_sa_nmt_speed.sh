#!/usr/bin/env bash
# SA-NMT training speed of every Table 2 variant relative to NMT (Tran & Bisk report SA-NMT about
# 2x slower than NMT in target words/s; the goal here is at most 1.3x): train_speed.sh at the mini
# experiment's sizes (embeddings 256, BiLSTM 2 x 128, decoder 256, 32 sentences per update) on its
# En->De data.
# usage: [BENCH_REPS=3] [UPDATES=200] scripts/bench/bench_sa_nmt_speed.sh [BIN_DIR]
#   needs the mini data: .venv/bin/snakemake work/sa_nmt.mini/sa_mini_en_de/data/train.h5 \
#     work/sa_nmt.mini/sa_mini_en_de/data/valid.h5 --cores 2 --configfile pipeline/config/experiments/sa_nmt.mini.yaml
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes='"embed_dim": 256, "encoder_hidden": 128, "decoder_hidden": 256, "dropout": 0.3, "init_range": 0.1'
configs=()
for arch in sa_nmt_nmt sa_nmt_fa_shared sa_nmt_fa_not_shared sa_nmt_1set sa_nmt_hard sa_nmt_shared sa_nmt_not_shared; do
  configs+=("$arch={\"arch\": \"$arch\", \"options\": {$sizes}}")
done
exec bash scripts/bench/train_speed.sh "${1:-build/bin}" work/sa_nmt.mini/sa_mini_en_de \
  '{"batch_size": 32, "max_epochs": 1, "lr": 0.001, "seed": 1}' "${configs[@]}"
