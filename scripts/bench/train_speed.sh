#!/usr/bin/env bash
# Training speed of several model configurations relative to the first, in one run on one machine:
# BENCH_REPS (default 3) interleaved rounds of UPDATES (default 200) updates of each configuration
# on one binarised pair; prints each run's target tokens/s, the medians and first / configuration.
# usage: scripts/bench/train_speed.sh BIN_DIR DATA_DIR TRAIN_JSON NAME=MODEL_JSON [NAME=MODEL_JSON ...]
#   DATA_DIR holds data/train.h5, data/valid.h5, vocab.src, vocab.tgt; TRAIN_JSON is the train
#   block (max_steps, log_interval, threads and the checkpoint/validation intervals are set here).
set -euo pipefail
BIN=$1 DATA=$2 TRAIN=$3
shift 3
REPS=${BENCH_REPS:-3} UPDATES=${UPDATES:-200}
for f in data/train.h5 data/valid.h5 vocab.src vocab.tgt; do
  [ -f "$DATA/$f" ] || { echo "missing $DATA/$f" >&2; exit 2; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
names=()
declare -A models=() speeds=()
for spec in "$@"; do names+=("${spec%%=*}"); models[${spec%%=*}]=${spec#*=}; done
for ((r = 0; r < REPS; ++r)); do
  for name in "${names[@]}"; do
    python3 - "${models[$name]}" "$TRAIN" "$UPDATES" > "$TMP/config.json" <<'PY'
import json, sys
train = json.loads(sys.argv[2])
train.update({"max_steps": int(sys.argv[3]), "log_interval": int(sys.argv[3]), "threads": 2,
              "checkpoint_interval": 0, "valid_interval": 100000})
print(json.dumps({"model": json.loads(sys.argv[1]), "train": train}))
PY
    rm -rf "$TMP/run"
    "$BIN/synmt-train" -c "$TMP/config.json" --train "$DATA/data/train.h5" --valid "$DATA/data/valid.h5" \
      --src-vocab "$DATA/vocab.src" --tgt-vocab "$DATA/vocab.tgt" -o "$TMP/run" 2> "$TMP/run.log" || { cat "$TMP/run.log" >&2; exit 1; }
    s=$(python3 -c "import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if '\"train\"' in l][-1]['tgt_tokens_per_s'])" "$TMP/run/metrics.jsonl")
    speeds[$name]="${speeds[$name]:-} $s"
  done
done
for name in "${names[@]}"; do echo "$name ${speeds[$name]}"; done > "$TMP/speeds.txt"
python3 - "$TMP/speeds.txt" <<'PY'
import statistics, sys
rows = [(l.split()[0], [float(x) for x in l.split()[1:]]) for l in open(sys.argv[1]) if l.strip()]
first = statistics.median(rows[0][1])
print(f"{'configuration':<22} {'tgt tokens/s (each run)':<28} {'median':>8} {rows[0][0] + ' / it':>16}")
for name, v in rows:
    m = statistics.median(v)
    print(f"{name:<22} {' '.join(f'{x:.0f}' for x in v):<28} {m:8.0f} {first / m:16.2f}")
PY
