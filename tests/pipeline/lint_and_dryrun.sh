#!/usr/bin/env bash
# The workflow must lint clean, dry-run for the demo config, and refuse an unknown config key.
set -euo pipefail
VENV=$1
SM="$VENV/bin/snakemake"
passed=0
"$SM" --lint > /tmp/synmt-lint.txt 2>&1 || { cat /tmp/synmt-lint.txt; echo "snakemake --lint failed"; exit 1; }
if grep -qiE "lints for" /tmp/synmt-lint.txt; then cat /tmp/synmt-lint.txt; echo "lint findings"; exit 1; fi
passed=$((passed + 1))
"$SM" -n --quiet all --config work_dir=/tmp/synmt-dry/work results_dir=/tmp/synmt-dry/results > /dev/null
passed=$((passed + 1))
if "$SM" -n --quiet all --config colour=blue > /tmp/synmt-bad.txt 2>&1; then
  echo "unknown config key accepted"; exit 1
fi
grep -q "colour" /tmp/synmt-bad.txt || { cat /tmp/synmt-bad.txt; echo "error does not name the key"; exit 1; }
passed=$((passed + 1))
echo "$passed passed, 0 failed"
