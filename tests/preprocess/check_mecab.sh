#!/usr/bin/env bash
# synmt-tok -l ja must segment exactly as `mecab -Owakati` (Debian's MeCab + IPAdic) on real
# Japanese text: FLORES-200 dev/devtest, Tatoeba ja, WMT22 En-Ja reference. synmt drops the space
# MeCab writes before each newline; nothing else may differ. Prints 'N passed, N failed'.
set -euo pipefail
BIN=$1
D=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
passed=0
failed=0
for f in "$D/parallel/flores200/dev.ja.gz" "$D/parallel/flores200/devtest.ja.gz" \
         "$D/parallel/tatoeba-en-ja/test.ja.gz" "$D/eval/wmt22/generaltest2022.en-ja.ref.A.ja.gz"; do
  zcat "$f" > "$T/in"
  mecab -Owakati < "$T/in" | sed 's/ *$//' > "$T/ref"
  "$BIN/synmt-tok" -l ja -i "$T/in" -o "$T/ours"
  n=$(wc -l < "$T/in")
  if cmp -s "$T/ref" "$T/ours"; then
    passed=$((passed + 1)); echo "$(basename "$f"): $n lines identical"
  else
    failed=$((failed + 1)); echo "$(basename "$f"): differs"; diff "$T/ref" "$T/ours" | head -6
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
