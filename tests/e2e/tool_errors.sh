#!/usr/bin/env bash
# Bad input must give one clear message naming the file (and line) and a non-zero exit, never
# silent data loss. Each case runs a real tool on a real (small) file. Prints 'N passed, N failed'.
set -uo pipefail
BUILD=$1
BIN=$BUILD/bin
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
passed=0
failed=0

# expect_fail NAME PATTERN CMD...: CMD must exit non-zero and print PATTERN (grep -E) on stderr.
expect_fail() {
  local name=$1 pattern=$2
  shift 2
  if "$@" >"$T/out" 2>"$T/err"; then
    echo "FAIL $name: exited 0"; failed=$((failed + 1)); return
  fi
  if grep -Eq "$pattern" "$T/err"; then
    passed=$((passed + 1))
  else
    echo "FAIL $name: stderr did not match /$pattern/:"; cat "$T/err"; failed=$((failed + 1))
  fi
}

printf 'a b c\nd e\nf g h\n' > "$T/three.en"
printf 'x y\nz\n' > "$T/two.de"
printf 'one\ntwo\nbroken \xff byte\n' > "$T/bad_utf8.txt"
printf 'x y\nz w\nv u\n' > "$T/three.de"

expect_fail "clean: mismatched line counts" "two.de:2: parallel files differ in length" \
  "$BIN/synmt-clean" --src "$T/three.en" --tgt "$T/two.de" --out-src "$T/o1" --out-tgt "$T/o2" --report "$T/r.json"
[ ! -e "$T/o1" ] || { echo "FAIL clean left a partial output"; failed=$((failed + 1)); }
expect_fail "tok: invalid UTF-8 names file and line" "bad_utf8.txt:3: invalid UTF-8" \
  "$BIN/synmt-tok" -l en -i "$T/bad_utf8.txt" -o "$T/tok.out"
printf 'good one\nbad \xff line\nlast\n' > "$T/mixed.en"
printf 'gut eins\nschlecht\nletzt\n' > "$T/mixed.de"
if "$BIN/synmt-clean" --src "$T/mixed.en" --tgt "$T/mixed.de" --out-src "$T/m1" --out-tgt "$T/m2" --report "$T/m.json" --skip-invalid \
   && [ "$(paste "$T/m1" "$T/m2")" = "$(printf 'good one\tgut eins\nlast\tletzt')" ] && grep -q '"invalid_utf8": 1' "$T/m.json"; then
  passed=$((passed + 1)); else echo "FAIL clean --skip-invalid did not drop (only) the bad pair, aligned, and count it"; failed=$((failed + 1)); fi
if "$BIN/synmt-tok" -l en --skip-invalid -i "$T/mixed.en" -o "$T/m3" 2> "$T/m3.err" && [ "$(cat "$T/m3")" = "$(printf 'good one\nlast')" ] \
   && grep -q "dropped 1 line(s) with invalid UTF-8" "$T/m3.err"; then
  passed=$((passed + 1)); else echo "FAIL tok --skip-invalid"; failed=$((failed + 1)); fi
expect_fail "bpe: empty codes file" "codes.empty:1: no BPE merge operations" \
  bash -c "touch '$T/codes.empty'; '$BIN/synmt-bpe' apply -c '$T/codes.empty' < '$T/three.en'"
printf '#version: 0.2\na b\nc d e\n' > "$T/codes.bad"
expect_fail "bpe: malformed codes line" "codes.bad:3: invalid BPE codes line" \
  bash -c "'$BIN/synmt-bpe' apply -c '$T/codes.bad' < '$T/three.en'"
expect_fail "fetch: sha256 mismatch" "three.en: sha256 of the decompressed content" \
  "$BIN/synmt-fetch" --file three.en http://127.0.0.1:9/none "$(printf "%064d" 0)" "$T/f.out" --mirror "$T"
expect_fail "fetch: parallel files differ" "f2:2: parallel files differ in length" \
  "$BIN/synmt-fetch" --mirror "$T" --file three.en http://127.0.0.1:9/x - "$T/f1" --file two.de http://127.0.0.1:9/y - "$T/f2"
expect_fail "score: hypothesis/reference line mismatch" "two.de: reference has 2 lines" \
  "$BIN/synmt-score" bleu -r "$T/two.de" "$T/three.en"

expect_fail "score: empty hypothesis file" "empty.txt: empty file" \
  bash -c "touch '$T/empty.txt'; '$BIN/synmt-score' bleu -r '$T/three.en' '$T/empty.txt'"
expect_fail "ribes: empty reference line without -z" "ref_gap: Reference has no words" \
  bash -c "printf 'a b\n\n' > '$T/ref_gap'; printf 'a b\nc\n' > '$T/hyp_gap'; '$BIN/synmt-score' ribes -r '$T/ref_gap' '$T/hyp_gap'"
printf '0 1 2\n0 0 nan\n0 3 0\n' > "$T/nan.scores"
expect_fail "trees: NaN in a head matrix" "nan.scores:2: non-finite score" \
  "$BIN/synmt-trees" decode --scores "$T/nan.scores"
