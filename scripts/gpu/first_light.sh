#!/usr/bin/env bash
# GPU first light (issue #32): one command on a lent GPU machine, everything it measures under $OUT,
# each step under a time cap so that the whole run ends inside BUDGET seconds and the summary is
# written even when a step fails.
#
# Here first:  bash scripts/gpu/bundle.sh      (binaries, libraries, Open MPI, checkpoints -> .gpu-run)
# There:       device run, carry [".gpu-run"]: bash scripts/gpu/first_light.sh
# Rehearsal on a CPU machine (every step but the GPU-only ones, tiny sizes):
#   DEVICE=cpu PYTHON=.venv/bin/python OUT=/tmp/fl bash scripts/gpu/first_light.sh
#
# Steps, in the issue's priority: setup (unpack, LibTorch identity, the card, a bf16 matrix-product
# peak), tests (the trainer suite; the conformance suite and the CUDA kernel tests on the GPU),
# bench (Transformer base, bf16: synmt-train vs the PyTorch loop, A B A B, MFU), profile (where the
# GPU time goes, both programs), decode (demo systems, beam 5, GPU vs CPU), ranks (two ranks on the
# one GPU: MPI and NCCL; a stalled and a killed rank), mini (pipeline runs carried by bundle.sh's
# MINI_RUNS trained on the GPU, side by side, with the pipeline's own configuration; the first
# MINI_RETURN (2) finished ones come back as best.pt in MINI_PART (15M; the device tool returns 8
# files of at most 16 MiB, 64 MiB in all: a 32 MB Transformer best.pt needs MINI_PART=16000k to
# fit two runs in 2 parts each), every run's logs in logs.tar.gz).
# Out: summary.md (what a reader needs), results.jsonl (one JSON per figure), logs.tar.gz (every
# step's log, the profiles). Knobs: BUDGET (seconds, 480), DEVICE (cuda), PYTHON (python3), STEPS,
# ONLY (a comma list of steps to run; setup always runs).
set -uo pipefail
set -m  # each step in its own process group, so that a cap ends everything it started
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:?set OUT to a folder}
DEVICE=${DEVICE:-cuda}
PY=${PYTHON:-python3}
BUDGET=${BUDGET:-480}
STEPS=${STEPS:-60}
RUN=$PWD/.gpu-run
W=/tmp/first-light
ROOT=/tmp/synmt-root
BIN=$ROOT/wrap
SUMMARY=$OUT/summary.md
RESULTS=$OUT/results.jsonl
rm -rf "$W" && mkdir -p "$W/logs" "$OUT"
: > "$SUMMARY"
: > "$RESULTS"
GPU=0
[ "$DEVICE" = cuda ] && GPU=1

note() { echo "$*" | tee -a "$SUMMARY"; }
record() { echo "$1" >> "$RESULTS"; echo "  $1" >> "$SUMMARY"; }
pack() { tar -C "$W" -czf "$OUT/logs.tar.gz" logs 2>/dev/null; }

# step NAME CAP FUNCTION: FUNCTION's output in logs/NAME.log, at most CAP seconds (less where the
# budget has less left), then its status in the summary.
step() {
  local name=$1 cap=$2 fn=$3
  if [ -n "${ONLY:-}" ] && [ "$name" != setup ] && [[ ",$ONLY," != *",$name,"* ]]; then return; fi
  local left=$((BUDGET - SECONDS - 8))
  [ "$cap" -gt "$left" ] && cap=$left
  if [ "$cap" -lt 10 ]; then note "- **$name**: not run (budget spent)"; return; fi
  local t0=$SECONDS
  note "### $name (cap $cap s)"
  # the step's own process group (set -m); inside it, job control off, so that everything it
  # starts stays in that group and the cap ends it all
  (set +m; "$fn") > "$W/logs/$name.log" 2>&1 &
  local pid=$!
  ( sleep "$cap"; kill -TERM -- -"$pid" 2>/dev/null; sleep 3; kill -KILL -- -"$pid" 2>/dev/null ) > /dev/null 2>&1 &
  local dog=$!
  wait "$pid"
  local rc=$?
  kill -- -"$dog" 2>/dev/null
  wait "$dog" 2>/dev/null
  local status="ok"
  [ $rc -ne 0 ] && status="FAILED (exit $rc)"
  [ $rc -eq 143 ] || [ $rc -eq 137 ] && status="CUT at its cap"
  note "- **$name**: $status in $((SECONDS - t0)) s"
  echo "=== $name: $status" >> "$W/logs/$name.log"
  pack
}

