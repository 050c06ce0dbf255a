#!/usr/bin/env bash
# End to end: the demo DAG (fetch -> tokenise -> clean -> BPE -> binarise -> train -> translate ->
# score -> table) on a 500-pair slice of Multi30k, a tiny model and a few dozen steps; then checks
# the table and that a second run has nothing to do.
set -euo pipefail
VENV=$1
BUILD=${2:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P="$T/work/multi30k_en_de_parsed"
SM=("$VENV/bin/snakemake" --profile cluster/local --configfile pipeline/config/config.yaml tests/e2e/slice_config.yaml
    --config "work_dir=$T/work" "results_dir=$T/results")
if ! "${SM[@]}" > "$T/snakemake.log" 2>&1; then
  echo "snakemake failed; its log ends:"; tail -60 "$T/snakemake.log"
  for f in $(grep -o "[^ ]*\.log" "$T/snakemake.log" | sort -u); do [ -f "$f" ] && { echo "== $f"; tail -5 "$f"; }; done
  exit 1
fi
table="$T/results/tables/demo.md"
test -s "$table" || { echo "no table"; exit 1; }
cat "$table"
N2='[0-9]+\.[0-9]{2}'
grep -Eq "^\| RNN attention \| $N2 ± $N2 \(n=2\) \|" "$table" || { echo "seed-group row malformed"; exit 1; }
grep -Eq "^\| Transformer \| $N2 ± $N2 \(n=2\)( [†‡])? \| [+-]$N2 \|" "$table" || { echo "Transformer row lacks its group, marks or delta"; exit 1; }
grep -Eq "^\| RNN 2 ranks \| $N2 \|" "$table" || { echo "single-run row malformed"; exit 1; }
grep -q 'first 500 lines' "$table" || { echo "scale not stated"; exit 1; }
grep -q 'scale \*\*smoke\*\*' "$table" || { echo "experiment scale not stated"; exit 1; }
grep -q '100 resamples, seed 12345' "$table" || { echo "bootstrap settings not stated"; exit 1; }
test "$(wc -l < "$T/results/systems/rnn_demo.s1/hyp.test.txt")" -eq 500 || { echo "wrong hypothesis count"; exit 1; }
test "$(wc -l < "$T/results/systems/rnn_demo.s2/hyp.test2017.txt")" -eq 500 || { echo "second test set not decoded"; exit 1; }
# the table's numbers are the runs' numbers: the group mean, and a p-value recomputed by hand with
# synmt-score paired-bs on the concatenated hypotheses (two runs each, resampled by sentence) equals the CSV's
"$VENV/bin/python" - "$T" "$BUILD/bin/synmt-score" <<'PY' || exit 1
import csv, json, statistics, subprocess, sys
T, score = sys.argv[1], sys.argv[2]
rows = {(r["row"], r["column"]): r for r in csv.DictReader(open(f"{T}/results/tables/demo.csv"))}
runs = [json.load(open(f"{T}/results/systems/rnn_demo.s{k}/bleu.test.json"))["score"] for k in (1, 2)]
cell = rows[("RNN attention", "BLEU")]
assert abs(float(cell["value"]) - statistics.fmean(runs)) < 1e-3, (cell, runs)
assert abs(float(cell["sd"]) - statistics.stdev(runs)) < 1e-3, (cell, runs)
G = f"{T}/results/groups"
ref = f"{T}/work/multi30k_en_de/raw/test.tgt"
two = open(ref).read() * 2
open(f"{T}/ref.x2", "w").write(two)
out = subprocess.run([score, "paired-bs", "-r", f"{T}/ref.x2", "--metric", "bleu", "--samples", "100", "--seed", "12345",
                      "--runs", "2", "--format", "json", "--baseline", f"{G}/rnn_demo/multi30k_en_de/hyp.test.txt",
                      f"{G}/transformer_demo/multi30k_en_de/hyp.test.txt"], check=True, capture_output=True, text=True).stdout
p = json.loads(out)[1]["p_value"]
listed = rows[("Transformer", "BLEU")]["p_values"]
assert listed == f"vs RNN attention: {p:.4f}", (listed, p)
ci = rows[("RNN 2 ranks", "BLEU")]
assert ci["ci_low"] and float(ci["ci_low"]) <= float(ci["ci_high"]), ci
print("table numbers check out:", listed)
PY
# SentencePiece path: pieces decoded back to text (no "▁" left), scored
grep -Eq "^\| RNN \| $N2 \|" "$T/results/tables/spm.md" || { echo "spm table"; exit 1; }
if grep -q '▁' "$T/results/systems/rnn_spm/hyp.test.txt"; then echo "SentencePiece output not decoded"; exit 1; fi
# every raw output token is a piece of the trained SentencePiece model
awk 'NR==FNR {split($0, f, "\t"); piece[f[1]] = 1; next} {for (i = 1; i <= NF; ++i) if (!($i in piece)) {print "not a piece: " $i; bad = 1}} END {exit bad}' \
  "$T/work/multi30k_en_de_spm/spm/model.vocab" "$T/results/systems/rnn_spm/hyp.test.sub" || { echo "raw output is not pieces"; exit 1; }
grep -q '"ranks": 2' "$T/results/systems/rnn_demo_seed2/summary.json" || { echo "2-rank training did not run on 2 ranks"; exit 1; }
test -s "$T/work/multi30k_en_de_spm/vocab.joint" || { echo "joint vocabulary not built"; exit 1; }
# tokenised En-Ja path: BLEU and RIBES columns, language filter applied to its training data
grep -Eq "^\| RNN \| $N2 \| $N2 \|" "$T/results/tables/enja.md" || { echo "enja table"; exit 1; }
grep -q '"pairs_in": 400' "$T/results/reports/enja_tokenised.langid.json" || { echo "langid filter not run"; exit 1; }
test -s "$T/results/tables/langid_filter.md" || { echo "no langid table"; exit 1; }
# parsing: a tiny UD parser trained by the pipeline, the training corpus' English side parsed into
# the cache, which a second run does not rebuild (and synmt-parse itself reuses by key)
cache="$P/parse/train.src.h5"
# (targets go before the options: --config swallows what follows it)
"${SM[0]}" "$cache" "${SM[@]:1}" > "$T/parse.log" 2>&1 || { tail -30 "$T/parse.log"; exit 1; }
test -s "$cache" || { echo "no parse cache"; exit 1; }
grep -q '"dev_uas"' "$T/results/parsers/en_ewt/summary.json" || { echo "no parser summary"; exit 1; }
"${SM[0]}" "$cache" "${SM[@]:1}" -n > "$T/parse_again.log" 2>&1
grep -q "Nothing to be done" "$T/parse_again.log" || { echo "the parse cache would be rebuilt:"; grep -E "^(rule|localrule)|reason:" "$T/parse_again.log" | head -20; exit 1; }
"$BUILD/bin/synmt-parse" --backend builtin --model "$T/results/parsers/en_ewt/parser.pt" -i "$P/clean/train.src" \
  -o "$cache" 2> "$T/reparse.log" || { cat "$T/reparse.log"; exit 1; }
grep -q reused "$T/reparse.log" || { echo "synmt-parse did not reuse a matching cache"; exit 1; }
# the parsed pair's datasets: every split binarised with its parse cache and the pair's inventories
"${SM[0]}" "$P/data/train.h5" "$P/data/valid.h5" "$P/data/test.h5" "${SM[@]:1}" > "$T/parsed.log" 2>&1 || { tail -30 "$T/parsed.log"; exit 1; }
test "$(head -1 "$P/labels.src")" = "<unk>" && test "$(wc -l < "$P/labels.src")" -ge 2 && test "$(head -1 "$P/upos.src")" = "<unk>" \
  || { echo "label/UPOS inventories malformed"; head "$P/labels.src" "$P/upos.src"; exit 1; }
grep -q "inventories:" "$T/work/logs/vocab/multi30k_en_de_parsed.inventory.src.log" || { echo "no inventory log"; exit 1; }
"${SM[@]}" -n > "$T/dry.txt" 2>&1
grep -q "Nothing to be done" "$T/dry.txt" || { echo "second run would redo work:"; cat "$T/dry.txt"; exit 1; }
# syntax seams: the model read parents and labels in training (its auxiliary loss is logged), was
# validated with BLEU on the featured split, and a reloaded best.pt decoding that split gives exactly
# the in-process validation translations; plain text without features is refused
S="$T/results/systems/transformer_syntax"
grep -q '"aux_parent_attention"' "$S/metrics.jsonl" || { echo "auxiliary loss not logged"; exit 1; }
grep -q '"valid_bleu"' "$S/metrics.jsonl" || { echo "no validation BLEU"; exit 1; }
grep -Eq "^\| Transformer \+ parent bias \+ labels \| $N2 \|" "$T/results/tables/syntax.md" || { echo "syntax table"; exit 1; }
"$BUILD/bin/synmt-translate" -m "$S/best.pt" --src-vocab "$P/vocab.src" --tgt-vocab "$P/vocab.tgt" --data "$P/data/valid.h5" \
  --greedy -o "$T/valid.reloaded" 2> "$T/reload.log" || { cat "$T/reload.log"; exit 1; }
cmp -s "$T/valid.reloaded" "$S/best.valid.hyp" || { echo "reloaded checkpoint decodes differently from the in-process validation"; diff "$T/valid.reloaded" "$S/best.valid.hyp" | head; exit 1; }
if "$BUILD/bin/synmt-translate" -m "$S/best.pt" --src-vocab "$P/vocab.src" --tgt-vocab "$P/vocab.tgt" -i "$P/bpe/valid.src" \
  -o "$T/nofeatures" 2> "$T/nofeatures.log"; then echo "decoding a syntax model without features succeeded"; exit 1; fi
grep -q "source feature" "$T/nofeatures.log" || { cat "$T/nofeatures.log"; exit 1; }
# decoding from the parse cache plus its text (no binarised split) gives what the DAG decoded from
# the binarised test split
"$BUILD/bin/synmt-translate" -m "$S/best.pt" --src-vocab "$P/vocab.src" --tgt-vocab "$P/vocab.tgt" -i "$P/bpe/test.src" \
  --src-parse "$P/parse/test.src.h5" --src-parse-corpus "$P/tok/test.src" --src-labels "$P/labels.src" --src-upos "$P/upos.src" \
  -k 2 --length-penalty 1.0 --max-len-a 1.5 --max-len-b 5 --batch-size 50 --raw -o "$T/test.from_cache.sub" 2> "$T/from_cache.log" \
  || { cat "$T/from_cache.log"; exit 1; }
cmp -s "$T/test.from_cache.sub" "$S/hyp.test.sub" || { echo "decoding from the parse cache differs from decoding the binarised split"; exit 1; }
# teacher-forced analysis dumps by name, and a name the model does not have is refused
"$BUILD/bin/synmt-translate" -m "$S/best.pt" --src-vocab "$P/vocab.src" --tgt-vocab "$P/vocab.tgt" --data "$P/data/valid.h5" \
  --teacher-forced --dump source_attention,encoder_attention_0 --dump-file "$T/analysis.h5" 2> "$T/dump.log" || { cat "$T/dump.log"; exit 1; }
test -s "$T/analysis.h5" || { echo "no analysis dump"; exit 1; }
# ... and synmt-trees induces word trees from a dumped self-attention head against the parser's
# own trees of the same sentences (exported from the cache), and scores them
"$BUILD/bin/synmt-parse" --backend builtin --model "$T/results/parsers/en_ewt/parser.pt" -i "$P/tok/valid.src" \
  -o "$P/parse/valid.src.h5" --export-conllu "$T/valid.gold.conllu" 2> "$T/export.log" || { cat "$T/export.log"; exit 1; }
"$BUILD/bin/synmt-trees" induce --heads "$T/analysis.h5" --tensor encoder_attention_0 --head 3 --rows dependents \
  --gold "$T/valid.gold.conllu" -o "$T/valid.induced.conllu" 2> "$T/induce.log" || { cat "$T/induce.log"; exit 1; }
"$BUILD/bin/synmt-trees" uas --gold "$T/valid.gold.conllu" --pred "$T/valid.induced.conllu" > "$T/induced.uas" 2>&1 \
  || { cat "$T/induced.uas"; exit 1; }
grep -q "^UAS" "$T/induced.uas" || { cat "$T/induced.uas"; exit 1; }
if "$BUILD/bin/synmt-translate" -m "$S/best.pt" --src-vocab "$P/vocab.src" --tgt-vocab "$P/vocab.tgt" --data "$P/data/valid.h5" \
  --teacher-forced --dump no_such_tensor --dump-file "$T/bad.h5" 2> "$T/baddump.log"; then echo "unknown dump name accepted"; exit 1; fi
grep -q "no such analysis tensor" "$T/baddump.log" || { cat "$T/baddump.log"; exit 1; }
# decoding on several threads (one model copy each) gives what one thread gives: hypotheses and
# n-best lists
for sys in transformer_demo.s1 rnn_demo.s1; do
  for n in 1 2 3; do
    "$BUILD/bin/synmt-translate" -m "$T/results/systems/$sys/best.pt" --src-vocab "$T/work/multi30k_en_de/vocab.src"       --tgt-vocab "$T/work/multi30k_en_de/vocab.tgt" -i "$T/work/multi30k_en_de/bpe/test.src" -o "$T/threads.$n.sub" --raw       -k 3 --nbest 2 --nbest-output "$T/threads.$n.nbest" --batch-size 7 --threads $n 2> "$T/threads.log"       || { cat "$T/threads.log"; exit 1; }
  done
  for n in 2 3; do
    cmp -s "$T/threads.1.sub" "$T/threads.$n.sub" && cmp -s "$T/threads.1.nbest" "$T/threads.$n.nbest"       || { echo "$sys: decoding on $n threads differs from one thread"; exit 1; }
  done
done
# the report: every table and figure on one page, figures as PNG + SVG
R="$T/results/report"
test -s "$R/index.md" && test -s "$R/index.html" || { echo "no report"; exit 1; }
for f in figures/curves/demo figures/length/demo figures/heatmap/syntax_source_attention; do
  test -s "$T/results/$f.png" && test -s "$T/results/$f.svg" || { echo "figure $f missing"; exit 1; }
done
grep -q "syntax_source_attention" "$R/index.md" || { echo "heat map not in the report"; exit 1; }
# tables regenerate byte-identically from the same results (no clock in them)
mkdir -p "$T/tables.before" && cp "$T"/results/tables/*.md "$T"/results/tables/*.csv "$T/tables.before/"
cp "$R/index.md" "$R/index.html" "$T/tables.before/"
"${SM[@]}" --forcerun table langid_table report curves_figure length_figure > "$T/regen.log" 2>&1 || { tail -30 "$T/regen.log"; exit 1; }
for f in "$T"/tables.before/*; do
  g="$T/results/tables/$(basename "$f")"; case "$f" in *index.*) g="$R/$(basename "$f")";; esac
  cmp -s "$f" "$g" || { echo "$(basename "$f") differs when regenerated"; diff "$f" "$T/results/tables/$(basename "$f")" | head; exit 1; }
done
echo "1 passed, 0 failed"
