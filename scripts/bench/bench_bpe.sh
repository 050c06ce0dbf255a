#!/usr/bin/env bash
# BPE learn and apply: synmt-bpe vs subword-nmt 0.3.8 on the same input, timed in one run
# (scripts/bench/common.sh: BENCH_REPS interleaved runs each, ratio of medians).
# learn: joint Multi30k train En+De (58k lines), 8000 merges. apply: Multi30k train En+De x4
# (232k lines) with those codes. Outputs are also compared (they must be byte-identical).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/common.sh  # DATA, T, run_timed, report
M=$DATA/parallel/multi30k-task1
{ zcat "$M/train.en.gz"; zcat "$M/train.de.gz"; } > "$T/joint"
for i in 1 2 3 4; do cat "$T/joint"; done > "$T/big"
for r in $(seq "$BENCH_REPS"); do
  rm -f "$T/ref.codes" "$T/our.codes"
  run_timed "$T/t.learn.ref" '.venv/bin/subword-nmt learn-bpe -s 8000 < "$T/joint" > "$T/ref.codes" 2>/dev/null'
  run_timed "$T/t.learn.our" 'build/bin/synmt-bpe learn -s 8000 < "$T/joint" > "$T/our.codes" 2>/dev/null'
done
cmp -s "$T/ref.codes" "$T/our.codes" && echo "learn: codes identical" || echo "learn: CODES DIFFER"
for r in $(seq "$BENCH_REPS"); do
  rm -f "$T/ref.out" "$T/our.out"  # each run writes a new file, as the first one did
  run_timed "$T/t.apply.ref" '.venv/bin/subword-nmt apply-bpe -c "$T/ref.codes" < "$T/big" > "$T/ref.out"'
  run_timed "$T/t.apply.our" 'build/bin/synmt-bpe apply -c "$T/ref.codes" < "$T/big" > "$T/our.out"'
done
cmp -s "$T/ref.out" "$T/our.out" && echo "apply: output identical" || echo "apply: OUTPUT DIFFERS"
report learn subword-nmt "$T/t.learn.ref" synmt "$T/t.learn.our"
report apply subword-nmt "$T/t.apply.ref" synmt "$T/t.apply.our"
