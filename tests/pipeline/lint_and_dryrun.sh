#!/usr/bin/env bash
# The workflow must lint clean, dry-run for the demo config (without a parser), wire parse caches and
# label/UPOS inventories into binarize for a pair with parse.src, dry-run a word-level pair, and refuse
# an unknown config key and inconsistent pairs.
# One lint category is accepted, and only that one: "Specify a conda environment or container for
# each rule". synmt's stages are this project's own C++ executables (built by scripts/install.sh
# into bin_dir); no conda package or published container provides them, and declaring one that
# does not exist would be worse than the lint.
set -euo pipefail
VENV=$1
# --nolock: other tests run Snakemake in this directory at the same time, and every run (a dry run
# too) removes .snakemake/locks when it ends
SM=("$VENV/bin/snakemake" --nolock)
passed=0
set +e
"${SM[@]}" --lint > /tmp/synmt-lint.txt 2>&1
lint_rc=$?
set -e
findings=$(grep -cE '^\s+\* ' /tmp/synmt-lint.txt || true)
# exit 1 with findings listed is the linter's verdict; any other failure (a Snakefile that does not
# parse, a crash: exit 1 and no finding) is the linter not having run, never a pass
if [ "$lint_rc" -ne 0 ] && { [ "$lint_rc" -ne 1 ] || [ "$findings" -eq 0 ]; }; then
  cat /tmp/synmt-lint.txt; echo "snakemake --lint failed (exit $lint_rc) without lint findings"; exit 1
fi
other=$(grep -E '^\s+\* ' /tmp/synmt-lint.txt | grep -v 'Specify a conda environment or container for each rule' || true)
if [ -n "$other" ]; then cat /tmp/synmt-lint.txt; echo "lint findings: $other"; exit 1; fi
passed=$((passed + 1))
"${SM[@]}" -n --quiet all --config work_dir=/tmp/synmt-dry/work results_dir=/tmp/synmt-dry/results > /dev/null
passed=$((passed + 1))
if "${SM[@]}" -n --quiet all --config colour=blue > /tmp/synmt-bad.txt 2>&1; then
  echo "unknown config key accepted"; exit 1
fi
grep -q "'colour' was unexpected" /tmp/synmt-bad.txt || { cat /tmp/synmt-bad.txt; echo "error does not name the key"; exit 1; }
passed=$((passed + 1))
if "${SM[@]}" -n --quiet all --configfile tests/pipeline/bad_system.yaml > /tmp/synmt-bad2.txt 2>&1; then
  echo "system with an unknown pair accepted"; exit 1
fi
grep -q "unknown pair 'no_such_pair'" /tmp/synmt-bad2.txt || { cat /tmp/synmt-bad2.txt; echo "unclear error"; exit 1; }
passed=$((passed + 1))
# a parser continued from another one starts from that parser's model under results_dir
"${SM[@]}" -n -p /tmp/synmt-dry/elsewhere/parsers/en_ewt_long/parser.pt --config results_dir=/tmp/synmt-dry/elsewhere \
  > /tmp/synmt-cont.txt 2>&1 || { cat /tmp/synmt-cont.txt; echo "continued parser does not dry-run"; exit 1; }
grep -q 'train.init_model="/tmp/synmt-dry/elsewhere/parsers/en_ewt/parser.pt"' /tmp/synmt-cont.txt \
  || { cat /tmp/synmt-cont.txt; echo "continue_from does not follow results_dir"; exit 1; }
passed=$((passed + 1))
# the demo systems never wait for a parser (parse: lives on multi30k_en_de_parsed)
"${SM[@]}" -n all --config work_dir=/tmp/synmt-dry/work results_dir=/tmp/synmt-dry/results > /tmp/synmt-demo.txt 2>&1
if grep -qE '^rule (parse_corpus|train_parser|build_syntax_inventory):' /tmp/synmt-demo.txt; then
  echo "the demo needs a parser"; exit 1
fi
passed=$((passed + 1))
# a pair with parse.src: every split's binarize job reads that split's parse cache, the text the
# cache was made from (the text BPE segments) and the pair's inventories, made from the train cache
W=/tmp/synmt-dry/work/multi30k_en_de_parsed
"${SM[@]}" -n -p $W/data/train.h5 $W/data/valid.h5 $W/data/test.h5 --config work_dir=/tmp/synmt-dry/work results_dir=/tmp/synmt-dry/results \
  > /tmp/synmt-parsed.txt 2>&1 || { cat /tmp/synmt-parsed.txt; echo "parsed pair does not dry-run"; exit 1; }
