#!/usr/bin/env bash
# Data parallelism over MPI ranks (CPU):
#  1. 2 ranks sharing a batch of 8 sentences end with the same parameters as 1 process with batch 8
#     after 6 Adam steps (dropout off); tolerance 1e-4 absolute (float32 summation order differs).
#  2. A rank killed with SIGKILL in the middle of training makes the whole job exit non-zero
#     within 60 seconds (no hang).
# Prints 'N passed, N failed'.
set -uo pipefail
BIN=$1/bin
DATA=$2
PY=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 2)
passed=0
failed=0
# shellcheck source=tests/trainer/tiny_data.sh
source "$(dirname "$0")/tiny_data.sh"
cat > "$T/cfg.json" <<'JSON'
{"model": {"arch": "rnn_tiny", "options": {"dropout": 0.0}},
 "train": {"batch_size": 8, "max_steps": 6, "max_epochs": 1, "lr": 0.01, "label_smoothing": 0.0, "seed": 3,
           "threads": 1, "halve_lr_on_plateau": false}}
JSON
common=(--train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt")
"$BIN/synmt-train" -c "$T/cfg.json" "${common[@]}" -o "$T/one" --dist single --dump-params "$T/p1.bin" 2>/dev/null
"${MPIRUN[@]}" "$BIN/synmt-train" -c "$T/cfg.json" "${common[@]}" -o "$T/two" --dist mpi --dump-params "$T/p2.bin" 2>/dev/null
if "$PY" - "$T/p1.bin" "$T/p2.bin" <<'PY'
import sys
import numpy as np
a, b = (np.fromfile(p, dtype=np.float32) for p in sys.argv[1:3])
diff = float(np.abs(a - b).max()) if a.size == b.size and a.size > 0 else float("inf")
print(f"1 rank x batch 8 vs 2 ranks x 4: {a.size} parameters, max abs difference {diff:.3g}")
sys.exit(0 if diff < 1e-4 else 1)
PY
then passed=$((passed + 1)); else echo "FAIL: parameters differ"; failed=$((failed + 1)); fi

# a rank dies: the job must end, non-zero, within 60 s
sed 's/"max_steps": 6, "max_epochs": 1/"max_steps": 0, "max_epochs": 100000, "max_minutes": 3/' "$T/cfg.json" > "$T/long.json"
"${MPIRUN[@]}" "$BIN/synmt-train" -c "$T/long.json" "${common[@]}" -o "$T/killed" --dist mpi > "$T/kill.log" 2>&1 &
job=$!
for i in $(seq 1 50); do [ "$(pgrep -f "synmt-train.*$T/killed" | wc -l)" -ge 2 ] && break; sleep 0.2; done
sleep 2
victim=$(pgrep -f "synmt-train.*$T/killed" | tail -1)
start=$(date +%s)
kill -9 "$victim"
rc=0
for i in $(seq 1 600); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$job" 2>/dev/null; then
  echo "FAIL: job still running 60 s after a rank was killed"; kill -9 "$job"; pkill -9 -f "synmt-train.*$T/killed"; failed=$((failed + 1))
else
  wait "$job"; rc=$?
  took=$(( $(date +%s) - start ))
  if [ "$rc" -ne 0 ]; then passed=$((passed + 1)); echo "killed rank: job exited with $rc after ${took} s"
  else echo "FAIL: job exited 0 after a rank was killed"; failed=$((failed + 1)); fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
