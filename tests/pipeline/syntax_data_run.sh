#!/usr/bin/env bash
# A real (not dry) run of the data stage of pairs with parse.src, torch-free: a 200-line slice of
# Multi30k, BPE and word-level (subwords: none), parsed by the conllu backend from CoNLL-U files
# this script writes for the tokenised text (a chain tree: every word heads the next, the last
# is the root; the valid/test splits list their labels in another order and use a label and a UPOS
# training never had). Checks that every split is binarised with its cache and the inventories.
set -euo pipefail
VENV=$1
BUILD=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/config.yaml" <<YAML
bin_dir: $BUILD/bin
work_dir: $T/work
results_dir: $T/results
pairs:
  bpe_parsed:
    corpus: multi30k-task1
    src: en
    tgt: de
    splits: {train: train, valid: valid, test: test_2016_flickr}
    slice: 200
    tokenizer: moses
    parse: {src: imported}
    clean: {min: 1, max: 80, ratio: 9.0}
    bpe: {mode: joint, merges: 200, min_frequency: 2}
    vocab: {min_frequency: 1, max_size: 0}
  words_parsed:
    corpus: multi30k-task1
    src: en
    tgt: de
    splits: {train: train, valid: valid, test: test_2016_flickr}
    slice: 200
    tokenizer: moses
    subwords: none
    parse: {src: imported_words}
    clean: {min: 1, max: 80, ratio: 9.0}
    vocab: {min_frequency: 2, max_size: 0}
parsers:
  imported:
    backend: conllu
    conllu: {train: $T/conllu/bpe_parsed.train.conllu, valid: $T/conllu/bpe_parsed.valid.conllu, test: $T/conllu/bpe_parsed.test.conllu}
  imported_words:
    backend: conllu
    conllu: {train: $T/conllu/words_parsed.train.conllu, valid: $T/conllu/words_parsed.valid.conllu, test: $T/conllu/words_parsed.test.conllu}
YAML
SM=("$VENV/bin/snakemake" --nolock --cores 2 --configfile pipeline/config/config.yaml "$T/config.yaml")
texts=()
for pair in bpe_parsed words_parsed; do
  texts+=("$T/work/$pair/clean/train.src" "$T/work/$pair/tok/valid.src" "$T/work/$pair/tok/test.src")
done
"${SM[0]}" "${texts[@]}" "${SM[@]:1}" > "$T/text.log" 2>&1 || { tail -30 "$T/text.log"; exit 1; }
mkdir -p "$T/conllu"
for pair in bpe_parsed words_parsed; do
  for split in train valid test; do
    stage=tok; [ $split = train ] && stage=clean
    # training: det ... root / NOUN ... VERB; valid/test: root first in the cache, a 'vocative' and an X
    awk -v part=$split '{
      for (i = 1; i <= NF; ++i) {
        head = (i == NF) ? 0 : i + 1
        if (i == NF) { dep = "root"; pos = "VERB" } else if (i == 1) { dep = "det"; pos = "DET" } else { dep = "dep"; pos = "NOUN" }
        if (part != "train" && i == 2 && NF > 2) { dep = "vocative"; pos = "X" }
        printf "%d\t%s\t_\t%s\t_\t_\t%d\t%s\t_\t_\n", i, $i, pos, head, dep
      }
      printf "\n"
    }' "$T/work/$pair/$stage/$split.src" > "$T/conllu/$pair.$split.conllu"
  done
done
data=()
for pair in bpe_parsed words_parsed; do data+=("$T/work/$pair/data/train.h5" "$T/work/$pair/data/valid.h5" "$T/work/$pair/data/test.h5"); done
"${SM[0]}" "${data[@]}" "${SM[@]:1}" > "$T/data.log" 2>&1 || {
  tail -30 "$T/data.log"; for f in "$T"/work/logs/*/*parsed*; do echo "== $f"; tail -3 "$f"; done; exit 1; }
passed=0
for pair in bpe_parsed words_parsed; do
  W="$T/work/$pair"
  test "$(cat "$W/labels.src")" = "$(printf '<unk>\ndep\ndet\nroot')" || { cat "$W/labels.src"; echo "$pair: label inventory"; exit 1; }
  test "$(cat "$W/upos.src")" = "$(printf '<unk>\nDET\nNOUN\nVERB')" || { cat "$W/upos.src"; echo "$pair: UPOS inventory"; exit 1; }
  for split in valid test; do
    grep -q "labels not in $W/labels.src (id 0 = <unk>): vocative" "$T/work/logs/binarize/$pair.$split.log" \
      || { cat "$T/work/logs/binarize/$pair.$split.log"; echo "$pair.$split: unknown label not reported"; exit 1; }
    grep -q "UPOS not in $W/upos.src (id 0 = <unk>): X" "$T/work/logs/binarize/$pair.$split.log" \
      || { cat "$T/work/logs/binarize/$pair.$split.log"; echo "$pair.$split: unknown UPOS not reported"; exit 1; }
  done
  grep -q "dataset $W/data/train.h5: 200 pairs" "$T/work/logs/binarize/$pair.train.log" \
    || { cat "$T/work/logs/binarize/$pair.train.log"; echo "$pair: train dataset"; exit 1; }
  # and it was binarised with its parse: the cache's corpus hash and the label inventory's size (4)
  "$VENV/bin/python" -c '
import sys, h5py
a = h5py.File(sys.argv[1], "r").attrs
def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)
assert len(text(a["src_parse_corpus_sha256"])) == 64, dict(a)
assert int(text(a["src_label_count"])) == 4, dict(a)
' "$W/data/train.h5" || { echo "$pair: train.h5 lacks its parse"; exit 1; }
  passed=$((passed + 1))
done
# the datasets' contents (ids agree across splits, spans) are checked by synmt_tests'
# BinarizeSyntax.*; here: a second run has nothing to do
"${SM[0]}" "${data[@]}" "${SM[@]:1}" -n > "$T/again.txt" 2>&1
grep -q "Nothing to be done" "$T/again.txt" || { cat "$T/again.txt"; echo "a second run would redo work"; exit 1; }
passed=$((passed + 1))
echo "$passed passed, 0 failed"
