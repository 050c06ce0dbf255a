# Sourced by the trainer tests: a 256-pair Multi30k dataset in $T (vocabularies vs/vt, d.h5).
# Needs BIN, DATA and T set.
zcat "$DATA/parallel/multi30k-task1/train.en.gz" | head -256 > "$T/s.txt"
zcat "$DATA/parallel/multi30k-task1/train.de.gz" | head -256 > "$T/t.txt"
"$BIN/synmt-binarize" vocab -i "$T/s.txt" -o "$T/vs" 2>/dev/null
"$BIN/synmt-binarize" vocab -i "$T/t.txt" -o "$T/vt" 2>/dev/null
"$BIN/synmt-binarize" data --src "$T/s.txt" --tgt "$T/t.txt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" -o "$T/d.h5" 2>/dev/null
