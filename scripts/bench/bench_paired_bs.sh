#!/usr/bin/env bash
# Paired bootstrap, 1000 resamples, 3000 segments, 8 systems: synmt-score paired-bs vs
# `sacrebleu --paired-bs` on the same input, timed in one run (scripts/bench/common.sh:
# BENCH_REPS interleaved runs each, ratio of medians).
# Input: the 8 WMT22 systems that translated both De->En and En->De; 3000 segments = all 1984
# De->En segments + the first 1016 En->De ones (speed only; statistics are tested elsewhere).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/common.sh  # DATA, T, run_timed, report
W=$DATA/eval/wmt22/generaltest2022
SYSTEMS=(Online-B JDExploreAcademy Lan-Bridge Online-A Online-G Online-W Online-Y PROMT)
for s in "${SYSTEMS[@]}"; do
  { zcat "$W.de-en.hyp.$s.en.gz"; zcat "$W.en-de.hyp.$s.de.gz" | awk 'NR <= 1016'; } > "$T/$s"
done
{ zcat "$W.de-en.ref.A.en.gz"; zcat "$W.en-de.ref.A.de.gz" | awk 'NR <= 1016'; } > "$T/ref"
wc -l < "$T/ref"
OTHERS=$(for s in "${SYSTEMS[@]:1}"; do printf '"%s" ' "$T/$s"; done)
for r in $(seq "$BENCH_REPS"); do
  run_timed "$T/t.ref" ".venv/bin/sacrebleu \"\$T/ref\" -i \"\$T/\${SYSTEMS[0]}\" $OTHERS -m bleu --paired-bs --paired-bs-n 1000 > \"\$T/sacrebleu.out\" 2>/dev/null"
  run_timed "$T/t.our" "build/bin/synmt-score paired-bs -r \"\$T/ref\" --baseline \"\$T/\${SYSTEMS[0]}\" --samples 1000 --threads 2 $OTHERS > \"\$T/synmt.out\""
done
report "paired bootstrap" "sacrebleu --paired-bs" "$T/t.ref" "synmt-score paired-bs" "$T/t.our"
