#!/usr/bin/env bash
# Here, after a device call that ran first_light.sh's mini step: puts each finished run that came
# back into its pipeline folder, so that Snakemake takes its training as done and decodes and
# scores it here (docs/reproducing.md, "Mini rows on a lent GPU").
#   FILES_AT     the call's files (the device tool's files_at): RUN.best.pt.partNN, logs.tar.gz
#   SYSTEMS_DIR  the experiment's results/<experiment>/systems
# For each RUN with parts: best.pt = the parts in order, checked against the SHA-256 the GPU
# machine recorded; summary.json, config.json, metrics.jsonl and train.log beside it. A run whose
# folder already holds a best.pt is left alone (say FORCE=1 to replace it).
set -euo pipefail
FILES_AT=${1:?usage: unpack_mini.sh FILES_AT SYSTEMS_DIR}
SYSTEMS=${2:?usage: unpack_mini.sh FILES_AT SYSTEMS_DIR}
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
tar -C "$LOGS" -xzf "$FILES_AT/logs.tar.gz"
shopt -s nullglob
runs=$(for p in "$FILES_AT"/*.best.pt.part00; do basename "$p" .best.pt.part00; done)
[ -n "$runs" ] || { echo "unpack_mini: no RUN.best.pt.part00 in $FILES_AT"; exit 1; }
for run in $runs; do
  src=$LOGS/logs/mini/$run
  dest=$SYSTEMS/$run
  [ -f "$src/summary.json" ] || { echo "unpack_mini: $run: no summary.json in logs.tar.gz (not finished)"; exit 1; }
  [ -d "$dest" ] || { echo "unpack_mini: $run: no folder $dest (let the pipeline write its train_config.json first)"; exit 1; }
  if [ -e "$dest/best.pt" ] && [ "${FORCE:-0}" != 1 ]; then echo "$run: $dest/best.pt exists, left alone"; continue; fi
  cat "$FILES_AT/$run".best.pt.part* > "$dest/best.pt.tmp"
  want=$(awk '{print $1}' "$src/best.pt.sha256")
  got=$(sha256sum "$dest/best.pt.tmp" | awk '{print $1}')
  if [ "$want" != "$got" ]; then rm -f "$dest/best.pt.tmp"; echo "unpack_mini: $run: SHA-256 $got, the GPU machine wrote $want"; exit 1; fi
  cp "$src/summary.json" "$src/config.json" "$src/metrics.jsonl" "$src/train.log" "$dest/"
  mv "$dest/best.pt.tmp" "$dest/best.pt"
  echo "$run: best.pt ($got) and its training records in $dest ($(grep -o '"hardware": "[^"]*"' "$dest/summary.json"))"
done
