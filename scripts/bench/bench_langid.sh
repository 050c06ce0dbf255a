#!/usr/bin/env bash
# Language identification: synmt-langid (2 threads) vs Python langdetect 1.0.9 (seed 0) on the
# same input, timed in one run (scripts/bench/common.sh: BENCH_REPS interleaved runs each, ratio
# of medians): Multi30k train En+De (58k lines). Labels are compared too.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/common.sh  # DATA, T, run_timed, report
{ zcat "$DATA/parallel/multi30k-task1/train.en.gz"; zcat "$DATA/parallel/multi30k-task1/train.de.gz"; } > "$T/lines"
PROFILES=$(.venv/bin/python -c 'import langdetect, os; print(os.path.join(os.path.dirname(langdetect.__file__), "profiles"))')
cat > "$T/ref.py" <<'PY'
import sys
from langdetect import DetectorFactory, detect
DetectorFactory.seed = 0
for line in open(sys.argv[1], encoding="utf-8"):
    try:
        print(detect(line.rstrip("\n")))
    except Exception:
        print("unknown")
PY
for r in $(seq "$BENCH_REPS"); do
  rm -f "$T/py.out" "$T/our.out"
  run_timed "$T/t.ref" '.venv/bin/python "$T/ref.py" "$T/lines" > "$T/py.out"'
  run_timed "$T/t.our" 'build/bin/synmt-langid --seed 0 --profiles "$PROFILES" -i "$T/lines" | cut -f1 > "$T/our.out"'
done
echo "lines: $(wc -l < "$T/lines"), labels differing: $(paste "$T/py.out" "$T/our.out" | awk '$1 != $2' | wc -l)"
report "language identification" langdetect "$T/t.ref" synmt-langid "$T/t.our"
