#!/usr/bin/env bash
# Tokenisation: synmt-tok vs sacremoses (MosesTokenizer, escape on) on the same input, timed in
# one run (scripts/bench/common.sh: BENCH_REPS interleaved runs each, ratio of medians):
# Multi30k train En x4 (116k lines). Outputs are compared.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/common.sh  # DATA, T, run_timed, report
for i in 1 2 3 4; do zcat "$DATA/parallel/multi30k-task1/train.en.gz"; done > "$T/in"
cat > "$T/ref.py" <<'PY'
import sys
from sacremoses import MosesTokenizer
mt = MosesTokenizer(lang="en")
for line in open(sys.argv[1], encoding="utf-8"):
    print(mt.tokenize(line.rstrip("\n"), return_str=True, escape=True))
PY
for r in $(seq "$BENCH_REPS"); do
  rm -f "$T/ref" "$T/ours"
  run_timed "$T/t.ref" '.venv/bin/python "$T/ref.py" "$T/in" > "$T/ref"'
  run_timed "$T/t.our" 'build/bin/synmt-tok -l en < "$T/in" > "$T/ours"'
done
echo "lines: $(wc -l < "$T/in"), differing: $(cmp -s "$T/ref" "$T/ours" && echo 0 || diff "$T/ref" "$T/ours" | grep -c '^<')"
report tokenisation sacremoses "$T/t.ref" synmt-tok "$T/t.our"
