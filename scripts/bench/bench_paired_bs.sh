#!/usr/bin/env bash
# Paired bootstrap, 1000 resamples, 3000 segments, 8 systems: synmt-score paired-bs vs
# `sacrebleu --paired-bs` on the same input, timed in one run; prints the ratio.
# Input: the 8 WMT22 systems that translated both De->En and En->De; 3000 segments = all 1984
# De->En segments + the first 1016 En->De ones (speed only; statistics are tested elsewhere).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-../shared/data}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
W=$DATA/eval/wmt22/generaltest2022
SYSTEMS=(Online-B JDExploreAcademy Lan-Bridge Online-A Online-G Online-W Online-Y PROMT)
for s in "${SYSTEMS[@]}"; do
  { zcat "$W.de-en.hyp.$s.en.gz"; zcat "$W.en-de.hyp.$s.de.gz" | awk 'NR <= 1016'; } > "$T/$s"
done
{ zcat "$W.de-en.ref.A.en.gz"; zcat "$W.en-de.ref.A.de.gz" | awk 'NR <= 1016'; } > "$T/ref"
wc -l < "$T/ref"
now() { date +%s.%N; }
t0=$(now)
.venv/bin/sacrebleu "$T/ref" -i "$T/${SYSTEMS[0]}" $(for s in "${SYSTEMS[@]:1}"; do echo "$T/$s"; done) \
  -m bleu --paired-bs --paired-bs-n 1000 > "$T/sacrebleu.out" 2>/dev/null
t1=$(now)
build/bin/synmt-score paired-bs -r "$T/ref" --baseline "$T/${SYSTEMS[0]}" --samples 1000 --threads 2 \
  $(for s in "${SYSTEMS[@]:1}"; do echo "$T/$s"; done) > "$T/synmt.out"
t2=$(now)
python3 - "$t0" "$t1" "$t2" <<'PY'
import sys
t0, t1, t2 = map(float, sys.argv[1:])
print(f"sacrebleu --paired-bs: {t1 - t0:.2f} s; synmt-score paired-bs: {t2 - t1:.2f} s; speed-up {(t1 - t0) / (t2 - t1):.1f}x")
PY
