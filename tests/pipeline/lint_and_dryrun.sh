#!/usr/bin/env bash
# The workflow must lint clean, dry-run for the demo config, and refuse an unknown config key.
# One lint category is accepted, and only that one: "Specify a conda environment or container for
# each rule". synmt's stages are this project's own C++ executables (built by scripts/install.sh
# into bin_dir); no conda package or published container provides them, and declaring one that
# does not exist would be worse than the lint.
set -euo pipefail
VENV=$1
SM="$VENV/bin/snakemake"
passed=0
"$SM" --lint > /tmp/synmt-lint.txt 2>&1 || true
other=$(grep -E '^\s+\* ' /tmp/synmt-lint.txt | grep -v 'Specify a conda environment or container for each rule' || true)
if [ -n "$other" ]; then cat /tmp/synmt-lint.txt; echo "lint findings: $other"; exit 1; fi
passed=$((passed + 1))
"$SM" -n --quiet all --config work_dir=/tmp/synmt-dry/work results_dir=/tmp/synmt-dry/results > /dev/null
passed=$((passed + 1))
if "$SM" -n --quiet all --config colour=blue > /tmp/synmt-bad.txt 2>&1; then
  echo "unknown config key accepted"; exit 1
fi
grep -q "colour" /tmp/synmt-bad.txt || { cat /tmp/synmt-bad.txt; echo "error does not name the key"; exit 1; }
passed=$((passed + 1))
if "$SM" -n --quiet all --configfile tests/pipeline/bad_system.yaml > /tmp/synmt-bad2.txt 2>&1; then
  echo "system with an unknown pair accepted"; exit 1
fi
grep -q "unknown pair 'no_such_pair'" /tmp/synmt-bad2.txt || { cat /tmp/synmt-bad2.txt; echo "unclear error"; exit 1; }
passed=$((passed + 1))
# a parser continued from another one starts from that parser's model under results_dir
"$SM" -n -p /tmp/synmt-dry/elsewhere/parsers/en_ewt_long/parser.pt --config results_dir=/tmp/synmt-dry/elsewhere \
  > /tmp/synmt-cont.txt 2>&1 || { cat /tmp/synmt-cont.txt; echo "continued parser does not dry-run"; exit 1; }
grep -q 'train.init_model="/tmp/synmt-dry/elsewhere/parsers/en_ewt/parser.pt"' /tmp/synmt-cont.txt \
  || { cat /tmp/synmt-cont.txt; echo "continue_from does not follow results_dir"; exit 1; }
passed=$((passed + 1))
echo "$passed passed, 0 failed"
