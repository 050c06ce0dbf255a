#!/usr/bin/env bash
# Tree induction end to end on real data: CoNLL 2018 EWT vote matrices -> HDF5 head scores ->
# synmt-trees induce (collapse, CLE) -> CoNLL-U -> synmt-trees uas. The UAS and every token's head
# must equal those of decoding the text matrices directly, and a gold file that does not align must
# be refused.
set -euo pipefail
BIN=$1/bin
D=$2/eval/conll2018
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
zcat "$D/en_ewt.vote5.ids.gz" > "$T/ids"
zcat "$D/en_ewt.00-gold-standard.conllu.gz" | awk 'NR==FNR {want[$1]=1; next} /^# sent_id = / {id=$4}
  {buf = buf $0 "\n"} /^$/ {if (id in want) printf "%s", buf; buf=""; id=""}' "$T/ids" - > "$T/gold.conllu"
"$BIN/synmt-trees" import-matrices --scores "$D/en_ewt.vote5.scores.gz" -o "$T/heads.h5"
"$BIN/synmt-trees" induce --heads "$T/heads.h5" --gold "$T/gold.conllu" -o "$T/pred.conllu"
via_h5=$("$BIN/synmt-trees" uas --gold "$T/gold.conllu" --pred "$T/pred.conllu" --format json | python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["uas"])')
direct=$("$BIN/synmt-trees" decode --scores "$D/en_ewt.vote5.scores.gz" --gold-heads "$D/en_ewt.vote5.gold.gz" --format json -o "$T/direct.heads" 2>&1 >/dev/null | python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["uas"])')
echo "UAS via HDF5/induce/CoNLL-U: $via_h5, direct decode: $direct"
[ "$via_h5" = "$direct" ] || { echo "mismatch"; exit 1; }
# not only the count of correct heads: every token's head is the same (CoNLL-U column 7, word lines)
awk -F'\t' '/^#/ {next} /^$/ {if (line != "") print line; line = ""; next} $1 ~ /^[0-9]+$/ {line = (line == "" ? $7 : line " " $7)}
  END {if (line != "") print line}' "$T/pred.conllu" > "$T/induced.heads"
[ "$(wc -l < "$T/direct.heads")" -eq 1247 ] && cmp -s "$T/direct.heads" "$T/induced.heads" \
  || { diff "$T/direct.heads" "$T/induced.heads" | head -5; echo "the induced trees differ from the decoded ones"; exit 1; }
zcat "$D/en_ewt.00-gold-standard.conllu.gz" > "$T/all.conllu"
if "$BIN/synmt-trees" induce --heads "$T/heads.h5" --gold "$T/all.conllu" -o "$T/x" 2> "$T/err"; then
  echo "misaligned gold accepted"; exit 1
fi
grep -q "heads.h5: 1247 sentences, but .*all.conllu has 2077" "$T/err" || { cat "$T/err"; exit 1; }
echo "3 passed, 0 failed"