seconds_of() {  # COMMAND... -> wall seconds on stdout, the command's output in $W/last.log
  local t0=$EPOCHREALTIME
  "$@" > "$W/last.log" 2>&1 || { cat "$W/last.log"; return 1; }
  "$PY" -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$t0" "$EPOCHREALTIME"
}

# ---------------------------------------------------------------------------------------------
setup() {
  mkdir -p "$ROOT" "$BIN"
  tar -C "$ROOT" -xJf "$RUN/bundle.tar.xz" || "$PY" -c "import tarfile,sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$RUN/bundle.tar.xz" "$ROOT"
  local torch_lib site
  torch_lib=$("$PY" -c "import torch, os; print(os.path.join(os.path.dirname(torch.__file__), 'lib'))")
  site=$(dirname "$(dirname "$torch_lib")")
  local ld="$torch_lib"
  for d in "$site"/nvidia/*/lib; do [ -d "$d" ] && ld="$ld:$d"; done
  # the CUDA toolkit's runtime last, should the wheels not carry it
  ld="$ld:$ROOT/lib:$ROOT/usr/lib/x86_64-linux-gnu/openmpi/lib:$ROOT/usr/lib/x86_64-linux-gnu/pmix2/lib:/usr/local/cuda/lib64:/usr/local/cuda/lib"
  for b in "$ROOT"/bin/*; do
    printf '#!/bin/sh\nLD_LIBRARY_PATH="%s" exec "%s" "$@"\n' "$ld" "$b" > "$BIN/$(basename "$b")"
  done
  # Open MPI relocated from /usr to $ROOT/usr (OPAL_PREFIX), its PMIx beside it
  cat > "$BIN/mpirun" <<SH
#!/bin/sh
export OPAL_PREFIX="$ROOT/usr" PATH="$ROOT/usr/bin:\$PATH" LD_LIBRARY_PATH="$ld"
export PMIX_INSTALL_PREFIX="$ROOT/usr/lib/x86_64-linux-gnu/pmix2"
export PMIX_MCA_mca_base_component_path="$ROOT/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix"
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec "$ROOT/usr/bin/orterun" --oversubscribe "\$@"
SH
  chmod +x "$BIN"/*
  echo "--- unresolved libraries (none expected):"
  for b in "$ROOT"/bin/*; do LD_LIBRARY_PATH="$ld" ldd "$b" | grep "not found"; done
  echo "--- LibTorch here vs the build's"
  "$PY" -c "import torch; print(torch.__version__, torch.version.cuda, torch.version.git_version)" | tee "$W/torch.version"
  (cd "$torch_lib" && sha256sum -c "$RUN/torch.sha256") > "$W/sha.txt" 2>&1
  cat "$W/sha.txt"
  local same=no
  cmp -s "$W/torch.version" "$RUN/torch.version" && ! grep -q -v ': OK$' "$W/sha.txt" && same=yes
  record "{\"what\": \"libtorch_identical_to_build\", \"value\": \"$same\", \"here\": \"$(cat "$W/torch.version")\", \"build\": \"$(cat "$RUN/torch.version")\"}"
  "$BIN/synmt-train" --list-archs > /dev/null || return 1
  "$BIN/mpirun" -n 2 hostname || return 1
  if [ $GPU = 1 ]; then
    nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,power.limit --format=csv | tee "$W/card.csv"
    record "{\"what\": \"card\", \"value\": \"$(tail -1 "$W/card.csv")\"}"
    record "$("$PY" - <<'PY'
import json, time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
for _ in range(3):
    a @ b
torch.cuda.synchronize()
t = time.perf_counter()
for _ in range(10):
    a @ b
torch.cuda.synchronize()
s = (time.perf_counter() - t) / 10
print(json.dumps({"what": "bf16_matmul_8192_tflops", "value": 2 * 8192**3 / s / 1e12}))
PY
)"
  fi
}

# ---------------------------------------------------------------------------------------------
TEST_FIRST='*Conformance*:Cuda.*:Device.*:FusedKernels.*'
tests() {
  mkdir -p "$W/tests"
  # the device-facing suites first, in one process: every preset on the CPU and on the GPU
  "$BIN/synmt_trainer_tests" --gtest_filter="$TEST_FIRST" --gtest_brief=1 > "$W/tests/device.log" 2>&1
  local rc=$?
  tail -5 "$W/tests/device.log"
  grep -E '^\[  (FAILED|SKIPPED) ' "$W/tests/device.log" | head -40
  # the rest of the trainer suite in shards, one core each
  local n
  n=$(($(nproc) - 1))
  [ "$n" -lt 1 ] && n=1
  for ((i = 0; i < n; ++i)); do
    GTEST_TOTAL_SHARDS=$n GTEST_SHARD_INDEX=$i taskset -c "$i" "$BIN/synmt_trainer_tests" --gtest_filter="-$TEST_FIRST" \
      --gtest_brief=1 > "$W/tests/shard$i.log" 2>&1 &
  done
  local failed=0
  for job in $(jobs -p); do wait "$job" || failed=$((failed + 1)); done
  cat "$W/tests"/shard*.log | grep -E '^\[  (FAILED|PASSED|SKIPPED) ' | sort | uniq -c | head -60
  record "$("$PY" - "$W/tests" <<'PY'
import glob, json, re, sys
tot = {"passed": 0, "failed": 0, "skipped": 0, "files": 0, "finished": 0}
for f in glob.glob(sys.argv[1] + "/*.log"):
    text = open(f).read()
    tot["files"] += 1
    m = re.search(r"\[  PASSED  \] (\d+) test", text)
    if m:
        tot["finished"] += 1
        tot["passed"] += int(m.group(1))
    m = re.search(r"\[  FAILED  \] (\d+) test", text)
    if m:
        tot["failed"] += int(m.group(1))
    m = re.search(r"\[  SKIPPED \] (\d+) test", text)
    if m:
        tot["skipped"] += int(m.group(1))
print(json.dumps({"what": "trainer_tests", **tot}))
PY
)"
  cp -r "$W/tests" "$W/logs/tests"
  [ $rc -eq 0 ] && [ $failed -eq 0 ]
}

# ---------------------------------------------------------------------------------------------
LEN=30
VOCAB=8000
BIG=${BIG:-768}
SMALL=${SMALL:-128}
ARCH=${ARCH:-transformer_base}
SIZE=base
PRECISION=bf16
if [ $GPU = 0 ]; then BIG=16; SMALL=8; ARCH=transformer_tiny; SIZE=tiny; PRECISION=fp32; STEPS=${STEPS_CPU:-40}; fi

synmt_rate() {  # BATCH STEPS -> target tokens/s of synmt-train (the log windows after the first)
  local batch=$1 steps=$2 dir=$W/bench/run.$1.$RANDOM
  cat > "$W/bench/cfg.$batch.json" <<JSON
{"model": {"arch": "$ARCH"},
 "train": {"device": "$DEVICE", "precision": "$PRECISION", "batch_size": $batch, "max_len": $((LEN + 1)),
           "max_steps": $((steps + 20)), "max_epochs": 1, "log_interval": 20, "checkpoint_interval": 0,
           "optimizer": "adam", "lr": 0.0001, "adam_beta2": 0.98, "adam_eps": 1e-9, "label_smoothing": 0.1,
           "clip_norm": 5.0, "halve_lr_on_plateau": false}}
JSON
  "$BIN/synmt-train" -c "$W/bench/cfg.$batch.json" --train "$W/bench/train.h5" --valid "$W/bench/valid.h5" \
    --src-vocab "$W/bench/src.vocab" --tgt-vocab "$W/bench/tgt.vocab" -o "$dir" --dist single 2> "$dir.log" ||
    { cat "$dir.log" >&2; return 1; }
  grep -m2 -e "device" -e "runtime" "$dir.log" >&2
  "$PY" - "$dir/metrics.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in rows if r.get("type") == "train"]
rows = rows[1:] or rows  # the first window holds the warm-up
print(sum(r["tgt_tokens_per_s"] for r in rows) / len(rows))
PY
}
reference_rate() {  # BATCH STEPS [--profile-out F] -> target tokens/s of the PyTorch loop
  local batch=$1 steps=$2
  shift 2
  "$PY" scripts/bench/gpu/pytorch_transformer_loop.py --src-vocab "$(wc -l < "$W/bench/src.vocab")" \
    --tgt-vocab "$(wc -l < "$W/bench/tgt.vocab")" --batch-size "$batch" --src-len $((LEN + 1)) --tgt-len $((LEN + 1)) \
    --steps "$steps" --warmup 20 --device "$DEVICE" --precision "$PRECISION" --size "$SIZE" "$@" |
    "$PY" -c "import json, sys; print(json.loads(sys.stdin.read())['tgt_tokens_per_s'])"
}
mfu() {  # RATE -> JSON with FLOPs per token and MFU against the datasheet and the measured peak
  local peak measured
  peak=${PEAK_TFLOPS:-989.4}  # H100 SXM5 / H200: dense bf16, NVIDIA's datasheet
  measured=$(grep -o '"bf16_matmul_8192_tflops", "value": [0-9.]*' "$RESULTS" | grep -o '[0-9.]*$' || echo "")
  local dims=()
  [ "$SIZE" = tiny ] && dims=(--d 32 --ffn 64 --enc-layers 2 --dec-layers 2)
  "$PY" scripts/bench/gpu/transformer_flops.py "${dims[@]}" --tgt-vocab "$(wc -l < "$W/bench/tgt.vocab")" \
    --src-len $((LEN + 1)) --tgt-len $((LEN + 1)) --tokens-per-s "$1" --peak-tflops "$peak"
  [ -n "$measured" ] && "$PY" scripts/bench/gpu/transformer_flops.py "${dims[@]}" --tgt-vocab "$(wc -l < "$W/bench/tgt.vocab")" \
    --src-len $((LEN + 1)) --tgt-len $((LEN + 1)) --tokens-per-s "$1" --peak-tflops "$measured"
  return 0
}
bench() {
  mkdir -p "$W/bench"
  bash scripts/bench/synthetic_data.sh "$BIN" "$W/bench" $((BIG * (STEPS + 30))) 64 "$LEN" "$VOCAB" || return 1
  local a b
  # small batches (4k target tokens): one pair
  a=$(synmt_rate "$SMALL" "$STEPS") || return 1
  b=$(reference_rate "$SMALL" "$STEPS") || return 1
  record "{\"what\": \"bench_pair\", \"arch\": \"$ARCH\", \"precision\": \"$PRECISION\", \"batch\": $SMALL, \"tgt_tokens_per_batch\": $((SMALL * (LEN + 1))), \"synmt\": $a, \"pytorch\": $b, \"ratio\": $("$PY" -c "print(round($a / $b, 3))")}"
  # large batches (~24k target tokens, fairseq's usual update size): A B A B
  for round in 1 2; do
    a=$(synmt_rate "$BIG" "$STEPS") || return 1
    b=$(reference_rate "$BIG" "$STEPS") || return 1
    record "{\"what\": \"bench_pair\", \"round\": $round, \"arch\": \"$ARCH\", \"precision\": \"$PRECISION\", \"batch\": $BIG, \"tgt_tokens_per_batch\": $((BIG * (LEN + 1))), \"synmt\": $a, \"pytorch\": $b, \"ratio\": $("$PY" -c "print(round($a / $b, 3))")}"
    record "$(mfu "$a" | "$PY" -c "import json,sys; rows=[json.loads(l) for l in sys.stdin]; print(json.dumps({'what': 'mfu_synmt', 'batch': $BIG, 'per_peak': rows}))")"
    record "$(mfu "$b" | "$PY" -c "import json,sys; rows=[json.loads(l) for l in sys.stdin]; print(json.dumps({'what': 'mfu_pytorch', 'batch': $BIG, 'per_peak': rows}))")"
  done
}

# ---------------------------------------------------------------------------------------------
profile() {
  [ -f "$W/bench/train.h5" ] || return 1
  mkdir -p "$W/logs/profile"
  reference_rate "$BIG" 10 --profile-out "$W/logs/profile/reference_torch_profiler.txt"
  [ $GPU = 1 ] || return 0
  local ncu
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || true)
  [ -n "$ncu" ] || { echo "no ncu"; return 1; }
  # every kernel of a few updates, its device time only (one metric: no replay), both programs:
  # kernel time per update against wall time per update shows whether the GPU or the host limits
  sed 's/"max_steps": [0-9]*/"max_steps": 3/' "$W/bench/cfg.$BIG.json" > "$W/bench/cfg.ncu.json"
  # the wrapper execs the binary in the same process, which ncu follows (--target-processes all)
  timeout 80 "$ncu" --target-processes all --metrics gpu__time_duration.sum --clock-control none --csv --print-summary per-kernel \
    "$BIN/synmt-train" -c "$W/bench/cfg.ncu.json" --train "$W/bench/train.h5" --valid "$W/bench/valid.h5" \
    --src-vocab "$W/bench/src.vocab" --tgt-vocab "$W/bench/tgt.vocab" -o "$W/bench/ncu_run" --dist single \
    > "$W/logs/profile/synmt_ncu_per_kernel.csv" 2> "$W/logs/profile/synmt_ncu.err" || echo "ncu on synmt: exit $?"
  "$PY" scripts/bench/gpu/ncu_categories.py "$W/logs/profile/synmt_ncu_per_kernel.csv" 3 | tee -a "$SUMMARY"
}

