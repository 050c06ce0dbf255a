#!/usr/bin/env bash
# Data parallelism over MPI ranks (CPU):
#  1. 2 ranks sharing a batch of 8 sentences end with the same parameters as 1 process with batch 8
#     after 6 Adam steps (dropout off); tolerance 1e-4 absolute (float32 summation order differs);
#     and after 6 plain SGD steps without clipping under each loss normalisation (tolerance 1e-5),
#     which a wrong gradient scale would break.
#  2. A rank killed with SIGKILL in the middle of training makes the whole job exit non-zero
#     within 60 seconds (no hang).
#  3. Exact multi-rank resume: 2 ranks with dropout on, the job SIGKILLed at a random moment, then
#     --resume on 2 ranks: final parameters byte-identical to an uninterrupted 2-rank run (every
#     rank's RNG is in the training state); resuming it on 1 rank is refused.
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

# 1b. The same with plain SGD and no clipping, under both loss normalisations: Adam and clipping
# are invariant to multiplying every gradient by one constant, SGD is not, so a wrong division by
# the global token or sentence count (missing, doubled, per rank) changes the parameters here. The
# two ranks' shares have unequal token counts (sentences of different lengths, dealt alternately).
# The check can fail: the one-process run under one normalisation must differ from the 2-rank run
# under the other (the comparison sees the gradient's scale).
compare() {
  "$PY" - "$1" "$2" "$3" <<'PY'
import sys
import numpy as np
a, b = (np.fromfile(p, dtype=np.float32) for p in sys.argv[1:3])
diff = float(np.abs(a - b).max()) if a.size == b.size and a.size > 0 else float("inf")
print(f"{sys.argv[3]}: max abs difference {diff:.3g}")
sys.exit(0 if diff < 1e-5 else 1)
PY
}
for norm in target_tokens sentences; do
  sed "s/\"lr\": 0.01,/\"lr\": 0.5, \"optimizer\": \"sgd\", \"clip_norm\": 0.0, \"loss_normalisation\": \"$norm\",/" "$T/cfg.json" > "$T/sgd_$norm.json"
  "$BIN/synmt-train" -c "$T/sgd_$norm.json" "${common[@]}" -o "$T/sgd1_$norm" --dist single --dump-params "$T/s1_$norm.bin" 2>/dev/null
  "${MPIRUN[@]}" "$BIN/synmt-train" -c "$T/sgd_$norm.json" "${common[@]}" -o "$T/sgd2_$norm" --dist mpi --dump-params "$T/s2_$norm.bin" 2>/dev/null
  if compare "$T/s1_$norm.bin" "$T/s2_$norm.bin" "SGD, no clipping, $norm: 1 rank x batch 8 vs 2 ranks x 4"
  then passed=$((passed + 1)); else echo "FAIL: SGD parameters differ ($norm)"; failed=$((failed + 1)); fi
done
if compare "$T/s1_target_tokens.bin" "$T/s2_sentences.bin" "SGD, tokens (1 rank) vs sentences (2 ranks), must differ" > "$T/scale.txt"
then echo "FAIL: the SGD comparison cannot see the gradient's scale"; cat "$T/scale.txt"; failed=$((failed + 1))
else passed=$((passed + 1)); cat "$T/scale.txt"; fi

# a rank dies: the job must end, non-zero, within 60 s
sed 's/"max_steps": 6, "max_epochs": 1/"max_steps": 0, "max_epochs": 100000, "max_minutes": 3/' "$T/cfg.json" > "$T/long.json"
"${MPIRUN[@]}" "$BIN/synmt-train" -c "$T/long.json" "${common[@]}" -o "$T/killed" --dist mpi > "$T/kill.log" 2>&1 &
job=$!
# the ranks only: mpirun's own command line names synmt-train and the directory too
ranks_of() { pgrep -f "^$BIN/synmt-train .*-o $1 "; }
for i in $(seq 1 50); do [ "$(ranks_of "$T/killed" | wc -l)" -ge 2 ] && break; sleep 0.2; done
sleep 2
victim=$(ranks_of "$T/killed" | tail -1)
start=$(date +%s)
# the job must still be training when its rank is killed: a job that failed on its own also ends non-zero
if [ -z "$victim" ] || ! kill -0 "$job" 2>/dev/null || ! kill -9 "$victim"; then
  echo "FAIL: no running rank to kill (victim '${victim}'; the job had ended: $(tail -2 "$T/kill.log"))"; failed=$((failed + 1))
  kill -9 "$job" 2>/dev/null; wait "$job" 2>/dev/null
else
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
fi
# exact resume with 2 ranks (dropout on)
cat > "$T/drop.json" <<'JSON'
{"model": {"arch": "rnn_tiny"},
 "train": {"batch_size": 8, "max_steps": 60, "max_epochs": 1000, "lr": 0.005, "seed": 5, "threads": 1,
           "checkpoint_interval": 1}}
JSON
"${MPIRUN[@]}" "$BIN/synmt-train" -c "$T/drop.json" "${common[@]}" -o "$T/full2" --dist mpi --dump-params "$T/f2.bin" 2>/dev/null
"${MPIRUN[@]}" "$BIN/synmt-train" -c "$T/drop.json" "${common[@]}" -o "$T/cut2" --dist mpi --dump-params "$T/c2.bin" > "$T/cut.log" 2>&1 &
job=$!
for i in $(seq 1 200); do [ -s "$T/cut2/state.pt" ] && break; sleep 0.05; done
sleep "0.$((RANDOM % 5))"
alive=$(ranks_of "$T/cut2" | wc -l)
pkill -9 -f "synmt-train.*$T/cut2" ; kill -9 "$job" 2>/dev/null; wait "$job" 2>/dev/null
"${MPIRUN[@]}" "$BIN/synmt-train" -c "$T/drop.json" "${common[@]}" -o "$T/cut2" --dist mpi --resume --dump-params "$T/c2.bin" > "$T/resume2.log" 2>&1
resume_rc=$?
at=$(grep -ho "resuming at .*" "$T/resume2.log" | head -1)
update=$(sed -n 's/.*update \([0-9]*\).*/\1/p' <<< "$at")
echo "${at:-no 'resuming at' line} (ranks alive at the kill: $alive)"
# the kill must have met both ranks mid-way and the resume must start strictly inside the 60 updates
if [ "$alive" -lt 2 ] || [ -z "$update" ] || [ "$update" -le 0 ] || [ "$update" -ge 60 ]; then
  echo "FAIL: the 2-rank run was not killed mid-way, so its resume proves nothing"; failed=$((failed + 1))
elif [ "$resume_rc" -ne 0 ]; then echo "FAIL: the 2-rank resume exited with $resume_rc"; grep -m3 -i "error\|signal" "$T/resume2.log"; failed=$((failed + 1))
elif cmp -s "$T/f2.bin" "$T/c2.bin"; then passed=$((passed + 1)); echo "2 ranks, SIGKILL + --resume: parameters byte-identical"
else echo "FAIL: 2-rank resume differs from the uninterrupted run"; failed=$((failed + 1)); fi
if "$BIN/synmt-train" -c "$T/drop.json" "${common[@]}" -o "$T/cut2" --dist single --resume > "$T/one.log" 2>&1; then
  echo "FAIL: a 2-rank state was resumed on 1 rank"; failed=$((failed + 1))
elif grep -q "saved by 2 rank(s)" "$T/one.log"; then passed=$((passed + 1)); echo "2-rank state on 1 rank: refused"
else echo "FAIL: unexpected message"; tail -2 "$T/one.log"; failed=$((failed + 1)); fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
