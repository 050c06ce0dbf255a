#!/usr/bin/env bash
# CPU training speed of two synmt builds (e.g. one on Debian's LibTorch 1.13 and one on PyTorch
# 2.11's) and of the plain PyTorch loop (scripts/bench/gpu/pytorch_transformer_loop.py), on the same
# synthetic batches, interleaved: each round runs every (build, preset) pair once and the loop once
# per Transformer size, so that a slow spell of the machine hits all of them. Prints each run's
# target tokens/s, the medians and the ratios of medians.
# usage: scripts/bench/bench_libtorch_builds.sh OLD_BIN NEW_BIN [PYTHON]
#   OLD_BIN, NEW_BIN: build/bin folders (synmt-train, synmt-binarize); PYTHON: a Python with torch
#   (default .venv/bin/python; "" skips the loop). Knobs: REPS (5), LEN (30 tokens + </s>), VOCAB
#   (8000), STEPS (timed updates, 30), WARMUP (5), PRESETS ("rnn_demo:64 transformer_demo:64
#   transformer_base:16" = preset:batch sentences).
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=$1 NEW=$2 PY=${3-.venv/bin/python}
REPS=${REPS:-5} LEN=${LEN:-30} VOCAB=${VOCAB:-8000} STEPS=${STEPS:-30} WARMUP=${WARMUP:-5}
PRESETS=${PRESETS:-"rnn_demo:64 transformer_demo:64 transformer_base:16"}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
MAXB=0
for p in $PRESETS; do b=${p#*:}; [ "$b" -gt "$MAXB" ] && MAXB=$b; done
# one epoch covers every update
bash scripts/bench/synthetic_data.sh "$NEW" "$T" $((MAXB * (STEPS + WARMUP + 5))) 16 "$LEN" "$VOCAB"

# synmt BIN PRESET BATCH -> mean target tokens/s of the windows after the warm-up one
synmt() {
  cat > "$T/config.json" <<JSON
{"model": {"arch": "$2"},
 "train": {"batch_size": $3, "max_len": $((LEN + 1)), "max_steps": $((STEPS + WARMUP)), "max_epochs": 1,
           "log_interval": $WARMUP, "checkpoint_interval": 0, "valid_interval": 1000000,
           "optimizer": "adam", "lr": 0.0001, "label_smoothing": 0.1, "clip_norm": 5.0,
           "halve_lr_on_plateau": false}}
JSON
  rm -rf "$T/run"
  "$1/synmt-train" -c "$T/config.json" --train "$T/train.h5" --valid "$T/valid.h5" --src-vocab "$T/src.vocab" \
    --tgt-vocab "$T/tgt.vocab" -o "$T/run" --dist single 2> "$T/train.log" || { cat "$T/train.log" >&2; exit 1; }
  python3 - "$T/run/metrics.jsonl" <<'PY'
import json, sys
rows = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "train"]
timed = rows[1:]
print(sum(r["tgt_tokens_per_s"] for r in timed) / len(timed))
PY
}
loop() {  # SIZE BATCH
  "$PY" scripts/bench/gpu/pytorch_transformer_loop.py --src-vocab "$(wc -l < "$T/src.vocab")" \
    --tgt-vocab "$(wc -l < "$T/tgt.vocab")" --batch-size "$2" --src-len $((LEN + 1)) --tgt-len $((LEN + 1)) \
    --steps "$STEPS" --warmup "$WARMUP" --device cpu --precision fp32 --size "$1" |
    python3 -c "import json,sys; print(json.load(sys.stdin)['tgt_tokens_per_s'])"
}
echo "old: $("$OLD/synmt-train" --version 2>/dev/null || echo "$OLD")" >&2
for ((r = 1; r <= REPS; ++r)); do
  for p in $PRESETS; do
    preset=${p%:*} batch=${p#*:}
    echo "$preset old $(synmt "$OLD" "$preset" "$batch")" >> "$T/speeds"
    echo "$preset new $(synmt "$NEW" "$preset" "$batch")" >> "$T/speeds"
    case $preset in
      transformer_base | transformer_demo)
        [ -n "$PY" ] && echo "$preset pytorch $(loop "${preset#transformer_}" "$batch")" >> "$T/speeds" ;;
    esac
  done
  echo "round $r of $REPS done" >&2
done
grep -m1 "runtime:" "$T/train.log" >&2 || true
python3 - "$T/speeds" "$PRESETS" "$LEN" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    preset, side, speed = line.split()
    runs[preset, side].append(float(speed))
print(f"target tokens/s, batches of sentences x {int(sys.argv[3]) + 1} target tokens, medians of {len(next(iter(runs.values())))} interleaved runs")
print(f"{'preset':<18} {'batch':>5} {'old':>8} {'new':>8} {'PyTorch':>8} {'new/old':>8} {'new/PyTorch':>12}  runs (old | new | PyTorch)")
for p in sys.argv[2].split():
    preset, batch = p.split(":")
    m = {s: statistics.median(runs[preset, s]) for s in ("old", "new", "pytorch") if runs[preset, s]}
    per = " | ".join(" ".join(f"{x:.0f}" for x in runs[preset, s]) for s in ("old", "new", "pytorch") if runs[preset, s])
    ref = f"{m['pytorch']:8.0f}" if "pytorch" in m else f"{'-':>8}"
    ratio = f"{m['new'] / m['pytorch']:12.2f}" if "pytorch" in m else f"{'-':>12}"
    print(f"{preset:<18} {batch:>5} {m['old']:8.0f} {m['new']:8.0f} {ref} {m['new'] / m['old']:8.2f} {ratio}  {per}")
PY
