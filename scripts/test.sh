#!/usr/bin/env bash
# Runs every test: unit tests (torch-free and torch binaries), reference-tool comparisons on real
# data, bad-input checks, injected faults, snakemake --lint / -n, the end-to-end DAG on a 500-pair
# slice; then (without arguments) the libFuzzer targets, each briefly on its committed corpus, in a
# clang AddressSanitizer/UBSan build (tests/fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
ctest --test-dir build --output-on-failure "$@"
if [ "$#" -eq 0 ]; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYNMT_FUZZ=ON \
    -DSYNMT_BUILD_TESTS=OFF > /dev/null
  cmake --build build-fuzz --target fuzz_targets -j2
  ctest --test-dir build-fuzz --output-on-failure -L fuzz
fi
