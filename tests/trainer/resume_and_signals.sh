#!/usr/bin/env bash
# Preemption and exact resume on CPU (one process, one thread, dropout on):
#  1. SIGKILL at a random moment, then --resume: the final parameters are byte-identical to an
#     uninterrupted run (120 updates crossing an epoch boundary with validation).
#  2. SIGTERM: the job saves its training state and exits 143; --resume then also ends
#     byte-identical to the uninterrupted run.
#  Each counts only when the signal ended the run (137 / 143, a state on disk) and the resume
#  starts strictly between update 0 and 120; a run that finished before the signal fails.
#  3. best.pt deleted after a run (as Snakemake deletes a failed job's outputs): --resume puts the
#     same best weights back from the training state.
#  4. --resume with a state of another configuration, or of the same configuration over other data,
#     sets it aside and trains afresh; another thread count (a requeue onto another node) is the
#     same configuration and resumes.
#  5. a run that reached its epoch cap, resumed with a higher cap, trains the further epochs and
#     ends byte-identical to a run with the higher cap from the start.
#  6. a config with "extends": RUN_DIR carries on that run in its own directory under a higher cap:
#     byte-identical to the cap-3 run, with the extended run's metrics and best weights carried
#     over; a config that trains another computation is refused, naming the state.
# Prints 'N passed, N failed'.
set -uo pipefail
BIN=$1/bin
DATA=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
passed=0
failed=0
# shellcheck source=tests/trainer/tiny_data.sh
source "$(dirname "$0")/tiny_data.sh"
cat > "$T/cfg.json" <<'JSON'
{"model": {"arch": "rnn_tiny"},
 "train": {"batch_size": 8, "max_steps": 120, "max_epochs": 1000, "lr": 0.005, "seed": 5, "threads": 1,
           "checkpoint_interval": 1}}
