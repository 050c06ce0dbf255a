#!/usr/bin/env bash
# The behaviour of every preset in one file, for refactorings that must not change it: for each
# architecture of `synmt-train --list-archs`, shrunk with --tiny, 50 seeded CPU updates on a
# 256-pair Multi30k slice with source syntax (a chain tree per sentence), one thread, dropout as the
# preset has it, and the loss logged at every update; one line per preset with the sha256 of its
# 50 losses and of its final parameters. Run it before and after a change and compare the files:
#   bash scripts/preset_fingerprints.sh build DATA_DIR before.txt   (then again into after.txt)
set -uo pipefail  # no -e: the sourced slice reads `zcat | head`, whose zcat ends on SIGPIPE
BIN=$(cd "$1/bin" && pwd)
DATA=$2
OUT=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/trainer/tiny_data.sh
source "$(dirname "$0")/../tests/trainer/tiny_data.sh"
awk '{for (i = 1; i <= NF; ++i) printf "%d\t%s\t_\t%s\t_\t_\t%d\t%s\t_\t_\n", i, $i, (i % 2 ? "NOUN" : "VERB"), (i == NF ? 0 : i + 1), (i == NF ? "root" : (i % 3 ? "nmod" : "obj")); print ""}' \
  "$T/s.txt" > "$T/s.conllu"
"$BIN/synmt-parse" --backend conllu --conllu "$T/s.conllu" -i "$T/s.txt" -o "$T/s.parse.h5" 2>/dev/null
"$BIN/synmt-binarize" inventory --parse "$T/s.parse.h5" --parse-corpus "$T/s.txt" --labels-out "$T/labels" --upos-out "$T/upos" 2>/dev/null
"$BIN/synmt-binarize" data --src "$T/s.txt" --tgt "$T/t.txt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" --src-parse "$T/s.parse.h5" \
  --src-parse-corpus "$T/s.txt" --src-labels "$T/labels" --src-upos "$T/upos" --subwords none -o "$T/syntax.h5" 2>/dev/null
: > "$OUT"
for arch in $("$BIN/synmt-train" --list-archs | awk '{print $1}'); do
  printf '{"model": {"arch": "%s"}, "train": {"batch_size": 8, "max_steps": 50, "max_epochs": 1000, "lr": 0.003, "seed": 5, "threads": 1, "log_interval": 1, "checkpoint_interval": 0}}\n' \
    "$arch" > "$T/cfg.json"
  rm -rf "$T/run"
  if OMP_NUM_THREADS=1 "$BIN/synmt-train" -c "$T/cfg.json" --tiny --train "$T/syntax.h5" --valid "$T/syntax.h5" --src-vocab "$T/vs" \
       --tgt-vocab "$T/vt" --dist single -o "$T/run" --dump-params "$T/p.bin" > "$T/log" 2>&1; then
    losses=$(grep '"type":"train"' "$T/run/metrics.jsonl" | grep -o '"loss":[^,]*' | sha256sum | cut -c1-16)
    n=$(grep -c '"type":"train"' "$T/run/metrics.jsonl")
    echo "$arch updates $n losses $losses params $(sha256sum < "$T/p.bin" | cut -c1-16)" >> "$OUT"
  else
    echo "$arch FAILED: $(tail -1 "$T/log")" >> "$OUT"
  fi
done
echo "$(wc -l < "$OUT") presets written to $OUT"
