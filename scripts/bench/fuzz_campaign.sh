#!/usr/bin/env bash
# The long fuzz runs recorded in docs/benchmarks.md: each named target (default: every one built)
# for SECONDS on its committed corpus, one after another; prints a Markdown row per target with
# libFuzzer's final statistics. Logs and any crashing input go to OUT_DIR.
# usage: fuzz_campaign.sh FUZZ_BUILD_DIR SECONDS OUT_DIR [target...]
set -uo pipefail
cd "$(dirname "$0")/../.."
B=$1 S=$2 OUT=$3
shift 3
mkdir -p "$OUT"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && mapfile -t targets < <(ls "$B/bin" | grep '^fuzz_')
for t in "${targets[@]}"; do
  FUZZ_ARTIFACTS="$OUT/$t-" tests/fuzz/run_fuzz.sh "$B/bin/$t" "tests/fuzz/corpus/$t" "$S" > "$OUT/$t.log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$OUT/$t.log" | grep -o '[0-9]*$')
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$OUT/$t.log" | grep -o '[0-9]*$')
  rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$OUT/$t.log" | grep -o '[0-9]*$')
  corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$OUT/$t.log" | tail -1 | cut -d' ' -f2)
  cov=$(grep -o 'cov: [0-9]*' "$OUT/$t.log" | tail -1 | cut -d' ' -f2)
  verdict=$([ "$rc" -eq 0 ] && echo "none" || echo "**exit $rc** (see $OUT/$t.log)")
  echo "| \`$t\` | $S | ${runs:-?} | ${speed:-?} | ${corpus:-?} | ${cov:-?} | ${rss:-?} | $verdict |"
done
