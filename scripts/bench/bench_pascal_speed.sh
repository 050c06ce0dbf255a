#!/usr/bin/env bash
# Pascal's and +SISA's (and +S&H's) training speed relative to the baseline Transformer (goal:
# Pascal within 5%, it adds no parameters): train_speed.sh with the mini experiment's demo
# Transformer (3+3 layers, d 256, 4 heads, <= 2,000 tokens per update) on its De->En data (parsed
# by de_gsd), Pascal with all 4 heads of layer 1 as the mini De->En row.
# usage: [BENCH_REPS=3] [UPDATES=200] scripts/bench/bench_pascal_speed.sh [BIN_DIR]
#   needs the mini data: .venv/bin/snakemake work/pascal.mini/pascal_mini_de_en/data/train.h5 \
#     work/pascal.mini/pascal_mini_de_en/data/valid.h5 --cores 2 --configfile pipeline/config/experiments/pascal.mini.yaml
set -euo pipefail
cd "$(dirname "$0")/../.."
exec bash scripts/bench/train_speed.sh "${1:-build/bin}" work/pascal.mini/pascal_mini_de_en \
  '{"max_tokens": 2000, "max_epochs": 1, "lr": 0.0007, "lr_schedule": "inverse_sqrt", "warmup_steps": 500, "adam_beta2": 0.997, "label_smoothing": 0.1, "seed": 1}' \
  'transformer={"arch": "transformer_demo"}' \
  'pascal={"arch": "transformer_pascal_demo", "options": {"score_modifiers": [{"kind": "pascal", "layer": 0, "heads": [0, 1, 2, 3], "sigma": 1.0}]}}' \
  'sisa={"arch": "transformer_sisa_demo"}' \
  'sh={"arch": "transformer_sh_demo"}'