# ---------------------------------------------------------------------------------------------
decode() {
  local demo=$RUN/demo
  [ -d "$demo" ] || { echo "no demo checkpoints carried"; return 1; }
  local n
  n=$(wc -l < "$demo/test.src")
  for ckpt in "$demo"/*.pt; do
    local s
    s=$(basename "$ckpt" .pt)
    local flags=(-m "$ckpt" --src-vocab "$demo/vocab.src" --tgt-vocab "$demo/vocab.tgt" -i "$demo/test.src" --raw -k 5
      --length-penalty 1.0 --max-len-a 1.5 --max-len-b 10)
    local devices=(cpu)
    [ $GPU = 1 ] && devices=(cuda cpu)
    for dev in "${devices[@]}"; do
      for batch in 50 500; do
        [ "$dev" = cpu ] && [ "$batch" = 500 ] && continue
        local t
        t=$(seconds_of "$BIN/synmt-translate" "${flags[@]}" --batch-size "$batch" --device "$dev" -o "$W/$s.$dev.$batch.sub") || return 1
        record "{\"what\": \"decode\", \"system\": \"$s\", \"device\": \"$dev\", \"threads\": $(nproc), \"batch\": $batch, \"sentences\": $n, \"seconds\": $t, \"sentences_per_s\": $("$PY" -c "print(round($n / $t, 1))")}"
      done
    done
    for other in "$W/$s.cpu.50.sub" "$demo/$s.cpu_here.sub" "$W/$s.cuda.500.sub"; do
      [ -f "$other" ] || continue
      [ -f "$W/$s.cuda.50.sub" ] || continue
      record "{\"what\": \"decode_differences\", \"system\": \"$s\", \"a\": \"cuda batch 50\", \"b\": \"$(basename "$other")\", \"lines_differing\": $("$PY" -c "import sys; a=open(sys.argv[1]).read().splitlines(); b=open(sys.argv[2]).read().splitlines(); print(sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b)))" "$W/$s.cuda.50.sub" "$other"), \"of\": $n}"
    done
    [ $GPU = 0 ] && record "{\"what\": \"decode_differences\", \"system\": \"$s\", \"a\": \"cpu batch 50\", \"b\": \"cpu_here\", \"lines_differing\": $("$PY" -c "import sys; a=open(sys.argv[1]).read().splitlines(); b=open(sys.argv[2]).read().splitlines(); print(sum(x != y for x, y in zip(a, b)))" "$W/$s.cpu.50.sub" "$demo/$s.cpu_here.sub"), \"of\": $n}"
  done
  return 0
}

# ---------------------------------------------------------------------------------------------
compare_params() {  # A B LABEL -> JSON line with the largest absolute difference
  "$PY" - "$1" "$2" "$3" <<'PY'
import json, sys
import numpy as np
a, b = (np.fromfile(p, dtype=np.float32) for p in sys.argv[1:3])
same = a.size == b.size and a.size > 0
print(json.dumps({"what": "ranks_params", "compare": sys.argv[3], "parameters": int(a.size),
                  "max_abs_difference": float(np.abs(a - b).max()) if same else None,
                  "bit_identical": bool(same and np.array_equal(a, b))}))
PY
}
ranks() {
  local T=$W/ranks
  mkdir -p "$T"
  "$BIN/synmt-binarize" vocab -i "$RUN/tiny.src" -o "$T/vs" 2>/dev/null
  "$BIN/synmt-binarize" vocab -i "$RUN/tiny.tgt" -o "$T/vt" 2>/dev/null
  "$BIN/synmt-binarize" data --src "$RUN/tiny.src" --tgt "$RUN/tiny.tgt" --src-vocab "$T/vs" --tgt-vocab "$T/vt" -o "$T/d.h5" 2>/dev/null
  local common=(--train "$T/d.h5" --valid "$T/d.h5" --src-vocab "$T/vs" --tgt-vocab "$T/vt")
  # plain SGD without clipping: Adam's first steps divide near-zero gradients by their own size, so
  # a last-bit difference in the summation order becomes a difference of lr; SGD keeps it at
  # rounding level, and a wrong gradient scale (the sum over ranks) would still show
  for arch in transformer_tiny rnn_tiny; do
    cat > "$T/$arch.json" <<JSON
{"model": {"arch": "$arch", "options": {"dropout": 0.0}},
 "train": {"device": "$DEVICE", "batch_size": 16, "max_steps": 20, "max_epochs": 100, "optimizer": "sgd", "lr": 0.5,
           "clip_norm": 0.0, "label_smoothing": 0.1,
           "seed": 3, "halve_lr_on_plateau": false, "log_interval": 5, "comm_timeout": 20}}
JSON
    "$BIN/synmt-train" -c "$T/$arch.json" "${common[@]}" -o "$T/$arch.one" --dist single --dump-params "$T/$arch.one.bin" 2> "$T/$arch.one.log" ||
      { tail -5 "$T/$arch.one.log"; return 1; }
    "$BIN/mpirun" -n 2 "$BIN/synmt-train" -c "$T/$arch.json" "${common[@]}" -o "$T/$arch.mpi2" --dist mpi \
      --dump-params "$T/$arch.mpi2.bin" > "$T/$arch.mpi2.log" 2>&1 || tail -5 "$T/$arch.mpi2.log"
    record "$(compare_params "$T/$arch.one.bin" "$T/$arch.mpi2.bin" "$arch, $DEVICE: 1 rank x batch 16 vs 2 MPI ranks x 8 (20 updates)")"
    if [ $GPU = 1 ]; then
      timeout 60 "$BIN/mpirun" -n 1 "$BIN/synmt-train" -c "$T/$arch.json" "${common[@]}" -o "$T/$arch.nccl1" --dist nccl \
        --dump-params "$T/$arch.nccl1.bin" > "$T/$arch.nccl1.log" 2>&1 || tail -5 "$T/$arch.nccl1.log"
      record "$(compare_params "$T/$arch.one.bin" "$T/$arch.nccl1.bin" "$arch: 1 rank single vs 1 rank through the NCCL communicator")"
      timeout 60 "$BIN/mpirun" -n 2 "$BIN/synmt-train" -c "$T/$arch.json" "${common[@]}" -o "$T/$arch.nccl2" --dist nccl \
        --dump-params "$T/$arch.nccl2.bin" > "$T/$arch.nccl2.log" 2>&1
      local rc=$?
      record "{\"what\": \"nccl_two_ranks_one_gpu\", \"arch\": \"$arch\", \"exit\": $rc, \"message\": $("$PY" -c "import json,sys; t=open(sys.argv[1]).read(); i=t.find('Duplicate GPU'); print(json.dumps(t[i:i+120] if i>=0 else t[-300:]))" "$T/$arch.nccl2.log")}"
      [ $rc -eq 0 ] && record "$(compare_params "$T/$arch.one.bin" "$T/$arch.nccl2.bin" "$arch: 1 rank x 16 vs 2 NCCL ranks x 8")"
    fi
  done
  # a stalled rank (SIGSTOP) and a killed one (SIGKILL) mid-run: how long until the job ends
  sed 's/"max_steps": 20, "max_epochs": 100/"max_steps": 0, "max_epochs": 100000, "max_minutes": 2/; s/"comm_timeout": 20/"comm_timeout": 10/' \
    "$T/transformer_tiny.json" > "$T/long.json"
  for how in STOP KILL; do
    "$BIN/mpirun" -n 2 "$BIN/synmt-train" -c "$T/long.json" "${common[@]}" -o "$T/long.$how" --dist mpi > "$T/long.$how.log" 2>&1 &
    local job=$!
    for _ in $(seq 1 100); do [ "$(pgrep -f "bin/synmt-train.*long.$how" | wc -l)" -ge 2 ] && break; sleep 0.2; done
    sleep 4
    local victim
    victim=$(pgrep -f "bin/synmt-train.*long.$how" | tail -1)
    local t0=$EPOCHREALTIME
    kill -"$how" "$victim"
    for _ in $(seq 1 600); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
    local ended=yes
    kill -0 "$job" 2>/dev/null && { ended=no; pkill -9 -f "long.$how" 2>/dev/null; }
    wait "$job" 2>/dev/null
    local msg
    msg=$("$PY" -c "import json,sys; l=[x for x in open(sys.argv[1]) if 'comm_timeout' in x or 'exited on signal' in x or 'ending the job' in x]; print(json.dumps(l[0].strip()[:300] if l else ''))" "$T/long.$how.log")
    record "{\"what\": \"rank_$how\", \"device\": \"$DEVICE\", \"comm_timeout_s\": 10, \"job_ended\": \"$ended\", \"seconds_to_end\": $("$PY" -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))" "$t0" "$EPOCHREALTIME"), \"message\": $msg}"
  done
  cp "$T"/*.log "$W/logs/" 2>/dev/null
  return 0
}

# ---------------------------------------------------------------------------------------------
# mini: the carried runs side by side on the one GPU (small RNN batches leave it mostly idle), each
# with the pipeline's command line plus train.device; SIGTERM (state.pt, exit 143) before the cap.
mini() {
  local M=$RUN/mini T=$W/mini
  [ -d "$M/runs" ] || { echo "no mini runs carried"; return 1; }
  mkdir -p "$T"
  local threads=${MINI_THREADS:-3} deadline=$((BUDGET - SECONDS - 45)) pids=() r
  local dev=cuda
  [ $GPU = 0 ] && dev=cpu
  for r in "$M"/runs/*/; do
    r=$(basename "$r")
    mkdir -p "$T/$r"
    cp "$M/runs/$r/train_config.json" "$T/$r/"
    "$BIN/synmt-train" -c "$T/$r/train_config.json" --set train.threads="$threads" --set train.device="$dev" \
      --train "$M/data/train.h5" --valid "$M/data/valid.h5" --resume --src-vocab "$M/data/vocab.src" \
      --tgt-vocab "$M/data/vocab.tgt" -o "$T/$r" 2> "$T/$r/train.log" &
    pids+=($!)
  done
  local t0=$SECONDS
  # bash's kill succeeds while at least one of the runs is alive
  while [ $((SECONDS - t0)) -lt "$deadline" ] && kill -0 "${pids[@]}" 2>/dev/null; do sleep 2; done
  kill -TERM "${pids[@]}" 2>/dev/null
  wait
  local returned=0
  for r in "$M"/runs/*/; do
    r=$(basename "$r")
    local done_=no
    [ -f "$T/$r/summary.json" ] && done_=yes
    record "{\"what\": \"mini_run\", \"system\": \"$r\", \"device\": \"$dev\", \"finished\": \"$done_\", \"seconds\": $((SECONDS - t0)), \"last_validation\": $("$PY" -c "import json,sys; v=[x for x in map(json.loads, open(sys.argv[1])) if x.get('type') == 'valid']; print(json.dumps(v[-1] if v else None))" "$T/$r/metrics.jsonl" 2>/dev/null || echo null)}"
    if [ $done_ = yes ] && [ "$returned" -lt "${MINI_RETURN:-2}" ]; then
      split -b "${MINI_PART:-15M}" -d "$T/$r/best.pt" "$OUT/$r.best.pt.part"
      returned=$((returned + 1))
    fi
    mkdir -p "$W/logs/mini/$r"
    cp "$T/$r"/*.json* "$T/$r"/train.log "$W/logs/mini/$r/" 2>/dev/null
    [ -f "$T/$r/best.pt" ] && sha256sum "$T/$r/best.pt" > "$W/logs/mini/$r/best.pt.sha256"
  done
  return 0
}

# ---------------------------------------------------------------------------------------------
note "# GPU first light: $(date -u +%FT%TZ), device $DEVICE, budget $BUDGET s"
step setup 60 setup
step tests 120 tests
step bench 150 bench
step profile 90 profile
step decode 100 decode
step ranks 120 ranks
step mini 600 mini
note "total: $SECONDS s"
pack
cat "$SUMMARY"