JSON
TRAIN=("$BIN/synmt-train" -c "$T/cfg.json" --train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt" --dist single)
train() { "${TRAIN[@]}" "$@"; }
# Runs that get a signal start from the array, not the function: `function &` is a bash subshell
# whose pid is not synmt-train's, and a signal to it would leave synmt-train running.
train -o "$T/full" --dump-params "$T/full.bin" 2>/dev/null || { echo "uninterrupted run failed"; exit 1; }

for sig in KILL TERM; do
  out="$T/run_$sig"
  "${TRAIN[@]}" -o "$out" --dump-params "$T/$sig.bin" > "$T/$sig.log" 2>&1 &
  pid=$!
  for i in $(seq 1 100); do [ -s "$out/state.pt" ] && break; sleep 0.05; done
  sleep "0.$((RANDOM % 5))"
  kill -"$sig" "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  # the signal must have ended the run: 137 for SIGKILL, 143 for SIGTERM (state saved, then the
  # signal's own exit status); a run that finished first (0) proves nothing and fails
  expected=$([ "$sig" = KILL ] && echo 137 || echo 143)
  if [ "$rc" -ne "$expected" ]; then
    echo "FAIL: SIG$sig gave exit $rc, expected $expected (the run must end by the signal, mid-way)"; failed=$((failed + 1)); continue
  fi
  [ -s "$out/state.pt" ] || { echo "FAIL: no state after SIG$sig"; failed=$((failed + 1)); continue; }
  # 143 is also what a plain kill by SIGTERM gives, and a state from the last update is on disk
  # anyway (checkpoint_interval 1): the handler's own line shows it saved the state on the signal
  if [ "$sig" = TERM ] && ! grep -q "signal 15: training state saved to $out/state.pt" "$T/$sig.log"; then
    echo "FAIL: SIGTERM: no 'signal 15: training state saved' line"; tail -3 "$T/$sig.log"; failed=$((failed + 1)); continue
  fi
  echo "SIG$sig: first run exited $rc ($(grep -o 'update [0-9]*' "$T/$sig.log" | tail -1))"
  train -o "$out" --resume --dump-params "$T/$sig.bin" > "$T/$sig.resume.log" 2>&1 || { echo "FAIL: resume after SIG$sig failed"; cat "$T/$sig.resume.log"; failed=$((failed + 1)); continue; }
  at=$(grep -ho "resuming at .*" "$T/$sig.resume.log" | head -1)
  update=$(sed -n 's/.*update \([0-9]*\).*/\1/p' <<< "$at")
  echo "${at:-no 'resuming at' line}"
  if [ -z "$update" ] || [ "$update" -le 0 ] || [ "$update" -ge 120 ]; then
    echo "FAIL: after SIG$sig the resume did not start strictly inside the run"; failed=$((failed + 1)); continue
  fi
  if cmp -s "$T/full.bin" "$T/$sig.bin"; then passed=$((passed + 1)); echo "SIG$sig + --resume: parameters byte-identical"
  else echo "FAIL: parameters differ after SIG$sig + --resume"; failed=$((failed + 1)); fi
done
# best.pt removed by the workflow manager comes back, byte-identical, from the training state
out="$T/run_TERM"
if [ -s "$out/best.pt" ]; then
  cp "$out/best.pt" "$T/best.before" && rm "$out/best.pt"
  if train -o "$out" --resume > "$T/best.log" 2>&1 && grep -q "restored from" "$T/best.log" && cmp -s "$T/best.before" "$out/best.pt"; then
    passed=$((passed + 1)); echo "deleted best.pt: restored from the training state, byte-identical"
  else
    echo "FAIL: deleted best.pt not restored on --resume"; tail -3 "$T/best.log"; failed=$((failed + 1))
  fi
else
  echo "FAIL: the SIGTERM run left no best.pt"; failed=$((failed + 1))
fi
# a state left by another configuration is set aside, not resumed from
sed 's/"lr": 0.005/"lr": 0.004/' "$T/cfg.json" > "$T/other.json"
if "$BIN/synmt-train" -c "$T/other.json" --train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt" \
     --dist single -o "$T/full" --resume > "$T/stale.log" 2>&1 && grep -q "moved to state.pt.stale" "$T/stale.log" \
     && [ -s "$T/full/state.pt.stale" ]; then
  passed=$((passed + 1)); echo "state of another config: set aside, trained afresh"
else
  echo "FAIL: stale state handling"; tail -3 "$T/stale.log"; failed=$((failed + 1))
fi
# threads say how to run, not what to compute: a requeue with another core count resumes
if train -o "$T/run_KILL" --resume --set train.threads=2 > "$T/threads.log" 2>&1 && grep -q "resuming at" "$T/threads.log" \
     && [ ! -e "$T/run_KILL/state.pt.stale" ]; then
  passed=$((passed + 1)); echo "another thread count: resumed ($(grep -o 'resuming at.*' "$T/threads.log"))"
else
  echo "FAIL: a resume with another thread count did not resume"; tail -3 "$T/threads.log"; failed=$((failed + 1))
fi
# the same configuration over other data (here one training pair fewer; on a new machine, the
# corpus parsed by a parser trained there) is another run: its state is set aside
head -255 "$T/s.txt" > "$T/s2.txt" && head -255 "$T/t.txt" > "$T/t2.txt"
"$BIN/synmt-binarize" data --src "$T/s2.txt" --tgt "$T/t2.txt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" -o "$T/d2.h5" 2>/dev/null
cp -r "$T/run_KILL" "$T/run_data"
if "$BIN/synmt-train" -c "$T/cfg.json" --train "$T/d2.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt" \
     --dist single -o "$T/run_data" --resume > "$T/data.log" 2>&1 && grep -q "other data.*moved to state.pt.stale" "$T/data.log" \
     && [ -s "$T/run_data/state.pt.stale" ] && grep -q '"train_sha256"' "$T/run_data/config.json"; then
  passed=$((passed + 1)); echo "state of other data: set aside, trained afresh"
else
  echo "FAIL: a state of other data was not set aside"; tail -3 "$T/data.log"; failed=$((failed + 1))
fi
# an epoch cap raised after the run reached it: the resume trains the further epochs only and ends
# byte-identical to a run with the higher cap from the start
train -o "$T/cap3" --set train.max_steps=0 --set train.max_epochs=3 --dump-params "$T/cap3.bin" > /dev/null 2>&1
train -o "$T/cap2" --set train.max_steps=0 --set train.max_epochs=2 > /dev/null 2>&1
if train -o "$T/cap2" --resume --set train.max_steps=0 --set train.max_epochs=3 --dump-params "$T/cap2to3.bin" > "$T/cap.log" 2>&1 \
     && grep -q "resuming at epoch 3, batch 0" "$T/cap.log" && [ -s "$T/cap3.bin" ] && cmp -s "$T/cap3.bin" "$T/cap2to3.bin"; then
  passed=$((passed + 1)); echo "epoch cap 2 raised to 3: resumed at epoch 3, parameters byte-identical to a cap-3 run"
else
  echo "FAIL: raising the epoch cap: $(grep -o 'resuming at.*\|moved to.*' "$T/cap.log" | head -1)"; tail -3 "$T/cap.log"; failed=$((failed + 1))
fi
# "extends": the cap-2 run carried on in another directory (the extended run itself untouched)
train -o "$T/base2" --set train.max_steps=0 --set train.max_epochs=2 > /dev/null 2>&1
sed "s|^{\"model\"|{\"extends\": \"$T/base2\", \"model\"|" "$T/cfg.json" > "$T/ext.json"
base_lines=$(wc -l < "$T/base2/metrics.jsonl")
base_sum=$(sha256sum < "$T/base2/state.pt")
if "$BIN/synmt-train" -c "$T/ext.json" --train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt" --dist single \
     -o "$T/ext3" --set train.max_steps=0 --set train.max_epochs=3 --dump-params "$T/ext3.bin" > "$T/ext.log" 2>&1 \
     && grep -q "extending $T/base2" "$T/ext.log" && grep -q "resuming at epoch 3, batch 0" "$T/ext.log" \
     && cmp -s "$T/cap3.bin" "$T/ext3.bin" && [ -s "$T/ext3/best.pt" ] \
     && [ "$(wc -l < "$T/ext3/metrics.jsonl")" -gt "$base_lines" ] && [ "$(sha256sum < "$T/base2/state.pt")" = "$base_sum" ]; then
  passed=$((passed + 1)); echo "extends: the cap-2 run carried on to cap 3 in its own directory, byte-identical to a cap-3 run"
else
  echo "FAIL: extends"; tail -3 "$T/ext.log"; failed=$((failed + 1))
fi
# the best checkpoint is carried over too: extended with nothing left to train (the same cap), the
# new directory's best.pt is the extended run's own (the extension cannot have written one itself)
if "$BIN/synmt-train" -c "$T/ext.json" --train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt" --dist single \
     -o "$T/ext2" --set train.max_steps=0 --set train.max_epochs=2 > "$T/ext2.log" 2>&1 \
     && [ -s "$T/base2/best.pt" ] && cmp -s "$T/base2/best.pt" "$T/ext2/best.pt"; then
  passed=$((passed + 1)); echo "extends: the extended run's best.pt carried over byte-identical"
else
  echo "FAIL: extends did not carry over best.pt"; tail -3 "$T/ext2.log"; failed=$((failed + 1))
fi
sed 's/"lr": 0.005/"lr": 0.004/' "$T/ext.json" > "$T/ext_other.json"
if ! "$BIN/synmt-train" -c "$T/ext_other.json" --train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt" --dist single \
     -o "$T/ext_other" --set train.max_steps=0 --set train.max_epochs=3 > "$T/ext_other.log" 2>&1 \
     && grep -q "$T/base2/state.pt.*another computation" "$T/ext_other.log" && [ ! -e "$T/ext_other/state.pt" ]; then
  passed=$((passed + 1)); echo "extends with another lr: refused, naming the state"
else
  echo "FAIL: extends of another computation was not refused"; tail -3 "$T/ext_other.log"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
