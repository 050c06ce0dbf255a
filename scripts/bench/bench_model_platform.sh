#!/usr/bin/env bash
# The model-platform refactor against the code before it, on the demo data (Multi30k En-De,
# binarised by the DAG): for both demo presets,
#  1. 50 seeded updates: per-update training losses of the two builds, compared exactly;
#  2. training tokens/s: BENCH_REPS (default 5) interleaved runs of UPDATES (default 200) updates
#     of each build; the ratio of the medians (new / old) with every run's figure.
# usage: scripts/bench/bench_model_platform.sh OLD_BIN_DIR NEW_BIN_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=$1 NEW=$2
REPS=${BENCH_REPS:-5} UPDATES=${UPDATES:-200}
DATA=work/multi30k_en_de
for f in data/train.h5 data/valid.h5 vocab.src vocab.tgt; do
  [ -f "$DATA/$f" ] || { echo "missing $DATA/$f: run '.venv/bin/snakemake --profile cluster/local $DATA/data/train.h5 $DATA/data/valid.h5' first" >&2; exit 2; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

run() {  # bin arch batch-options steps log_interval out
  local bin=$1 arch=$2 batch=$3 steps=$4 interval=$5 out=$6
  printf '{"model": {"arch": "%s"}, "train": {%s, "max_epochs": 1, "max_steps": %d, "log_interval": %d, "lr": 0.0005, "seed": 7, "threads": 2, "checkpoint_interval": 0, "valid_bleu": false}}\n' \
    "$arch" "$batch" "$steps" "$interval" > "$TMP/config.json"
  rm -rf "$out"
  "$bin/synmt-train" -c "$TMP/config.json" --train $DATA/data/train.h5 --valid $DATA/data/valid.h5 \
    --src-vocab $DATA/vocab.src --tgt-vocab $DATA/vocab.tgt -o "$out" 2> "$out.log" || { cat "$out.log" >&2; exit 1; }
}

for spec in 'rnn_demo|"batch_size": 64' 'transformer_demo|"max_tokens": 2000'; do
  arch=${spec%%|*} batch=${spec#*|}
  run "$OLD" "$arch" "$batch" 50 1 "$TMP/old"
  run "$NEW" "$arch" "$batch" 50 1 "$TMP/new"
  python3 - "$arch" "$TMP/old/metrics.jsonl" "$TMP/new/metrics.jsonl" <<'PY'
import json, sys
arch, a, b = sys.argv[1:]
la = [json.loads(l)["loss"] for l in open(a) if '"train"' in l]
lb = [json.loads(l)["loss"] for l in open(b) if '"train"' in l]
assert len(la) == len(lb) == 50, (len(la), len(lb))
same = sum(x == y for x, y in zip(la, lb))
rel = max(abs(x - y) / abs(x) for x, y in zip(la, lb))
print(f"{arch}: 50 updates, {same}/50 losses bit-identical, max relative difference {rel:.3g}, first {la[0]:.6f} last {la[-1]:.6f}")
PY
  [ "$REPS" -gt 0 ] || continue
  old_speeds=() new_speeds=()
  for ((r = 0; r < REPS; ++r)); do
    for side in old new; do
      bin=$OLD; [ $side = new ] && bin=$NEW
      run "$bin" "$arch" "$batch" "$UPDATES" "$UPDATES" "$TMP/$side"
      speed=$(python3 -c "import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if '\"train\"' in l][-1]['tgt_tokens_per_s'])" "$TMP/$side/metrics.jsonl")
      if [ $side = old ]; then old_speeds+=("$speed"); else new_speeds+=("$speed"); fi
    done
  done
  python3 - "$arch" "${old_speeds[*]}" "${new_speeds[*]}" <<'PY'
import statistics, sys
arch, old, new = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
print(f"{arch}: tgt tokens/s old {' '.join(f'{x:.0f}' for x in old)} | new {' '.join(f'{x:.0f}' for x in new)}")
print(f"{arch}: ratio of medians new/old = {statistics.median(new) / statistics.median(old):.4f}")
PY
done
