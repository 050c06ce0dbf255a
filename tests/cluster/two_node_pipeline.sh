#!/usr/bin/env bash
# The pipeline across two nodes (issue #33 item 4), on the cluster of cluster/ci/two-node-up.sh
# (already up): the LGP smoke experiment's Table 1 (two rows, tests/cluster/two_node_config.yaml)
# through `snakemake --profile cluster/slurm`, run from the login host. The SEQ system trains on 2
# ranks; the profile's resources spread them over node1 and node2: the run uses cluster/slurm with
# one line changed, train's slurm_extra gaining --ntasks-per-node=1 (one rank per node, the setting
# docs/cluster.md gives for multi-node training) — nothing node-specific in the rules.
# Checks: Snakemake succeeds, every job went through sbatch but those of the Snakefile's
# localrules; the table is built; the 2-rank job ran on both nodes and its trainer's log names both
# hosts.
# Usage: two_node_pipeline.sh VENV BUILD_DIR WORK_DIR (from anywhere). Prints PASS/FAIL lines.
set -uo pipefail
VENV=$(cd "$1" && pwd)
BIN=$(cd "$2/bin" && pwd)
W=$3
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=cluster/ci/two-node-env.sh
source "$ROOT/cluster/ci/two-node-env.sh"
# shellcheck source=tests/cluster/local_rules.sh
source "$ROOT/tests/cluster/local_rules.sh"
RUN_TIMEOUT=${TWO_NODE_PIPELINE_TIMEOUT:-300}
mkdir -p "$W"
R=$W/results
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
export USER=${USER:-$(id -un)}
cd "$ROOT"
# the profile: cluster/slurm, one rank per node
mkdir -p "$W/profile"
"$VENV/bin/python" - cluster/slurm/config.yaml "$W/profile/config.yaml" <<'PY'
import sys, yaml
profile = yaml.safe_load(open(sys.argv[1]))
extra = profile["set-resources"]["train"]["slurm_extra"]
assert extra.startswith("'") and extra.endswith("'"), extra
profile["set-resources"]["train"]["slurm_extra"] = extra[:-1] + " --ntasks-per-node=1'"
yaml.safe_dump(profile, open(sys.argv[2], "w"), sort_keys=False)
PY
t0=$(date +%s)
in_cluster timeout "$RUN_TIMEOUT" "$VENV/bin/snakemake" "$R/tables/lgp_table1.md" --profile "$W/profile" \
  --slurm-init-seconds-before-status-checks 1 --seconds-between-status-checks 3 --slurm-no-account \
  --slurm-logdir "$W/slurm_logs" --slurm-keep-successful-logs \
  --configfile pipeline/config/config.yaml pipeline/config/experiments/lgp.smoke.yaml tests/cluster/two_node_config.yaml \
  --config "work_dir=$W/work" "results_dir=$R" "bin_dir=$BIN" > "$W/snakemake.log" 2>&1
rc=$?
took=$(($(date +%s) - t0))
ids=$(grep -o "has been submitted with SLURM jobid [0-9]*" "$W/snakemake.log" | awk '{print $NF}' | sort -un)
n_ids=$(echo "$ids" | grep -c .)
n_jobs=$(grep -cE "^rule [a-z_]+:" "$W/snakemake.log")
n_local=$(grep -cE "^localrule [a-z_]+:" "$W/snakemake.log")
not_declared=$(local_rules_not_declared "$W/snakemake.log")
if [ "$rc" = 0 ] && [ "$n_ids" -gt 5 ] && [ "$n_ids" = "$n_jobs" ] && [ -z "$not_declared" ]; then
  pass "snakemake --profile cluster/slurm on two nodes: $n_ids jobs, each through sbatch, and $n_local of the Snakefile's localrules on the login host, in $took s"
else
  fail "snakemake exited $rc after $took s ($n_ids SLURM jobs for $n_jobs jobs; on the login host without being localrules: ${not_declared:-none})"
  tail -30 "$W/snakemake.log"
fi
[ -s "$R/tables/lgp_table1.md" ] && pass "table built: $(grep -c '^|' "$R/tables/lgp_table1.md") table lines in lgp_table1.md" \
  || fail "no lgp_table1.md"
J=$(grep -o "SLURM jobid [0-9]* (log: [^)]*/rule_train/seq.s1/" "$W/snakemake.log" | head -1 | awk '{print $3}')
job=$(in_cluster scontrol show job "$J" 2>/dev/null)
nodes=$(echo "$job" | grep -o ' NodeList=[^ ]*' | cut -d= -f2)
if [ -n "$J" ] && echo "$job" | grep -q "NumNodes=2 " && echo "$job" | grep -q "NumTasks=2 " && [ "$nodes" = "node[1-2]" ]; then
  pass "seq.s1 training job $J: 2 tasks on NodeList=$nodes"
else
  fail "seq.s1 training job $J: $(echo "$job" | grep -oE 'NumNodes=[0-9]+|NumTasks=[0-9]+|NodeList=[^ ]+|JobState=[A-Z_]+' | paste -sd' ')"
fi
hosts=$(grep -o 'MPI: 2 ranks: .*' "$R/systems/seq.s1/train.log" 2>/dev/null | head -1)
case "$hosts" in
  "MPI: 2 ranks: 0 on node1, 1 on node2" | "MPI: 2 ranks: 0 on node2, 1 on node1") pass "its trainer's log: '$hosts'" ;;
  *) fail "seq's train.log names '$hosts'" ;;
esac