for split in train valid test; do
  stage=tok; [ $split = train ] && stage=clean
  grep -q -- "--subwords bpe --src-parse $W/parse/$split.src.h5 --src-parse-corpus $W/$stage/$split.src --src-labels $W/labels.src --src-upos $W/upos.src -o $W/data/$split.h5" /tmp/synmt-parsed.txt \
    || { cat /tmp/synmt-parsed.txt; echo "binarize of $split does not get its parse cache and the inventories"; exit 1; }
  grep -A1 "^rule binarize:" /tmp/synmt-parsed.txt | grep "input: $W/bpe/$split.src" | grep "$W/parse/$split.src.h5" | grep -q "$W/labels.src, $W/upos.src" \
    || { cat /tmp/synmt-parsed.txt; echo "binarize of $split does not list the cache and inventories as inputs"; exit 1; }
  grep -A1 "^rule parse_corpus:" /tmp/synmt-parsed.txt | grep -q "input: $W/$stage/$split.src" \
    || { cat /tmp/synmt-parsed.txt; echo "the $split cache is not parsed from the text BPE segments"; exit 1; }
  grep -A1 "^rule apply_bpe:" /tmp/synmt-parsed.txt | grep -q "input: $W/$stage/$split.src," \
    || { cat /tmp/synmt-parsed.txt; echo "BPE of $split does not segment $stage/$split.src"; exit 1; }
done
grep -A1 "^rule build_syntax_inventory:" /tmp/synmt-parsed.txt | grep -q "input: $W/parse/train.src.h5, $W/clean/train.src" \
  || { cat /tmp/synmt-parsed.txt; echo "the inventories are not made from the training cache"; exit 1; }
passed=$((passed + 1))
# a word-level pair (subwords: none): no BPE, the tokenised text is binarised and parsed as is
W=/tmp/synmt-dry/work/words_en_de_parsed
"${SM[@]}" -n -p $W/data/test.h5 --configfile tests/pipeline/syntax_pairs.yaml --config work_dir=/tmp/synmt-dry/work \
  results_dir=/tmp/synmt-dry/results > /tmp/synmt-words.txt 2>&1 || { cat /tmp/synmt-words.txt; echo "word-level pair does not dry-run"; exit 1; }
grep -q -- "synmt-binarize data --src $W/tok/test.src --tgt $W/tok/test.tgt .* --subwords none --src-parse $W/parse/test.src.h5 --src-parse-corpus $W/tok/test.src" /tmp/synmt-words.txt \
  || { cat /tmp/synmt-words.txt; echo "word-level binarize"; exit 1; }
grep -q -- "synmt-binarize vocab -i $W/clean/train.src --min-frequency 2" /tmp/synmt-words.txt || { cat /tmp/synmt-words.txt; echo "word-level vocabulary"; exit 1; }
if grep -qE "^rule (apply_bpe|learn_bpe_joint|learn_bpe_separate):" /tmp/synmt-words.txt; then echo "a word-level pair runs BPE"; exit 1; fi
passed=$((passed + 1))
# parse.src with SentencePiece is refused (it segments untokenised text), and so is a BPE block on
# a word-level pair
if "${SM[@]}" -n --quiet all --configfile tests/pipeline/bad_spm_parse.yaml > /tmp/synmt-bad3.txt 2>&1; then
  echo "parse.src with subwords: spm accepted"; exit 1
fi
grep -q "pairs.spm_parsed: parse.src needs subwords: bpe or none" /tmp/synmt-bad3.txt || { cat /tmp/synmt-bad3.txt; echo "unclear error"; exit 1; }
passed=$((passed + 1))
# the parses target still builds every cache and the inventories
"${SM[@]}" -n parses --config work_dir=/tmp/synmt-dry/work results_dir=/tmp/synmt-dry/results > /tmp/synmt-parses.txt 2>&1 \
  || { cat /tmp/synmt-parses.txt; echo "parses does not dry-run"; exit 1; }
for product in parse/train.src.h5 parse/valid.src.h5 parse/test.src.h5 labels.src upos.src; do
  grep -qE "^    output: .*multi30k_en_de_parsed/$product(,|$)" /tmp/synmt-parses.txt \
    || { cat /tmp/synmt-parses.txt; echo "parses does not build multi30k_en_de_parsed/$product"; exit 1; }
done
passed=$((passed + 1))
echo "$passed passed, 0 failed"
