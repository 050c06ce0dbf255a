#!/usr/bin/env bash
# Runs every test: unit tests (torch-free and torch binaries), reference-tool comparisons on real
# data, bad-input checks, injected faults, snakemake --lint / -n, the end-to-end DAG on a 500-pair
# slice; and (without arguments), beside them, the libFuzzer targets, each briefly on its committed corpus, in a
# clang AddressSanitizer/UBSan build (tests/fuzz/README.md) configured with the CUDA toolkit hidden:
# the CPU-only build a laptop with PyTorch's wheel gets (docs/gpu.md), synmt-train included.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz_pid=""
if [ "$#" -eq 0 ]; then
  # The fuzz build is also the toolkit-less build: configured inside scripts/without_cuda_toolkit.sh
  # (no nvcc, no CUDA headers or libraries), it takes cmake/FindTorchForSynmt.cmake's path for a
  # machine with PyTorch's wheel and no toolkit, compiles the whole trainer and links synmt-train,
  # which then has to list its presets. (One trainer build for both checks: a second one would add
  # minutes to CI.)
  # It runs beside CTest at the lowest CPU priority (nice 19), the fuzz targets after it: CTest
  # leaves a third or more of the two cores idle while Snakemake and SLURM wait for jobs and status checks (the smoke
  # experiments use 1.4 of them, the SLURM tests ~1.3), and the build takes only that idle time,
  # instead of ~4 minutes of its own after CTest (docs/benchmarks.md "CI on a fresh machine").
  # setsid: its own process group, so that the trap below stops the whole build if CTest fails.
  # Its own session is also its own scheduling group where the kernel groups by session
  # (autogroup): the group's share of the CPU follows /proc/self/autogroup, not the processes'
  # nice values, so both are set to 19 (without that, CTest's one-core tests ran 2.3x slower).
  setsid bash -c 'echo 19 > /proc/self/autogroup 2>/dev/null; exec nice -n 19 "$@"' fuzz-build \
    bash scripts/without_cuda_toolkit.sh bash -c '
    set -euo pipefail
    CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYNMT_FUZZ=ON \
      -DSYNMT_BUILD_TESTS=OFF > build-fuzz.configure.log 2>&1 || { cat build-fuzz.configure.log; exit 1; }
    grep "synmt:" build-fuzz.configure.log
    grep -q "CUDA-specific code (SYNMT_WITH_CUDA): OFF" build-fuzz.configure.log
    cmake --build build-fuzz --target fuzz_targets synmt-train -j2
    ASAN_OPTIONS=detect_leaks=0 build-fuzz/bin/synmt-train --list-archs > /dev/null
    echo "toolkit-less configure and build of synmt-train: passed"
    # then the fuzz targets, two at a time (each libFuzzer run is one process on one core). At this
    # priority a target may get a few percent of a core while CTest keeps both busy: its ten
    # seconds are then fewer inputs, and one input may take many times its usual wall time, so
    # an input counts as a hang only after 120 s instead of 20 (a loop that never ends still does)
    FUZZ_INPUT_TIMEOUT=120 ctest --test-dir build-fuzz --output-on-failure -L fuzz --parallel 2' > build-fuzz.log 2>&1 &
  fuzz_pid=$!
  trap '[ -n "$fuzz_pid" ] && kill -- "-$fuzz_pid" 2>/dev/null; true' EXIT
  echo "[test] the toolkit-less fuzz build started beside CTest (nice 19; log build-fuzz.log)"
fi
# --parallel 2: tests/CMakeLists.txt reserves both cores for every test but the one-core ones
ctest --test-dir build --output-on-failure --parallel 2 "$@"
if [ -n "$fuzz_pid" ]; then
  echo "[test] CTest done after $SECONDS s; waiting for the fuzz build"
  if ! wait "$fuzz_pid"; then
    fuzz_pid=""
    echo "[test] the toolkit-less fuzz build or a fuzz target failed; build-fuzz.log ends:"; tail -40 build-fuzz.log; exit 1
  fi
  fuzz_pid=""
  grep -E "^-- synmt:|toolkit-less|Test +#|tests passed|Total Test time" build-fuzz.log
  echo "[test] fuzz build and fuzz targets done after $SECONDS s"
fi
