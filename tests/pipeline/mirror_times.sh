#!/usr/bin/env bash
# Mirror files are read-only data whose times say nothing: a mirror copied anew (new times, the
# same bytes) must not make Snakemake redo what was built from it. A real run of a torch-free rule
# that reads a mirror treebank (treebank_text: the gold trees' words), then the treebank gets a
# newer time: the dry run must have nothing to do (without the ancient() of treebank_file and
# gold_treebank it plans treebank_text again). Then the file removed: while its products exist
# nothing is redone (a mirror file is an input, not a product to keep); once a product is missing
# too, Snakemake fetches the treebank again (fetch_treebank) before rebuilding it. (Until
# 2026-11-28 this step grepped for 'fetch_treebank' anywhere in the log, which Snakemake's note
# "Rules with missing metadata: fetch_treebank" satisfied although nothing was planned.)
set -euo pipefail
VENV=$1
BUILD=$2
DATA=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
tb=ud/UD_English-PUD/en_pud-ud-test.conllu.gz
mkdir -p "$T/mirror/$(dirname $tb)"
cp "$DATA/$tb" "$T/mirror/$tb"
cat > "$T/config.yaml" <<YAML
bin_dir: $BUILD/bin
mirror: $T/mirror
work_dir: $T/work
results_dir: $T/results
pairs:
  pud_words:
    corpus: multi30k-task1
    src: en
    tgt: de
    splits: {train: train, valid: valid, test: test_2016_flickr}
    slice: 200
    tokenizer: moses
    clean: {min: 1, max: 80, ratio: 9.0}
    bpe: {mode: joint, merges: 200, min_frequency: 2}
    vocab: {min_frequency: 1, max_size: 0}
    gold_trees:
      - {split: pud, src: $tb, lowercase: true}
YAML
# Snakemake forgives a newer time when the file's checksum is the one recorded, but only for files
# under --max-checksum-file-size (1 MB): EWT's training set is 2.6 MB. A limit of 1 byte makes the
# small PUD file behave as a large one.
SM=("$VENV/bin/snakemake" --nolock --cores 1 --max-checksum-file-size 1 --configfile pipeline/config/config.yaml "$T/config.yaml")
target="$T/work/pud_words/tok/pud.src"
"${SM[0]}" "$target" "${SM[@]:1}" > "$T/run.log" 2>&1 || { grep -m3 -iE "error|failed" "$T/run.log"; tail -30 "$T/run.log"; exit 1; }
[ -s "$target" ] || { echo "FAIL: $target not built"; exit 1; }
touch -d "+1 hour" "$T/mirror/$tb"
"${SM[0]}" "$target" "${SM[@]:1}" -n > "$T/dry.log" 2>&1 || { tail -30 "$T/dry.log"; exit 1; }
if ! grep -q "Nothing to be done" "$T/dry.log"; then
  echo "FAIL: a mirror treebank with a newer time makes Snakemake redo its products:"; grep -i "reason" "$T/dry.log" | head -5; exit 1
fi
echo "newer mirror time: nothing to be done"
rm "$T/mirror/$tb"
"${SM[0]}" "$target" "${SM[@]:1}" -n > "$T/missing.log" 2>&1 || { tail -20 "$T/missing.log"; exit 1; }
if ! grep -q "Nothing to be done" "$T/missing.log"; then
  echo "FAIL: a missing mirror treebank makes Snakemake redo products that exist:"; tail -20 "$T/missing.log"; exit 1
fi
rm "$target"
"${SM[0]}" "$target" "${SM[@]:1}" -n > "$T/missing.log" 2>&1 || { tail -20 "$T/missing.log"; exit 1; }
if ! grep -qE "^(local)?rule fetch_treebank:" "$T/missing.log"; then
  echo "FAIL: a missing mirror treebank is not fetched again for a missing product"; tail -20 "$T/missing.log"; exit 1
fi
echo "missing mirror treebank: nothing redone while its products exist; fetch_treebank planned for a missing one"
