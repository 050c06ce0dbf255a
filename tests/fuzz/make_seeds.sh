#!/usr/bin/env bash
# Regenerates the committed seed corpora (tests/fuzz/corpus/<target>/) from the real data and the
# project's own tools: a few sentences of UD treebanks, slices of real vocabularies and BPE codes,
# a tiny SentencePiece model and checkpoint, configuration files of the presets. Small on purpose.
# usage: make_seeds.sh DATA_DIR BUILD_DIR   (DATA_DIR as in docs/data.md; BUILD_DIR a normal build)
set -eu  # no pipefail: zcat | head ends zcat with SIGPIPE
DATA=$1
BIN=$2/bin
C=$(cd "$(dirname "$0")" && pwd)/corpus
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$C"/{fuzz_conllu,fuzz_bpe_codes,fuzz_vocab,fuzz_json_config,fuzz_model_options,fuzz_fetch,fuzz_dataset_h5,fuzz_parse_cache_h5,fuzz_analysis_h5,fuzz_spm_model,fuzz_checkpoint,fuzz_length_prior,fuzz_inventory,fuzz_bpe_vocab}

# CoNLL-U: the first sentences of treebanks with multiword tokens, empty nodes, other scripts
for tb in UD_English-PUD/en_pud-ud-test UD_German-GSD/de_gsd-ud-test UD_Japanese-PUD/ja_pud-ud-test \
          UD_Arabic-PUD/ar_pud-ud-test UD_Turkish-IMST/tr_imst-ud-dev UD_Russian-GSD/ru_gsd-ud-dev; do
  zcat "$DATA/ud/$tb.conllu.gz" | awk 'NF == 0 { n++ } { print } n == 3 { exit }' > "$C/fuzz_conllu/$(basename "$tb").conllu"
done

# tokenised Multi30k: vocabularies (synmt-binarize vocab) and BPE codes (synmt-bpe learn)
zcat "$DATA/parallel/multi30k-task1/train.en.gz" | head -300 > "$T/en.txt"
zcat "$DATA/parallel/multi30k-task1/train.de.gz" | head -300 > "$T/de.txt"
"$BIN/synmt-binarize" vocab -i "$T/en.txt" -o "$T/vocab.en" 2>/dev/null
head -60 "$T/vocab.en" > "$C/fuzz_vocab/vocab_en_head60"
"$BIN/synmt-bpe" learn -i "$T/de.txt" -o "$T/codes" --symbols 80 2>/dev/null
head -40 "$T/codes" > "$C/fuzz_bpe_codes/codes_de_40"
grep -v '^#version' "$T/codes" | head -20 > "$C/fuzz_bpe_codes/codes_de_noheader_20"
# the vocabulary of apply --vocabulary: get-vocab of the text segmented with the 40 codes that
# fuzz_bpe_vocab.cpp holds
"$BIN/synmt-bpe" apply -c "$C/fuzz_bpe_codes/codes_de_40" -i "$T/de.txt" -o "$T/de.bpe" 2>/dev/null
"$BIN/synmt-bpe" get-vocab -i "$T/de.bpe" -o "$T/vocab.bpe" 2>/dev/null
head -60 "$T/vocab.bpe" > "$C/fuzz_bpe_vocab/vocab_de_60"

# a length prior (synmt-length-prior) and a label inventory (UD relations, <unk> first, byte order)
"$BIN/synmt-length-prior" --src "$T/en.txt" --tgt "$T/de.txt" -o "$C/fuzz_length_prior/multi30k_300.json" 2>/dev/null
{ echo '<unk>'; zcat "$DATA/ud/UD_English-PUD/en_pud-ud-test.conllu.gz" | awk -F'\t' 'NF == 10 && $8 != "_" { print $8 }' | LC_ALL=C sort -u; } \
  > "$C/fuzz_inventory/en_pud_labels.txt"

# SentencePiece: a tiny model without a normalisation table (keeps the seed small)
"$BIN/synmt-spm" train -i "$T/de.txt" --model-prefix "$T/spm" --vocab-size 60 --model-type bpe 2>/dev/null || true
[ -s "$T/spm.model" ] && cp "$T/spm.model" "$C/fuzz_spm_model/bpe60.model"

