#!/usr/bin/env bash
# One training on both cores, or two single-threaded trainings at once? Target tokens/s of one
# 2-thread run, one 1-thread run, and two 1-thread runs side by side (their sum), on a system's
# own train config and data, and the ratio two-at-once / one-on-both. On the 2-core CI machine this
# decides how the mini campaign runs (docs/reproducing.md: --set-threads train=1).
# usage: scripts/bench/bench_parallel_runs.sh TRAIN_CONFIG DATA_DIR [STEPS (80)] [BIN_DIR (build/bin)]
#   e.g. results/sa_nmt.mini/systems/sa_shared.sa_mini_en_de.s1/train_config.json work/sa_nmt.mini/sa_mini_en_de
# Nothing else may run meanwhile (pause a background training with kill -STOP, then -CONT).
set -euo pipefail
CFG=$1
D=$2
STEPS=${3:-80}
BIN=${4:-build/bin}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() {  # NAME THREADS
  "$BIN/synmt-train" -c "$CFG" --set "train.threads=$2" --set "train.max_steps=$STEPS" --set train.valid_per_epoch=1 \
    --train "$D/data/train.h5" --valid "$D/data/valid.h5" --src-vocab "$D/vocab.src" --tgt-vocab "$D/vocab.tgt" -o "$T/$1" 2> "$T/$1.log"
}
rate() { python3 -c "import json, sys; print(round(json.load(open(sys.argv[1]))['tgt_tokens_per_s']))" "$T/$1/summary.json"; }
run both 2
run one 1
run a 1 & run b 1 & wait
both=$(rate both); one=$(rate one); a=$(rate a); b=$(rate b)
echo "one run, 2 threads: $both tokens/s"
echo "one run, 1 thread: $one tokens/s"
echo "two 1-thread runs at once: $a + $b = $((a + b)) tokens/s"
python3 -c "import sys; print(f'ratio two-at-once / one-on-both: {int(sys.argv[1]) / int(sys.argv[2]):.2f}')" "$((a + b))" "$both"
