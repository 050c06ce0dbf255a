#!/usr/bin/env bash
# Decoding speed of two synmt builds on the same checkpoint and input, interleaved (old, new, old,
# ...): beam 5, batches of 50 sentences, the builds' default threads. Prints each run's seconds,
# the medians, old / new, and how many output lines (hypotheses) differ between the two builds.
# usage: scripts/bench/bench_decode_builds.sh OLD_BIN NEW_BIN CHECKPOINT SRC_VOCAB TGT_VOCAB INPUT
#   e.g. the demo systems: results/systems/<system>/best.pt, work/multi30k_en_de/vocab.{src,tgt},
#   work/multi30k_en_de/bpe/test.src. REPS (default 5).
set -euo pipefail
OLD=$1 NEW=$2 CKPT=$3 SV=$4 TV=$5 IN=$6
REPS=${REPS:-5}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() {  # BIN OUT -> seconds
  local start=$EPOCHREALTIME
  "$1/synmt-translate" -m "$CKPT" --src-vocab "$SV" --tgt-vocab "$TV" -i "$IN" -o "$2" --raw -k 5 \
    --batch-size 50 2> "$T/log" || { cat "$T/log" >&2; exit 1; }
  python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$start" "$EPOCHREALTIME"
}
for ((r = 0; r < REPS; ++r)); do
  run "$OLD" "$T/old.out" >> "$T/old.s"
  run "$NEW" "$T/new.out" >> "$T/new.s"
done
python3 - "$T" "$(wc -l < "$IN")" "$CKPT" <<'PY'
import statistics, sys
t, n, ckpt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
old = [float(x) for x in open(f"{t}/old.s")]
new = [float(x) for x in open(f"{t}/new.s")]
a = open(f"{t}/old.out").read().splitlines()
b = open(f"{t}/new.out").read().splitlines()
differ = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
mo, mn = statistics.median(old), statistics.median(new)
print(f"{ckpt}: {n} sentences, beam 5; old {mo:.2f} s ({n / mo:.1f} sent/s), new {mn:.2f} s ({n / mn:.1f} sent/s), "
      f"old/new {mo / mn:.2f} (medians of {len(old)}; old runs {' '.join(map(str, old))}; new runs {' '.join(map(str, new))}); "
      f"hypotheses differing: {differ} of {max(len(a), len(b))}")
PY