# configurations: the model/train/parser sections as the pipeline writes them
for arch in rnn_tiny transformer_pascal_tiny sa_nmt_shared lg_graph_cnn lgp_nmt; do
  printf '{"model": {"arch": "%s", "options": {"dropout": 0.1}}, "train": {"batch_size": 8, "max_steps": 10, "optimizer": "adam", "lr": 0.001}, "parser": {"epochs": 1}}\n' "$arch" \
    > "$C/fuzz_model_options/$arch.json"
  cp "$C/fuzz_model_options/$arch.json" "$C/fuzz_json_config/$arch.json"
done

# fetch: "<checksum>\n<format>\n<bytes>" with a real archive and the text formats
mkdir -p "$T/a"
head -5 "$T/en.txt" > "$T/a/b.txt"
tar -C "$T" -czf "$T/m.tgz" a/b.txt
{ printf -- '-\ntext\n'; cat "$T/m.tgz"; } > "$C/fuzz_fetch/tgz_text"
tar -C "$T" -cf "$T/m.tar" a/b.txt
{ printf -- '-\ntext\n'; cat "$T/m.tar"; } > "$C/fuzz_fetch/tar_text"
tar -C "$T" -cJf "$T/m.txz" a/b.txt
{ printf -- '-\ntext\n'; cat "$T/m.txz"; } > "$C/fuzz_fetch/txz_text"
(cd "$T" && python3 -c 'import zipfile; zipfile.ZipFile("m.zip", "w", zipfile.ZIP_DEFLATED).write("a/b.txt")')
{ printf -- '-\ntext\n'; cat "$T/m.zip"; } > "$C/fuzz_fetch/zip_text"
{ printf 'md5:0123456789abcdef0123456789abcdef\nsgml\n<doc><seg id="1">Ein Hund .</seg>\n<seg id="2">Zwei</seg></doc>\n'; } > "$C/fuzz_fetch/sgml"
{ printf '%s\nfield:-1\n' "$(printf x | sha256sum | cut -c1-64)"; printf 'a ||| b ||| c\nd ||| e ||| f\n'; } > "$C/fuzz_fetch/field"
{ printf -- '-\ntags\n<url>x</url>\nA talk .\n<talkid>1</talkid>\n'; } > "$C/fuzz_fetch/tags"

# structured HDF5 targets: the fuzzer's bytes choose arrays and attributes; a few random seeds
for t in fuzz_dataset_h5 fuzz_parse_cache_h5 fuzz_analysis_h5; do
  for i in 1 2 3 4; do head -c $((64 * i)) /dev/urandom > "$C/$t/random_$i"; done
done

# a real checkpoint and training state of the smallest model (one epoch: two updates on 64 pairs;
# the state is saved at the epoch's end)
head -64 "$T/en.txt" > "$T/s"; head -64 "$T/de.txt" > "$T/t"
"$BIN/synmt-binarize" vocab -i "$T/s" -o "$T/vs" --max-size 40 2>/dev/null
"$BIN/synmt-binarize" vocab -i "$T/t" -o "$T/vt" --max-size 40 2>/dev/null
"$BIN/synmt-binarize" data --src "$T/s" --tgt "$T/t" --src-vocab "$T/vs" --tgt-vocab "$T/vt" -o "$T/d.h5" 2>/dev/null
printf '{"model": {"arch": "rnn_tiny"}, "train": {"batch_size": 32, "max_epochs": 1, "threads": 1}}\n' > "$T/cfg.json"
"$BIN/synmt-train" -c "$T/cfg.json" --tiny --train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt" \
  --dist single -o "$T/run" > /dev/null 2>&1
cp "$T/run/best.pt" "$C/fuzz_checkpoint/rnn_tiny_best.pt"
cp "$T/run/state.pt" "$C/fuzz_checkpoint/rnn_tiny_state.pt"
# the same without its seal (core/sealed_zip.h), so that mutations reach LibTorch's own reader
python3 - "$T/run/best.pt" "$C/fuzz_checkpoint/rnn_tiny_best_unsealed.pt" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b = b[:-77]          # the comment: "synmt-sha256:" + 64 hex digits
b[-2:] = b"\0\0"    # the end record's comment length
open(sys.argv[2], "wb").write(b)
PY
# regression_*: inputs that once crashed a target (tests/fuzz/README.md); kept, never regenerated
du -sh "$C"/*
