#!/usr/bin/env bash
# Latent-graph vs baseline training speed per encoder (Bastings et al. 2018's Emb, CNN, RNN):
# train_speed.sh at the mini experiment's De-En sizes (256 units, 64 sentences per update) on its
# Multi30k De->En data; compare each lg_graph_* with its lg_baseline_* line.
# usage: [BENCH_REPS=3] [UPDATES=200] scripts/bench/bench_latent_graphs_speed.sh [BIN_DIR]
#   needs the mini data: .venv/bin/snakemake work/latent_graphs.mini/lg_mini_de_en/data/train.h5 \
#     work/latent_graphs.mini/lg_mini_de_en/data/valid.h5 --cores 2 --configfile pipeline/config/experiments/latent_graphs.mini.yaml
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes='"embed_dim": 256, "key_dim": 256, "decoder_hidden": 256, "dropout": 0.3'
configs=()
for encoder in emb cnn rnn; do
  for kind in baseline graph; do
    configs+=("lg_${kind}_${encoder}={\"arch\": \"lg_${kind}_${encoder}\", \"options\": {$sizes}}")
  done
done
exec bash scripts/bench/train_speed.sh "${1:-build/bin}" work/latent_graphs.mini/lg_mini_de_en \
  '{"batch_size": 64, "max_epochs": 1, "lr": 0.0003, "clip_norm": 5.0, "seed": 1}' "${configs[@]}"
