#!/usr/bin/env bash
# Injected faults (issue #20), each against the real tools on a 256-pair Multi30k slice:
#  1. the disk fills (RLIMIT_FSIZE) while a training state is written: the run fails naming the
#     file, the previous state stays intact (resuming from it ends bit-identical to a run that
#     never failed), no temporary file is left;
#  2. the disk fills while a tool writes its output: the error names the output, an existing
#     output stays as it was, no partial or temporary file;
#  3. an output directory that is not writable: a clear error before any work (synmt-train too);
#  4. a truncated and a bit-flipped state.pt on --resume: refused with a message, never a
#     silent restart from scratch (and a damaged or unsealed checkpoint is refused by
#     synmt-translate; scripts/seal_archive.py seals a trusted older one);
#  5. a parse cache whose corpus has changed since it was parsed: refused, naming the cache;
#  6. SIGTERM while a checkpoint is being written: the write completes, the run saves its state
#     and exits 143, --resume ends bit-identical;
#  7. an MPI rank that stalls (SIGSTOP, not dead): the job ends with a message within
#     train.comm_timeout instead of hanging.
# usage: fault_injection.sh BUILD_DIR DATA_DIR. Prints each check and 'N passed, N failed'.
set -uo pipefail
BIN=$1/bin
DATA=$2
T=$(mktemp -d)
chmod 755 "$T"
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
passed=0
failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
# shellcheck source=tests/trainer/tiny_data.sh
source "$(dirname "$0")/../trainer/tiny_data.sh"
no_temp_files() { ! find "$1" -name '*.tmp.*' | grep -q .; }

