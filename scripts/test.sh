#!/usr/bin/env bash
# Runs every test: unit tests (torch-free and torch binaries), reference-tool comparisons on real
# data, bad-input checks, injected faults, snakemake --lint / -n, the end-to-end DAG on a 500-pair
# slice; then (without arguments) the libFuzzer targets, each briefly on its committed corpus, in a
# clang AddressSanitizer/UBSan build (tests/fuzz/README.md) configured with the CUDA toolkit hidden:
# the CPU-only build a laptop with PyTorch's wheel gets (docs/gpu.md), synmt-train included.
set -euo pipefail
cd "$(dirname "$0")/.."
# --parallel 2: tests/CMakeLists.txt reserves both cores for every test but the one-core ones
ctest --test-dir build --output-on-failure --parallel 2 "$@"
if [ "$#" -eq 0 ]; then
  # The fuzz build is also the toolkit-less build: configured inside scripts/without_cuda_toolkit.sh
  # (no nvcc, no CUDA headers or libraries), it takes cmake/FindTorchForSynmt.cmake's path for a
  # machine with PyTorch's wheel and no toolkit, compiles the whole trainer and links synmt-train,
  # which then has to list its presets. (One trainer build for both checks: a second one would add
  # about 9 minutes to CI.)
  echo "[test] CTest done after $SECONDS s; the toolkit-less fuzz build starts"
  bash scripts/without_cuda_toolkit.sh bash -c '
    set -euo pipefail
    CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYNMT_FUZZ=ON \
      -DSYNMT_BUILD_TESTS=OFF > build-fuzz.log 2>&1 || { cat build-fuzz.log; exit 1; }
    grep "synmt:" build-fuzz.log
    grep -q "CUDA-specific code (SYNMT_WITH_CUDA): OFF" build-fuzz.log
    cmake --build build-fuzz --target fuzz_targets synmt-train -j2
    ASAN_OPTIONS=detect_leaks=0 build-fuzz/bin/synmt-train --list-archs > /dev/null
    echo "toolkit-less configure and build of synmt-train: passed"'
  echo "[test] fuzz build done after $SECONDS s"
  # two targets at a time: each libFuzzer run is one process on one core (126 s -> 70 s, docs/benchmarks.md)
  ctest --test-dir build-fuzz --output-on-failure -L fuzz --parallel 2
fi