printf '0 1 2\n0 0 1\n' > "$T/ragged.scores"
expect_fail "trees: non-square matrix" "ragged.scores.*not square" "$BIN/synmt-trees" decode --scores "$T/ragged.scores"
printf '0 1 2\n0 0 1\n0 3 0\n' > "$T/ok.scores"
printf '0 1 1\n' > "$T/too_many.heads"
expect_fail "trees: gold heads do not align with the matrix" "too_many.heads:1: more heads than the matrix has words" \
  "$BIN/synmt-trees" decode --scores "$T/ok.scores" --gold-heads "$T/too_many.heads" -o "$T/heads.out"
printf '1\ta\t_\tX\t_\t_\t0\troot\n\n' > "$T/bad.conllu"
expect_fail "trees: malformed CoNLL-U names the line" "bad.conllu:1: expected 10 tab-separated columns" \
  "$BIN/synmt-trees" uas --gold "$T/bad.conllu" --pred "$T/bad.conllu"
printf '1\ta\t_\tNOUN\t_\t_\t0\troot\t_\t_\n2\tb\t_\tVERB\t_\t_\t1\tobj\t_\t_\n\n' > "$T/gold2.conllu"
printf '1\ta\t_\tNOUN\t_\t_\t2\troot\t_\t_\n2\tc\t_\tVERB\t_\t_\t0\tobj\t_\t_\n\n' > "$T/other_words.conllu"
expect_fail "trees paired-bs: trees on another tokenisation" "other_words.conllu: sentence 1 has other words than the gold tree" \
  "$BIN/synmt-trees" paired-bs --gold "$T/gold2.conllu" --baseline "$T/gold2.conllu" "$T/other_words.conllu"

expect_fail "langid: missing profile directory" "no/such/dir: langdetect profile directory not found" \
  "$BIN/synmt-langid" --profiles "$T/no/such/dir" -i "$T/three.en"
expect_fail "langid filter: parallel files differ" "two.de:2: parallel files differ in length" \
  "$BIN/synmt-langid" filter --src "$T/three.en" --tgt "$T/two.de" --src-lang en --tgt-lang de \
  --out-src "$T/l1" --out-tgt "$T/l2" --report "$T/l.json"

# a small real dataset for the trainer's checks
"$BIN/synmt-binarize" vocab -i "$T/three.en" -o "$T/v.en" 2>/dev/null
"$BIN/synmt-binarize" vocab -i "$T/three.de" -o "$T/v.de" 2>/dev/null
"$BIN/synmt-binarize" vocab -i "$T/two.de" -o "$T/v.other" 2>/dev/null
"$BIN/synmt-binarize" data --src "$T/three.en" --tgt "$T/three.de" --src-vocab "$T/v.en" --tgt-vocab "$T/v.de" -o "$T/d.h5" 2>/dev/null
echo '{"model": {"arch": "rnn_tiny"}, "train": {"max_steps": 1, "max_epochs": 1}}' > "$T/ok.json"
echo '{"train": {"max_steps": 1}}' > "$T/missing.json"
echo '{"model": {"arch": "rnn_tiny"}, "train": {"lrr": 0.1}}' > "$T/unknown.json"
echo '{"model": {"arch": "rnn_tiny", "options": {"hidden_size": 3}}}' > "$T/unknown_model.json"
train() { "$BIN/synmt-train" --train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$1" --tgt-vocab "$T/v.de" -o "$T/run" -c "$2" "${@:3}"; }
expect_fail "train: missing config key" "missing required key 'model'" train "$T/v.en" "$T/missing.json"
expect_fail "train: unknown config key" "unknown key\(s\) 'lrr'" train "$T/v.en" "$T/unknown.json"
expect_fail "train: unknown model option" "unknown key\(s\) 'hidden_size'" train "$T/v.en" "$T/unknown_model.json"
expect_fail "train: unknown --set key" "unknown key 'nope'" train "$T/v.en" "$T/ok.json" --set train.nope=1
expect_fail "train: vocabulary/dataset mismatch" "d.h5: vocabulary mismatch" train "$T/v.other" "$T/ok.json"
head -c 300 "$T/d.h5" > "$T/trunc.h5"
expect_fail "train: corrupt dataset" "trunc.h5: .*(truncated|corrupt)" \
  "$BIN/synmt-train" --train "$T/trunc.h5" --valid "$T/d.h5" --src-vocab "$T/v.en" --tgt-vocab "$T/v.de" -o "$T/run" -c "$T/ok.json"
if train "$T/v.en" "$T/ok.json" >/dev/null 2>&1 && [ -s "$T/run/best.pt" ]; then passed=$((passed + 1)); else
  echo "FAIL train: the valid configuration did not train"; failed=$((failed + 1)); fi
expect_fail "translate: vocabulary of another model" "not the ones this model was trained with" \
  "$BIN/synmt-translate" -m "$T/run/best.pt" --src-vocab "$T/v.other" --tgt-vocab "$T/v.de" -i "$T/three.en" -o "$T/hyp"
expect_fail "translate: not a checkpoint" "junk.pt: not a readable checkpoint" \
  bash -c "echo junk > '$T/junk.pt'; '$BIN/synmt-translate' -m '$T/junk.pt' --src-vocab '$T/v.en' --tgt-vocab '$T/v.de' -i '$T/three.en'"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
