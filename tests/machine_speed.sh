#!/usr/bin/env bash
# How much slower than the reference machine this machine runs, measured, so that a test's
# wall-clock limit can be scaled by it: the SLURM tests' budgets, the smoke experiments' caps.
# Those tests' minutes are mostly the machine's own compute (trainings, Snakemake starting in
# every job), and the CI machines' speed varies between machines and days by up to ~1.9x
# (docs/cluster.md, "What the test proves"). A limit fixed in seconds then fails on a slow machine
# for no fault of the code; a limit scaled by a measured speed keeps catching what it is there
# for (the cluster's overhead, a pipeline that grew), not the machine's speed, which the trainer's
# benchmarks cover.
# The workload: synmt-train, rnn_tiny, 1 thread, 150 updates on 200 synthetic sentence pairs (no
# data mirror needed); the fastest of 3 runs (single runs on one idle machine ranged 4.7-7.9 s).
#
# As a script: machine_speed.sh BIN OUT_FILE measures once and writes the milliseconds to OUT_FILE
# (CTest's fixture `machine_speed`, tests/CMakeLists.txt, so that a whole CTest run measures once).
# Sourced: machine_scale_permille BIN TMPDIR REF_MS prints "SCALE MS": MS read from
# $SYNMT_MACHINE_SPEED_FILE when that file exists, else measured; SCALE = MS / REF_MS in per mille,
# never below 1000 (a faster machine keeps the limit as it is) and never above 2500 (the tests'
# CTest TIMEOUTs stay above every scaled limit; a machine more than 2.5x slower fails the limit).

machine_speed_ms() {  # BIN TMPDIR: prints the fastest of 3 runs' milliseconds
  local bin=$1 dir=$2 best="" t0 took
  mkdir -p "$dir"
  awk 'BEGIN { for (i = 0; i < 200; i++) { s = ""; t = "";
         for (j = 0; j < 6 + i % 9; j++) { s = s " w" (i * 7 + j * 13) % 97; t = t " v" (i * 5 + j * 11) % 89 }
         print substr(s, 2) > "'"$dir"'/s.txt"; print substr(t, 2) > "'"$dir"'/t.txt" } }'
  "$bin/synmt-binarize" vocab -i "$dir/s.txt" -o "$dir/vs" 2>/dev/null || return 1
  "$bin/synmt-binarize" vocab -i "$dir/t.txt" -o "$dir/vt" 2>/dev/null || return 1
  "$bin/synmt-binarize" data --src "$dir/s.txt" --tgt "$dir/t.txt" --src-vocab "$dir/vs" --tgt-vocab "$dir/vt" \
    -o "$dir/d.h5" 2>/dev/null || return 1
  printf '{"model": {"arch": "rnn_tiny"}, "train": {"batch_size": 8, "max_steps": 150, "max_epochs": 1000, "lr": 0.005, "seed": 1, "threads": 1, "checkpoint_interval": 0}}\n' > "$dir/cfg.json"
  for _ in 1 2 3; do
    rm -rf "$dir/run"
    t0=$(date +%s%N)
    "$bin/synmt-train" -c "$dir/cfg.json" --train "$dir/d.h5" --valid "$dir/d.h5" --src-vocab "$dir/vs" \
      --tgt-vocab "$dir/vt" -o "$dir/run" > "$dir/train.log" 2>&1 || { tail -3 "$dir/train.log" >&2; return 1; }
    took=$((($(date +%s%N) - t0) / 1000000))
    { [ -z "$best" ] || [ "$took" -lt "$best" ]; } && best=$took
  done
  echo "$best"
}

machine_scale_permille() {  # BIN TMPDIR REF_MS
  local ms
  if [ -n "${SYNMT_MACHINE_SPEED_FILE:-}" ] && [ -s "$SYNMT_MACHINE_SPEED_FILE" ]; then
    ms=$(cat "$SYNMT_MACHINE_SPEED_FILE")
  else
    ms=$(machine_speed_ms "$1" "$2") || return 1
  fi
  [[ "$ms" =~ ^[0-9]+$ ]] || { echo "machine_speed: not a number of milliseconds: '$ms'" >&2; return 1; }
  local scale=$((ms * 1000 / $3))
  [ "$scale" -lt 1000 ] && scale=1000
  [ "$scale" -gt 2500 ] && scale=2500
  echo "$scale $ms"
}

machine_scale_text() {  # SCALE (per mille) -> "1.055"
  printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000))
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then  # run as a script: measure and write the file
  set -euo pipefail
  [ $# -eq 2 ] || { echo "usage: machine_speed.sh BIN OUT_FILE" >&2; exit 2; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  ms=$(machine_speed_ms "$1" "$tmp")
  echo "$ms" > "$2"
  echo "machine speed: $ms ms (the fastest of 3 runs of the fixed workload) -> $2"
fi
