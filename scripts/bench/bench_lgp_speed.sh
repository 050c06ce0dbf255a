#!/usr/bin/env bash
# LGP-NMT vs SEQ training speed (target words/s: the pairs are word-level) with train_speed.sh at
# the mini experiment's small sizes (d1 = 100, d2 = 50, d3 = 128, 128 pairs per update, SGD,
# BlackOut with 2,000 negatives) on its small_parallel_enja En->Ja data; SEQ is the first line.
# usage: [BENCH_REPS=3] [UPDATES=200] scripts/bench/bench_lgp_speed.sh [BIN_DIR]
#   needs the mini data: .venv/bin/snakemake work/lgp.mini/lgp_small/data/train.h5 \
#     work/lgp.mini/lgp_small/data/valid.h5 --cores 2 --configfile pipeline/config/experiments/lgp.mini.yaml
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes='"word_dim": 100, "ngram_dim": 100, "parser_hidden": 100, "tag_dim": 50, "embed_dim": 128, "hidden": 128'
exec bash scripts/bench/train_speed.sh "${1:-build/bin}" work/lgp.mini/lgp_small \
  '{"batch_size": 128, "max_epochs": 1, "optimizer": "sgd", "lr": 1.0, "momentum": 0.75, "clip_norm": 1.0, "weight_decay": 1e-6, "criterion": "blackout", "blackout_samples": 2000, "seed": 1}' \
  "lgp_seq={\"arch\": \"lgp_seq\", \"options\": {$sizes}}" \
  "lgp_uni={\"arch\": \"lgp_uni\", \"options\": {$sizes}}" \
  "lgp_nmt={\"arch\": \"lgp_nmt\", \"options\": {$sizes}}"
