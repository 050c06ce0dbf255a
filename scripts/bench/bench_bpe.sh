#!/usr/bin/env bash
# BPE learn and apply: synmt-bpe vs subword-nmt 0.3.8 on the same input, timed in one run.
# learn: joint Multi30k train En+De (58k lines), 8000 merges. apply: Multi30k train En+De x4
# (232k lines) with those codes. Outputs are also compared (they must be byte-identical).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-../shared/data}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
M=$DATA/parallel/multi30k-task1
{ zcat "$M/train.en.gz"; zcat "$M/train.de.gz"; } > "$T/joint"
for i in 1 2 3 4; do cat "$T/joint"; done > "$T/big"
now() { date +%s.%N; }
t0=$(now); .venv/bin/subword-nmt learn-bpe -s 8000 < "$T/joint" > "$T/ref.codes" 2>/dev/null; t1=$(now)
build/bin/synmt-bpe learn -s 8000 < "$T/joint" > "$T/our.codes" 2>/dev/null; t2=$(now)
cmp -s "$T/ref.codes" "$T/our.codes" && echo "learn: codes identical" || echo "learn: CODES DIFFER"
t3=$(now); .venv/bin/subword-nmt apply-bpe -c "$T/ref.codes" < "$T/big" > "$T/ref.out"; t4=$(now)
build/bin/synmt-bpe apply -c "$T/ref.codes" < "$T/big" > "$T/our.out"; t5=$(now)
cmp -s "$T/ref.out" "$T/our.out" && echo "apply: output identical" || echo "apply: OUTPUT DIFFERS"
python3 - "$t0" "$t1" "$t2" "$t3" "$t4" "$t5" <<'PY'
import sys
t = list(map(float, sys.argv[1:]))
print(f"learn: subword-nmt {t[1]-t[0]:.2f} s, synmt {t[2]-t[1]:.2f} s, speed-up {(t[1]-t[0])/(t[2]-t[1]):.1f}x")
print(f"apply: subword-nmt {t[4]-t[3]:.2f} s, synmt {t[5]-t[4]:.2f} s, speed-up {(t[4]-t[3])/(t[5]-t[4]):.1f}x")
PY
