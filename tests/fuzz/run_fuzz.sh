#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS on its committed corpus (read-only: new inputs go to a
# scratch directory). Exit 0 when no crash, sanitizer report, leak, timeout or out-of-memory was
# found; libFuzzer's own exit code otherwise, with the reproducer path in its log.
# usage: run_fuzz.sh TARGET CORPUS_DIR SECONDS [extra libFuzzer flags]
set -euo pipefail
target=$1 corpus=$2 seconds=$3
shift 3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export TMPDIR=$scratch
# libFuzzer's malloc limit is its RSS limit (4 GiB): a single allocation beyond it, e.g. one sized
# by a damaged length that a reader did not check first, is a finding, not a bad_alloc to catch.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(cd "$(dirname "$0")" && pwd)/lsan_suppressions.txt:print_suppressions=0}
# FUZZ_INPUT_TIMEOUT: seconds one input may run before libFuzzer reports a hang (wall clock): 20,
# raised by scripts/test.sh where the targets run at the lowest CPU priority beside other work
mkdir -p "$scratch/new"
"$target" -max_total_time="$seconds" -timeout="${FUZZ_INPUT_TIMEOUT:-20}" -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="${FUZZ_ARTIFACTS:-$scratch/}" "$@" "$scratch/new" "$corpus"
