#!/usr/bin/env bash
# Language identification: synmt-langid (2 threads) vs Python langdetect 1.0.9 (seed 0) on the
# same input, timed in one run: Multi30k train En+De (58k lines). Labels are compared too.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-../shared/data}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
{ zcat "$DATA/parallel/multi30k-task1/train.en.gz"; zcat "$DATA/parallel/multi30k-task1/train.de.gz"; } > "$T/lines"
PROFILES=$(.venv/bin/python -c 'import langdetect, os; print(os.path.join(os.path.dirname(langdetect.__file__), "profiles"))')
now() { date +%s.%N; }
t0=$(now)
.venv/bin/python - "$T/lines" > "$T/py.out" <<'PY'
import sys
from langdetect import DetectorFactory, detect
DetectorFactory.seed = 0
for line in open(sys.argv[1], encoding="utf-8"):
    try:
        print(detect(line.rstrip("\n")))
    except Exception:
        print("unknown")
PY
t1=$(now)
build/bin/synmt-langid --seed 0 --profiles "$PROFILES" -i "$T/lines" | cut -f1 > "$T/our.out"
t2=$(now)
echo "lines: $(wc -l < "$T/lines"), labels differing: $(paste "$T/py.out" "$T/our.out" | awk '$1 != $2' | wc -l)"
python3 - "$t0" "$t1" "$t2" <<'PY'
import sys
t0, t1, t2 = map(float, sys.argv[1:])
print(f"langdetect {t1 - t0:.2f} s, synmt-langid {t2 - t1:.2f} s, speed-up {(t1 - t0) / (t2 - t1):.1f}x")
PY
