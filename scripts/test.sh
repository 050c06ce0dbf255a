#!/usr/bin/env bash
# Runs every test: unit tests (torch-free and torch binaries), reference-tool comparisons on real
# data, bad-input checks, injected faults, snakemake --lint / -n, the end-to-end DAG on a 500-pair
# slice; then (without arguments) synmt-train configured and built with the CUDA toolkit hidden (the
# CPU-only build a laptop with PyTorch's wheel gets, docs/gpu.md), and the libFuzzer targets, each
# briefly on its committed corpus, in a clang AddressSanitizer/UBSan build (tests/fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
ctest --test-dir build --output-on-failure "$@"
if [ "$#" -eq 0 ]; then
  start=$SECONDS
  bash scripts/without_cuda_toolkit.sh bash -c '
    set -euo pipefail
    cmake -S . -B build-nocuda -DCMAKE_BUILD_TYPE=Release -DSYNMT_BUILD_TESTS=OFF > build-nocuda.log 2>&1 ||
      { cat build-nocuda.log; exit 1; }
    grep "synmt:" build-nocuda.log
    cmake --build build-nocuda --target synmt-train -j2 > build-nocuda-build.log 2>&1 ||
      { tail -50 build-nocuda-build.log; exit 1; }
    build-nocuda/bin/synmt-train --list-archs > /dev/null'
  echo "toolkit-less configure and build of synmt-train: passed ($((SECONDS - start)) s)"
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYNMT_FUZZ=ON \
    -DSYNMT_BUILD_TESTS=OFF -DSYNMT_WITH_CUDA=OFF > /dev/null
  cmake --build build-fuzz --target fuzz_targets -j2
  ctest --test-dir build-fuzz --output-on-failure -L fuzz
fi
