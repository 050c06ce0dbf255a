#!/usr/bin/env bash
# Runs every test: unit tests (torch-free and torch binaries), reference-tool comparisons on real
# data, bad-input checks, snakemake --lint / -n, and the end-to-end DAG on a 500-pair slice.
set -euo pipefail
cd "$(dirname "$0")/.."
ctest --test-dir build --output-on-failure "$@"