cfg() {  # cfg FILE MAX_STEPS [extra train options as JSON members]
  printf '{"model": {"arch": "rnn_tiny"}, "train": {"batch_size": 8, "max_steps": %s, "max_epochs": 1000, "lr": 0.005, "seed": 5, "threads": 1, "checkpoint_interval": 1%s}}\n' \
    "$2" "${3:-}" > "$1"
}
TRAIN=("$BIN/synmt-train" --train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt" --dist single)
train() {  # train CONFIG OUT [args]; runs that get signals start from the array ("function &" is a bash subshell)
  local c=$1 o=$2
  shift 2
  "${TRAIN[@]}" -c "$c" -o "$o" "$@"
}
cfg "$T/cfg.json" 60

# --- 1. disk full while the training state is written ----------------------------------------
train "$T/cfg.json" "$T/full" --dump-params "$T/full.bin" > /dev/null 2>&1 || fail "uninterrupted run"
"${TRAIN[@]}" -c "$T/cfg.json" -o "$T/df" > "$T/df1.log" 2>&1 &
pid=$!
for _ in $(seq 1 400); do [ -s "$T/df/state.pt" ] && break; sleep 0.05; done
sleep 0.3
kill -TERM "$pid" 2>/dev/null
wait "$pid"
cp -r "$T/df" "$T/df_saved"  # the state at the signal, for check 4
before=$(sha256sum < "$T/df/state.pt")
state_kb=$(( $(stat -c %s "$T/df/state.pt") / 1024 ))
# a limit below the state's size: the next state save cannot complete
( ulimit -f $((state_kb / 2)); train "$T/cfg.json" "$T/df" --resume > "$T/df2.log" 2>&1 )
rc=$?
if [ "$rc" -ne 0 ] && grep -q "cannot write $T/df/state.pt" "$T/df2.log" && [ "$(sha256sum < "$T/df/state.pt")" = "$before" ] \
   && no_temp_files "$T/df"; then
  ok "disk full during the state write: exit $rc, '$(grep -o 'cannot write [^:]*: .*' "$T/df2.log" | head -1 | cut -c1-120)', previous state intact"
else
  fail "disk full during the state write (exit $rc; state $([ "$(sha256sum < "$T/df/state.pt")" = "$before" ] && echo intact || echo changed); left: $(find "$T/df" -name '*.tmp.*'))"
  tail -3 "$T/df2.log"
fi
if train "$T/cfg.json" "$T/df" --resume --dump-params "$T/df.bin" > "$T/df3.log" 2>&1 && cmp -s "$T/full.bin" "$T/df.bin"; then
  ok "resuming from the intact state after the failure: parameters bit-identical to the uninterrupted run"
else
  fail "resume after the disk-full failure"; tail -3 "$T/df3.log"
fi

# --- 2. disk full while a tool writes its output -----------------------------------------------
"$BIN/synmt-bpe" learn -i "$T/s.txt" -o "$T/codes" -s 200 2> /dev/null
"$BIN/synmt-bpe" apply -c "$T/codes" -i "$T/s.txt" -o "$T/out.bpe" 2> /dev/null
good=$(sha256sum < "$T/out.bpe")
( ulimit -f 4; "$BIN/synmt-bpe" apply -c "$T/codes" -i "$T/s.txt" -o "$T/out.bpe" 2> "$T/bpe.log" )
rc=$?
if [ "$rc" -ne 0 ] && grep -q "cannot write $T/out.bpe" "$T/bpe.log" && [ "$(sha256sum < "$T/out.bpe")" = "$good" ] && no_temp_files "$T"; then
  ok "disk full during synmt-bpe apply: exit $rc, '$(cut -c1-120 "$T/bpe.log" | tail -1)', previous output intact"
else
  fail "disk full during synmt-bpe apply (exit $rc)"; cat "$T/bpe.log"
fi
( ulimit -f 8; "$BIN/synmt-binarize" data --src "$T/s.txt" --tgt "$T/t.txt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" -o "$T/full_disk.h5" 2> "$T/bin.log" )
rc=$?
if [ "$rc" -ne 0 ] && grep -q "full_disk.h5" "$T/bin.log" && [ ! -e "$T/full_disk.h5" ] && no_temp_files "$T"; then
  ok "disk full during synmt-binarize (HDF5): exit $rc, '$(tail -1 "$T/bin.log" | cut -c1-120)', no partial file"
else
  fail "disk full during synmt-binarize (exit $rc)"; tail -3 "$T/bin.log"
fi

# --- 3. an output directory that is not writable ------------------------------------------------
mkdir -p "$T/ro" && chmod 555 "$T/ro"
as_user=()
if [ "$(id -u)" -eq 0 ]; then as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi  # root ignores modes
"${as_user[@]}" "$BIN/synmt-bpe" apply -c "$T/codes" -i "$T/s.txt" -o "$T/ro/out.bpe" 2> "$T/ro_bpe.log"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "cannot create $T/ro/out.bpe.*Permission denied" "$T/ro_bpe.log"; then
  ok "unwritable output directory (synmt-bpe): '$(cut -c1-120 "$T/ro_bpe.log")'"
else
  fail "unwritable output directory (synmt-bpe, exit $rc)"; cat "$T/ro_bpe.log"
fi
"${as_user[@]}" "$BIN/synmt-train" -c "$T/cfg.json" --train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt" \
  --dist single -o "$T/ro/run" > "$T/ro_train.log" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q "$T/ro/run" "$T/ro_train.log" && grep -qi "permission denied" "$T/ro_train.log" && ! grep -qE "training pairs|valid ppl|^epoch [0-9]+:" "$T/ro_train.log"; then
  ok "unwritable output directory (synmt-train): refused before training: '$(grep -i "permission" "$T/ro_train.log" | head -1 | cut -c1-140)'"
else
  fail "unwritable output directory (synmt-train, exit $rc)"; tail -3 "$T/ro_train.log"
fi

# --- 4. truncated and bit-flipped state.pt on --resume -----------------------------------------
for damage in truncated flipped; do
  rm -rf "$T/dm" && cp -r "$T/df_saved" "$T/dm"
  size=$(stat -c %s "$T/dm/state.pt")
  if [ "$damage" = truncated ]; then
    truncate -s $((size * 2 / 3)) "$T/dm/state.pt"
  else
    python3 - "$T/dm/state.pt" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 3] ^= 0x04  # one bit inside the tensor records
