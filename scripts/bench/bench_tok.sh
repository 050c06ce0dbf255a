#!/usr/bin/env bash
# Tokenisation: synmt-tok vs sacremoses (MosesTokenizer, escape on) on the same input, timed in
# one run: Multi30k train En x4 (116k lines). Outputs are compared.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-../shared/data}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for i in 1 2 3 4; do zcat "$DATA/parallel/multi30k-task1/train.en.gz"; done > "$T/in"
now() { date +%s.%N; }
t0=$(now)
.venv/bin/python - "$T/in" > "$T/ref" <<'PY'
import sys
from sacremoses import MosesTokenizer
mt = MosesTokenizer(lang="en")
for line in open(sys.argv[1], encoding="utf-8"):
    print(mt.tokenize(line.rstrip("\n"), return_str=True, escape=True))
PY
t1=$(now)
build/bin/synmt-tok -l en < "$T/in" > "$T/ours"
t2=$(now)
echo "lines: $(wc -l < "$T/in"), differing: $(cmp -s "$T/ref" "$T/ours" && echo 0 || diff "$T/ref" "$T/ours" | grep -c '^<')"
python3 - "$t0" "$t1" "$t2" <<'PY'
import sys
t0, t1, t2 = map(float, sys.argv[1:])
print(f"sacremoses {t1 - t0:.2f} s, synmt-tok {t2 - t1:.2f} s, speed-up {(t1 - t0) / (t2 - t1):.1f}x")
PY
