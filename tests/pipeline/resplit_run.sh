#!/usr/bin/env bash
# A resplit pair through the DAG: the Tatoeba En-Ru pool (19,425 lines, 16,883 distinct English
# sentences) split into 1,000 + 1,000 held-out sources; no training source occurs in valid or test.
# A second pair holds out only a valid set (test: 0) and takes its test set and an extra test set
# from another corpus (Ranzato et al.'s IWSLT14 shape).
set -euo pipefail
VENV=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/c.yaml" <<'YAML'
experiment: {name: resplit_test, scale: smoke, tables: []}
pairs:
  rs_en_ru:
    corpus: tatoeba-en-ru
    src: en
    tgt: ru
    resplit: {pool: test, valid: 1000, test: 1000, seed: 1}
    tokenizer: none
    subwords: none
    clean: {min: 1, max: 80, ratio: 9.0}
    vocab: {min_frequency: 1}
  rs_ext:
    corpus: tatoeba-en-ru
    src: en
    tgt: ru
    resplit: {pool: test, valid: 500, test: 0, test_source: {corpus: wmt-newstest-en-ru, stem: newstest2017}, seed: 1}
    test_sets: {nt2016: {corpus: wmt-newstest-en-ru, stem: newstest2016}}
    tokenizer: none
    subwords: none
    clean: {min: 1, max: 80, ratio: 9.0}
    vocab: {min_frequency: 1}
YAML
W=$T/work/rs_en_ru/raw
X=$T/work/rs_ext/raw
"$VENV/bin/snakemake" --nolock "$W/train.src" "$W/valid.src" "$W/test.tgt" "$X/train.src" "$X/valid.src" "$X/test.tgt" "$X/nt2016.tgt" --cores 1 --configfile "$T/c.yaml" \
  --config "work_dir=$T/work" "results_dir=$T/results" > "$T/log" 2>&1 || { tail -30 "$T/log"; exit 1; }
test "$(wc -l < "$W/test.src")" -eq 1000 && test "$(wc -l < "$W/valid.src")" -eq 1000 && test "$(wc -l < "$W/train.src")" -eq 17143 \
  || { wc -l "$W"/*; echo "unexpected split sizes"; exit 1; }
if sort -u "$W/valid.src" "$W/test.src" | grep -Fxq -f - "$W/train.src"; then echo "a held-out source is in training"; exit 1; fi
grep -q '"distinct_sources": 16883' "$T/results/reports/rs_en_ru.resplit.json" || { cat "$T/results/reports/rs_en_ru.resplit.json"; exit 1; }
# newstest2017 en-ru: 3,001 lines; newstest2016: 2,998; the pool gives 500 + the rest
test "$(wc -l < "$X/test.src")" -eq 3001 && test "$(wc -l < "$X/nt2016.tgt")" -eq 2998 && test "$(wc -l < "$X/valid.src")" -eq 500 \
  && test "$(wc -l < "$X/train.src")" -gt 18000 || { wc -l "$X"/*; echo "unexpected external-test split sizes"; exit 1; }
grep -q '"test": 0' "$T/results/reports/rs_ext.resplit.json" || { cat "$T/results/reports/rs_ext.resplit.json"; exit 1; }
echo "2 passed, 0 failed"
