#!/usr/bin/env bash
# The conformance suite's process-level property, for every registered preset (shrunk with
# synmt-train --tiny): SIGKILL at a random moment, then --resume, ends with parameters
# byte-identical to an uninterrupted run (dropout on, one thread, 40 updates with a state saved
# every update). The data carries source syntax (a chain tree per sentence, imported as CoNLL-U),
# so presets that read parents or labels train too. A preset added later is covered without
# changing this script. A check counts only when the kill really ended the run (exit 137, a state
# saved before it) and the resume starts strictly between update 0 and the last; otherwise the
# preset is tried again with a longer run (40, 160, 640 updates) and fails if it never was.
# Shown to fail: with `kill -KILL` replaced by nothing, every preset reports "not killed mid-way"
# three times and fails. Prints 'N passed, N failed'.
set -uo pipefail
BIN=$1/bin
DATA=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
passed=0
failed=0
# shellcheck source=tests/trainer/tiny_data.sh
source "$(dirname "$0")/tiny_data.sh"
# a chain tree for each line: word k heads word k+1, the last word is the root
awk '{for (i = 1; i <= NF; ++i) printf "%d\t%s\t_\t%s\t_\t_\t%d\t%s\t_\t_\n", i, $i, (i % 2 ? "NOUN" : "VERB"), (i == NF ? 0 : i + 1), (i == NF ? "root" : (i % 3 ? "nmod" : "obj")); print ""}' \
  "$T/s.txt" > "$T/s.conllu"
"$BIN/synmt-parse" --backend conllu --conllu "$T/s.conllu" -i "$T/s.txt" -o "$T/s.parse.h5" 2> "$T/parse.log" || { cat "$T/parse.log"; exit 1; }
"$BIN/synmt-binarize" inventory --parse "$T/s.parse.h5" --parse-corpus "$T/s.txt" --labels-out "$T/labels" --upos-out "$T/upos" 2>/dev/null
"$BIN/synmt-binarize" data --src "$T/s.txt" --tgt "$T/t.txt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" --src-parse "$T/s.parse.h5" \
  --src-parse-corpus "$T/s.txt" --src-labels "$T/labels" --src-upos "$T/upos" --subwords none -o "$T/syntax.h5" 2> "$T/bin.log" \
  || { cat "$T/bin.log"; exit 1; }
# One attempt: an uninterrupted run of $1 updates, and a run SIGKILLed once its first state exists
# then resumed. Prints the outcome; returns 0 (byte-identical after a real mid-way resume), 1 (a
# failure), 2 (the run was not killed mid-way: it finished first, or no state was written in time).
attempt() {
  local steps=$1
  printf '{"model": {"arch": "%s"}, "train": {"batch_size": 8, "max_steps": %d, "max_epochs": 1000, "lr": 0.003, "seed": 5, "threads": 1, "checkpoint_interval": 1}}\n' \
    "$arch" "$steps" > "$T/cfg.json"
  TRAIN=("$BIN/synmt-train" -c "$T/cfg.json" --tiny --train "$T/syntax.h5" --valid "$T/syntax.h5" --src-vocab "$T/vs"
         --tgt-vocab "$T/vt" --dist single)
  rm -rf "$T/full" "$T/killed" "$T/full.bin" "$T/killed.bin"  # never compare the previous preset's dumps
  "${TRAIN[@]}" -o "$T/full" --dump-params "$T/full.bin" > "$T/full.log" 2>&1 || { echo "FAIL $arch: uninterrupted run"; tail -3 "$T/full.log"; return 1; }
  "${TRAIN[@]}" -o "$T/killed" --dump-params "$T/killed.bin" > "$T/killed.log" 2>&1 &
  local pid=$! i rc
  for i in $(seq 1 400); do [ -s "$T/killed/state.pt" ] && break; sleep 0.02; done
  sleep "0.$((RANDOM % 3))"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid"; rc=$?
  # the kill must have ended the run (137 = SIGKILL), and from a saved state
  if [ "$rc" -ne 137 ] || [ ! -s "$T/killed/state.pt" ]; then echo "$arch: not killed mid-way at $steps updates (exit $rc)"; return 2; fi
  "${TRAIN[@]}" -o "$T/killed" --resume --dump-params "$T/killed.bin" > "$T/resume.log" 2>&1 || { echo "FAIL $arch: resume"; tail -3 "$T/resume.log"; return 1; }
  local at update
  at=$(grep -o "resuming at .*" "$T/resume.log" | head -1)
  update=$(sed -n 's/.*update \([0-9]*\).*/\1/p' <<< "$at")
  if [ -z "$update" ] || [ "$update" -le 0 ] || [ "$update" -ge "$steps" ]; then
    echo "$arch: the resume did not start strictly inside the run (${at:-no 'resuming at' line}, $steps updates)"; return 2
  fi
  if cmp -s "$T/full.bin" "$T/killed.bin"; then echo "$arch: SIGKILL + --resume ($at of $steps): parameters byte-identical"; return 0; fi
  echo "FAIL $arch: parameters differ after SIGKILL + --resume ($at of $steps)"; return 1
}
# the presets as the trainer lists them; none listed (a renamed flag, a crash) is a failure, not 0 of 0
mapfile -t archs < <("$BIN/synmt-train" --list-archs | awk '{print $1}')
if [ "${#archs[@]}" -lt 10 ]; then echo "FAIL: synmt-train --list-archs listed ${#archs[@]} presets"; exit 1; fi
for arch in "${archs[@]}"; do
  result=2
  for steps in 40 160 640; do  # a preset too fast to be killed mid-way gets a longer run, not a pass
    attempt "$steps"; result=$?
    [ "$result" -ne 2 ] && break
  done
  if [ "$result" -eq 0 ]; then passed=$((passed + 1))
  else [ "$result" -eq 2 ] && echo "FAIL $arch: never killed mid-way"; failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