open(p, "wb").write(b)
PY
  fi
  damaged=$(sha256sum < "$T/dm/state.pt")
  train "$T/cfg.json" "$T/dm" --resume > "$T/dm.log" 2>&1
  rc=$?
  if [ "$rc" -eq 1 ] && grep -q "$T/dm/state.pt: " "$T/dm.log" && ! grep -q "starting afresh\|from scratch" "$T/dm.log" \
     && [ "$(sha256sum < "$T/dm/state.pt")" = "$damaged" ]; then
    ok "$damage state.pt refused on --resume: '$(grep "state.pt: " "$T/dm.log" | head -1 | sed 's/.*error: //' | cut -c1-140)'"
  else
    fail "$damage state.pt on --resume (exit $rc)"; tail -3 "$T/dm.log"
  fi
done
python3 - "$T/full/best.pt" "$T/flipped.pt" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[len(b) // 2] ^= 0x01
open(sys.argv[2], "wb").write(b)
PY
head -3 "$T/s.txt" > "$T/in.txt"
"$BIN/synmt-translate" -m "$T/flipped.pt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" -i "$T/in.txt" -o "$T/hyp.txt" > "$T/tr.log" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q "flipped.pt: damaged" "$T/tr.log" && [ ! -e "$T/hyp.txt" ]; then
  ok "a bit-flipped checkpoint refused by synmt-translate"
else
  fail "bit-flipped checkpoint (exit $rc)"; tail -2 "$T/tr.log"
fi

# an unsealed archive (written before seals) is refused; scripts/seal_archive.py makes it loadable
python3 - "$T/full/best.pt" "$T/unsealed.pt" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b = b[:-77]
b[-2:] = b"\0\0"
open(sys.argv[2], "wb").write(b)
PY
"$BIN/synmt-translate" -m "$T/unsealed.pt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" -i "$T/in.txt" -o "$T/hyp.txt" > "$T/us.log" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q "unsealed.pt: a checkpoint without synmt's seal" "$T/us.log" \
   && python3 "$(dirname "$0")/../../scripts/seal_archive.py" "$T/unsealed.pt" > /dev/null \
   && cmp -s "$T/unsealed.pt" "$T/full/best.pt" \
   && "$BIN/synmt-translate" -m "$T/unsealed.pt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" -i "$T/in.txt" -o "$T/hyp.txt" > /dev/null 2>&1; then
  ok "an unsealed checkpoint refused; scripts/seal_archive.py reseals it byte-identically and it loads"
else
  fail "unsealed checkpoint (exit $rc)"; tail -2 "$T/us.log"
fi

# --- 5. a parse cache whose corpus changed ------------------------------------------------------
awk '{for (i = 1; i <= NF; ++i) printf "%d\t%s\t_\tNOUN\t_\t_\t%d\t%s\t_\t_\n", i, $i, (i == NF ? 0 : i + 1), (i == NF ? "root" : "dep"); print ""}' \
  "$T/s.txt" > "$T/s.conllu"
"$BIN/synmt-parse" --backend conllu --conllu "$T/s.conllu" -i "$T/s.txt" -o "$T/s.parse.h5" 2> "$T/pc_setup.log" \
  && "$BIN/synmt-binarize" inventory --parse "$T/s.parse.h5" --parse-corpus "$T/s.txt" --labels-out "$T/labels" --upos-out "$T/upos" 2>> "$T/pc_setup.log" \
  || { fail "parse cache setup"; cat "$T/pc_setup.log"; }
# the cache of the unchanged corpus is accepted (so that the refusal below is about the change)
if "$BIN/synmt-binarize" data --src "$T/s.txt" --tgt "$T/t.txt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" --src-parse "$T/s.parse.h5" \
     --src-parse-corpus "$T/s.txt" --src-labels "$T/labels" --src-upos "$T/upos" --subwords none -o "$T/syn_same.h5" 2> "$T/pc_same.log"; then
  ok "the parse cache of the unchanged corpus accepted"
else
  fail "the parse cache of the unchanged corpus refused"; cat "$T/pc_same.log"
fi
sed '5s/^/A /' "$T/s.txt" > "$T/s_edited.txt"
"$BIN/synmt-binarize" data --src "$T/s_edited.txt" --tgt "$T/t.txt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" --src-parse "$T/s.parse.h5" \
  --src-parse-corpus "$T/s_edited.txt" --src-labels "$T/labels" --src-upos "$T/upos" --subwords none -o "$T/syn.h5" 2> "$T/pc.log"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "s.parse.h5: parse cache belongs to another corpus" "$T/pc.log" && [ ! -e "$T/syn.h5" ]; then
  ok "a parse cache of a changed corpus refused: '$(cut -c1-140 "$T/pc.log" | tail -1)'"
else
  fail "parse cache of a changed corpus (exit $rc)"; cat "$T/pc.log"
fi

# --- 6. SIGTERM while a checkpoint is being written --------------------------------------------
# a model large enough that writing its state takes a while (tens of MB)
big='"options": {"embed_dim": 256, "encoder_hidden": 256, "decoder_hidden": 512}'
printf '{"model": {"arch": "rnn_tiny", %s}, "train": {"batch_size": 8, "max_steps": 12, "max_epochs": 1000, "lr": 0.002, "seed": 5, "threads": 1, "checkpoint_interval": 1}}\n' \
  "$big" > "$T/big.json"
train "$T/big.json" "$T/big_full" --dump-params "$T/big_full.bin" > /dev/null 2>&1 || fail "uninterrupted large run"
"${TRAIN[@]}" -c "$T/big.json" -o "$T/big" --dump-params "$T/big.bin" > "$T/big.log" 2>&1 &
pid=$!
caught=0
for _ in $(seq 1 4000); do
  if compgen -G "$T/big/state.pt.tmp.*" > /dev/null; then kill -TERM "$pid"; caught=1; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.005
done
wait "$pid"
rc=$?
# exit 143 alone is also a process killed outright; the handler's own line says the state was saved
if [ "$caught" -eq 1 ] && [ "$rc" -eq 143 ] && no_temp_files "$T/big" && grep -q "signal 15: training state saved to $T/big/state.pt" "$T/big.log" \
   && train "$T/big.json" "$T/big" --resume --dump-params "$T/big.bin" > "$T/big2.log" 2>&1 && cmp -s "$T/big_full.bin" "$T/big.bin"; then
  ok "SIGTERM during a state write: exit 143, then --resume ($(grep -o "resuming at .*" "$T/big2.log")) bit-identical"
else
  fail "SIGTERM during a state write (caught=$caught, exit $rc, left: $(find "$T/big" -name '*.tmp.*'))"; tail -3 "$T/big.log"; tail -3 "$T/big2.log"
fi

# --- 7. an MPI rank that stalls -----------------------------------------------------------------
if command -v mpirun > /dev/null; then
  cfg "$T/mpi.json" 100000 ', "comm_timeout": 3'
  start=$(date +%s)
  timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 "$BIN/synmt-train" -c "$T/mpi.json" --train "$T/d.h5" --valid "$T/d.h5" \
    --src-vocab "$T/vs" --tgt-vocab "$T/vt" --dist mpi -o "$T/mpi" > "$T/mpi.log" 2>&1 &
  launcher=$!
  rank1=""
  for _ in $(seq 1 600); do
    for p in $(pgrep -f "synmt-train -c $T/mpi.json"); do
      tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1" && rank1=$p
    done
    [ -n "$rank1" ] && grep -q "update " "$T/mpi.log" 2>/dev/null && break
    sleep 0.1
  done
  stopped=$(date +%s)
  [ -n "$rank1" ] && kill -STOP "$rank1"
  wait "$launcher"
  rc=$?
  ended=$(date +%s)
  [ -n "$rank1" ] && kill -KILL "$rank1" 2>/dev/null
  if [ -n "$rank1" ] && [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "did not complete within 3 s (train.comm_timeout)" "$T/mpi.log" \
     && [ $((ended - stopped)) -le 60 ]; then
    ok "stalled MPI rank: the job ended $((ended - stopped)) s after rank 1 stopped (exit $rc): '$(grep -o 'rank 0 of 2 .*' "$T/mpi.log" | head -1 | cut -c1-120)'"
  else
    fail "stalled MPI rank (rank1=$rank1, exit $rc, $((ended - stopped)) s after the stop, $((ended - start)) s in all)"; tail -5 "$T/mpi.log"
  fi
else
  fail "mpirun not found"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
