#!/usr/bin/env bash
# The conformance suite's process-level property, for every registered preset (shrunk with
# synmt-train --tiny): SIGKILL at a random moment, then --resume, ends with parameters
# byte-identical to an uninterrupted run (dropout on, one thread, 40 updates with a state saved
# every update). The data carries source syntax (a chain tree per sentence, imported as CoNLL-U),
# so presets that read parents or labels train too. A preset added later is covered without
# changing this script. Prints 'N passed, N failed'.
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
for arch in $("$BIN/synmt-train" --list-archs | awk '{print $1}'); do
  printf '{"model": {"arch": "%s"}, "train": {"batch_size": 8, "max_steps": 40, "max_epochs": 1000, "lr": 0.003, "seed": 5, "threads": 1, "checkpoint_interval": 1}}\n' \
    "$arch" > "$T/cfg.json"
  TRAIN=("$BIN/synmt-train" -c "$T/cfg.json" --tiny --train "$T/syntax.h5" --valid "$T/syntax.h5" --src-vocab "$T/vs"
         --tgt-vocab "$T/vt" --dist single)
  train() { "${TRAIN[@]}" "$@"; }  # the killed run starts from the array: `function &` would be a bash subshell
  rm -rf "$T/full" "$T/killed"
  train -o "$T/full" --dump-params "$T/full.bin" > "$T/full.log" 2>&1 || { echo "FAIL $arch: uninterrupted run"; tail -3 "$T/full.log"; failed=$((failed + 1)); continue; }
  "${TRAIN[@]}" -o "$T/killed" --dump-params "$T/killed.bin" > "$T/killed.log" 2>&1 &
  pid=$!
  for i in $(seq 1 200); do [ -s "$T/killed/state.pt" ] && break; sleep 0.02; done
  sleep "0.$((RANDOM % 3))"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid"
  train -o "$T/killed" --resume --dump-params "$T/killed.bin" > "$T/resume.log" 2>&1 || { echo "FAIL $arch: resume"; tail -3 "$T/resume.log"; failed=$((failed + 1)); continue; }
  at=$(grep -o "resuming at .*" "$T/resume.log" || echo "finished before the kill")
  if cmp -s "$T/full.bin" "$T/killed.bin"; then passed=$((passed + 1)); echo "$arch: SIGKILL + --resume ($at): parameters byte-identical"
  else echo "FAIL $arch: parameters differ after SIGKILL + --resume ($at)"; failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
