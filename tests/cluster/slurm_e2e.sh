#!/usr/bin/env bash
# The SLURM path on a real one-node cluster (Debian slurm-wlm + munge, cluster/ci/slurm-up.sh):
# the pipeline with --profile cluster/slurm, every job through sbatch but the Snakefile's localrules
# (bookkeeping of seconds, run on the login host), and
#  a. a 2-rank training job that starts its ranks through srun inside its allocation (2 tasks x
#     1 CPU; the run passes --config on the command line, which must not bring mpirun back);
#  b. training jobs requeued mid-run (scontrol requeue, as preemption does), one with 2 ranks and
#     one with 1, resume from the state they saved on SIGTERM and end with best.pt and last.pt
#     byte-identical to an uninterrupted run of the same configuration, and the same loss at every
#     update;
#  c. a job that fails (a training config with an unknown key) is reported by Snakemake with its
#     log file's path.
# Needs root (installs and starts SLURM); brings the cluster down on exit. Every wait is bounded.
# Usage: slurm_e2e.sh VENV BUILD_DIR   (from the repository root; ctest -L slurm)
# SLURM_E2E_CONFIG: extra --config values for a manual run, e.g. "mirror=/path/to/your/mirror".
# Prints timings and 'N passed, N failed'.
set -uo pipefail

# --- the run: configuration files (merged in this order) and targets under results_dir: the
# systems the checks need from tests/cluster/slurm_config.yaml (keep it last) and their table:
# twins reference:requeued with one configuration each; the second of each pair is requeued after
# its first validation. (A paper's smoke table through this profile is tests/cluster/two_node.sh's
# part 4, across two nodes; building it here too doubled this run's 40 jobs for no other check.) ---
CONFIGS=(pipeline/config/config.yaml tests/cluster/slurm_config.yaml)
TARGETS=(tables/slurm.md systems/rnn_one/summary.json systems/rnn_one_requeued/summary.json)
TWINS=(rnn_ranks2:rnn_requeued rnn_one:rnn_one_requeued)
RANKS_SYSTEM=rnn_ranks2              # trains on 2 ranks
ONE_RANK_SYSTEM=rnn_one              # trains on 1 rank (2 threads)
FAIL_PAIR=multi30k_en_de             # a pair of the run: a failing system trains on it
# ---

VENV=${1:-.venv}
BUILD=${2:-build}
BIN=$(cd "$BUILD/bin" && pwd)
SNAKEMAKE=$VENV/bin/snakemake
# The pipeline run took 252 s when these limits were 360 / 480 s (issue #13's 8 minutes); on
# 2026-11-25, after the move to PyTorch 2.11's LibTorch, four quiet runs took 464-478 s, of which
# the jobs' own commands were under 80 s (the rest: Snakemake's start-up in every job and SLURM's
# scheduling; the machine itself ran the 1.13 build's rnn_demo training 1.5x slower that day
# than on 2026-11-22, docs/cluster.md). Raised to keep CI meaningful rather than red; the
# 8-minute goal is open. Both limits are scaled by the machine's measured speed
# (tests/machine_speed.sh; docs/cluster.md, "What the test proves").
RUN_TIMEOUT_S=${SLURM_E2E_RUN_TIMEOUT:-560}  # seconds for the whole pipeline run (inside BUDGET_S)
BUDGET_S=600                                 # SLURM bring-up plus its tests
SPEED_REF_MS=${SYNMT_SPEED_REF_MS:-5500}     # machine_speed.sh's workload on the reference machine
ms() { echo $(($(date +%s%N) / 1000000)); }
if [ "$(id -u)" != 0 ]; then echo "slurm_e2e: needs root (it starts a SLURM cluster)"; exit 1; fi
[ -x "$SNAKEMAKE" ] || { echo "slurm_e2e: no $SNAKEMAKE"; exit 1; }
[ -x "$BIN/synmt-train" ] || { echo "slurm_e2e: no $BIN/synmt-train"; exit 1; }

T=$(mktemp -d /tmp/slurm_e2e.XXXXXX)
SM_PID=""
stop_snakemake() {  # SIGTERM (Snakemake then waits for running jobs), SIGKILL 5 s later
  [ -n "$SM_PID" ] || return 0
  kill "$SM_PID" 2>/dev/null
  for _ in $(seq 1 20); do kill -0 "$SM_PID" 2>/dev/null || break; sleep 0.25; done
  kill -9 "$SM_PID" 2>/dev/null
  SM_PID=""
}
cleanup() {
  stop_snakemake
  bash cluster/ci/slurm-down.sh
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# shellcheck source=tests/machine_speed.sh
source tests/machine_speed.sh
# shellcheck source=tests/cluster/local_rules.sh
source tests/cluster/local_rules.sh
read -r scale speed_ms < <(machine_scale_permille "$BIN" "$T/speed" "$SPEED_REF_MS") || { echo "slurm_e2e: the speed workload failed"; exit 1; }
budget=$((BUDGET_S * scale / 1000))
RUN_TIMEOUT=$((RUN_TIMEOUT_S * scale / 1000))
echo "machine speed: $speed_ms ms (reference $SPEED_REF_MS ms): limits x $(machine_scale_text "$scale"): budget $budget s, pipeline run $RUN_TIMEOUT s"
t_start=$(ms)   # the budget counts from here: bring-up and tests
passed=0
failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# 1. the cluster
if ! timeout 180 bash cluster/ci/slurm-up.sh > "$T/slurm-up.log" 2>&1; then
  echo "slurm-up.sh failed:"; tail -20 "$T/slurm-up.log"; exit 1
fi
tail -1 "$T/slurm-up.log"
t_up=$(ms)
if ! timeout 60 bash cluster/ci/slurm-smoke.sh > "$T/smoke.log" 2>&1; then
  echo "the cluster does not take work:"; cat "$T/smoke.log"; exit 1
fi
tail -1 "$T/smoke.log" | sed 's/^/slurm-smoke: /'
t_smoke=$(ms)
export USER=${USER:-$(id -un)}  # the SLURM executor reads it

# 2. the pipeline, with one system whose training must fail (part c), in the background
R=$T/results
cat > "$T/failing.yaml" <<EOF
systems:
  slurm_fails:
    pair: $FAIL_PAIR
    model: {arch: rnn_tiny}
    train: {max_steps: 5, no_such_option: 1}
    decode: {beam: 2}
EOF
targets=()
for t in "${TARGETS[@]}"; do targets+=("$R/$t"); done
targets+=("$R/systems/slurm_fails/summary.json")
# CI-only settings on the command line; the profile itself is the one users take
# shellcheck disable=SC2206
extra_config=(${SLURM_E2E_CONFIG:-})
# The first status check 1 s after a submission instead of the executor's 40: the run is a chain of
# ~40 jobs of a few seconds each, so the wait for the next status check adds up (1 s instead of 8:
# the run 400 s instead of 467 s, the two-node test's pipeline 234 s instead of 253-273 s,
# 2026-11-29, docs/cluster.md).
# (The SLURM executor plugin, 2.8.0, sleeps that initial interval between checks and adds 10 s after
# each check in which no job finished, up to 180 s; --seconds-between-status-checks is not used
# once it has set its own interval, so the 3 s below changes nothing: docs/cluster.md.)
"$SNAKEMAKE" "${targets[@]}" --profile cluster/slurm \
  --slurm-init-seconds-before-status-checks 1 --seconds-between-status-checks 3 --slurm-no-account \
  --slurm-logdir "$T/slurm_logs" --slurm-keep-successful-logs --keep-going \
  --configfile "${CONFIGS[@]}" "$T/failing.yaml" \
  --config "work_dir=$T/work" "results_dir=$R" "bin_dir=$BIN" "${extra_config[@]}" > "$T/snakemake.log" 2>&1 &
SM_PID=$!
run_deadline=$(($(date +%s) + RUN_TIMEOUT))
alive() { kill -0 "$SM_PID" 2>/dev/null; }
slurm_id() {  # system -> SLURM job id of its train job, from Snakemake's output
  grep -o "SLURM jobid [0-9]* (log: [^)]*/rule_train/$1/" "$T/snakemake.log" | head -1 | awk '{print $3}'
}

# 3. part b: requeue each twin's training job once it has validated (best.pt written) and is
# still training
declare -A requeued_job=()
n_twins=${#TWINS[@]}
while alive && [ "$(date +%s)" -lt "$run_deadline" ] && [ "${#requeued_job[@]}" -lt "$n_twins" ]; do
  for twin in "${TWINS[@]}"; do
    sys=${twin#*:}
    [ -n "${requeued_job[$sys]:-}" ] && continue
    S=$R/systems/$sys
    j=$(slurm_id "$sys")
    [ -n "$j" ] && [ "$(squeue -h -j "$j" -o %T 2>/dev/null)" = RUNNING ] || continue
    grep -q '"type":"valid"' "$S/metrics.jsonl" 2>/dev/null || continue
    if [ -e "$S/summary.json" ]; then requeued_job[$sys]=late; continue; fi  # it finished first
    step=$(grep -c '"type":"train"' "$S/metrics.jsonl")
    scontrol requeue "$j" && requeued_job[$sys]=$j
    echo "requeued job $j ($sys) after update $step, $(($(ms) - t_smoke)) ms into the run"
  done
  sleep 0.2
done
t_requeue=$(ms)
while alive && [ "$(date +%s)" -lt "$run_deadline" ]; do sleep 0.5; done
if alive; then
  fail "the pipeline run did not end within $RUN_TIMEOUT s"
  stop_snakemake
fi
rc=1
[ -n "$SM_PID" ] && { wait "$SM_PID"; rc=$?; }
SM_PID=""
t_run=$(ms)
echo "snakemake exited $rc; its output ends:"
grep -E "steps \(|Error in rule|Exiting" "$T/snakemake.log" | tail -4 | sed 's/^/  /'

# 4. checks
# every job went through sbatch, every SLURM job id is in the completion log
ids=$(grep -o "has been submitted with SLURM jobid [0-9]*" "$T/snakemake.log" | awk '{print $NF}' | sort -un)
n_ids=$(echo "$ids" | grep -c .)
n_jobs=$(grep -cE "^rule [a-z_]+:" "$T/snakemake.log")
n_local=$(grep -cE "^localrule [a-z_]+:" "$T/snakemake.log")
if [ "$n_ids" -gt 10 ] && [ "$n_ids" = "$n_jobs" ]; then
  pass "$n_ids jobs, each submitted with sbatch (SLURM job ids $(echo "$ids" | head -1)..$(echo "$ids" | tail -1)); $n_local on the login host"
else
  fail "sbatch: $n_ids SLURM job ids for $n_jobs jobs ($n_local local)"
fi
# the jobs run on the login host are those of the Snakefile's localrules, never a training or a translation
not_declared=$(local_rules_not_declared "$T/snakemake.log")
[ -z "$not_declared" ] && ! grep -qE "^localrule (train|translate):" "$T/snakemake.log" \
  && pass "the $n_local jobs on the login host are all of the Snakefile's localrules" \
  || fail "jobs run on the login host without being declared localrules: $not_declared"
comp=$(sacct -c -X -n -P -o JobIdRaw,State -j "$(echo "$ids" | paste -sd,)" 2>/dev/null | sort -u)
missing=$(for j in $ids; do echo "$comp" | grep -q "^$j|COMPLETED$\|^$j|FAILED$" || echo "$j"; done | paste -sd' ')
[ -n "$ids" ] && [ -z "$missing" ] && pass "every job in the SLURM completion log (sacct -c)" || fail "not in the completion log: ${missing:-no job ids at all}"
for t in "${targets[@]:0:${#TARGETS[@]}}"; do
  [ -s "$t" ] && pass "target ${t#"$R"/} built" || fail "target ${t#"$R"/} missing"
done

# a. the 2-rank job: 2 tasks x 1 CPU, ranks started by srun inside the allocation
J=$(slurm_id "$RANKS_SYSTEM")
L=$(grep -o "(log: [^)]*/rule_train/$RANKS_SYSTEM/[0-9]*\.log)" "$T/snakemake.log" | head -1 | sed 's/^(log: //; s/)$//')
job=$(scontrol show job "$J" 2>/dev/null)
if echo "$job" | grep -q "NumTasks=2 CPUs/Task=1" && echo "$job" | grep -q "TRES=cpu=2,mem=2000M," \
  && echo "$job" | grep -q "JobState=COMPLETED"; then
  pass "$RANKS_SYSTEM: job $J asked for 2 tasks x 1 CPU ($(echo "$job" | grep -o 'TRES=[^ ]*')) and completed"
else
  fail "$RANKS_SYSTEM: job $J: $(echo "$job" | grep -oE 'JobState=[A-Z_]+|NumTasks=[0-9]+|CPUs/Task=[0-9]+|Reason=[A-Za-z]+' | paste -sd' ')"
fi
if grep -q "^Shell command: srun --overlap --kill-on-bad-exit=1 --cpus-per-task=1 -n 2 .*synmt-train" "$L" 2>/dev/null \
  && ! grep -q mpirun "$L"; then
  pass "$RANKS_SYSTEM: ranks started by 'srun ... --cpus-per-task=1 -n 2' (SLURM job log)"
else
  fail "$RANKS_SYSTEM: launcher: $(grep -m1 '^Shell command' "$L" 2>/dev/null | cut -c1-120)"
fi
# slurmd launched a job step with 2 tasks (one CPU mask per task) for that job
if grep -q "launch task StepId=$J.0 " /var/log/slurm/slurmd.log \
  && grep -q "_lllp_generate_cpu_bind jobid \[$J\]: mask_cpu[^ ]*, 0x[0-9A-Fa-f]*,0x[0-9A-Fa-f]*$" /var/log/slurm/slurmd.log; then
  pass "$RANKS_SYSTEM: slurmd launched step $J.0 with 2 tasks"
else
  fail "$RANKS_SYSTEM: no 2-task srun step for job $J in slurmd.log"
fi
grep -q '"ranks": 2' "$R/systems/$RANKS_SYSTEM/summary.json" 2>/dev/null \
  && pass "$RANKS_SYSTEM: the trainer's summary says ranks 2" || fail "$RANKS_SYSTEM: summary.json lacks ranks 2"

# a'. the 1-rank job: 1 task x 2 CPUs, its trainer a task of an srun step inside the job
J=$(slurm_id "$ONE_RANK_SYSTEM")
L=$(grep -o "(log: [^)]*/rule_train/$ONE_RANK_SYSTEM/[0-9]*\.log)" "$T/snakemake.log" | head -1 | sed 's/^(log: //; s/)$//')
job=$(scontrol show job "$J" 2>/dev/null)
if echo "$job" | grep -q "NumTasks=1 CPUs/Task=2" && echo "$job" | grep -q "JobState=COMPLETED" \
  && grep -q "^Shell command: srun --overlap --kill-on-bad-exit=1 --cpus-per-task=2 -n 1 .*synmt-train" "$L" 2>/dev/null \
  && grep -q "launch task StepId=$J.1 " /var/log/slurm/slurmd.log; then
  pass "$ONE_RANK_SYSTEM: job $J, 1 task x 2 CPUs, trainer started as step $J.1 by srun --cpus-per-task=2 -n 1"
else
  fail "$ONE_RANK_SYSTEM: job $J: $(echo "$job" | grep -oE 'JobState=[A-Z_]+|NumTasks=[0-9]+|CPUs/Task=[0-9]+' | paste -sd' '); $(grep -m1 '^Shell command' "$L" 2>/dev/null | cut -c1-100)"
fi

# b. the requeued jobs resumed and ended where their uninterrupted twins ended
losses() { grep -o '"loss":[^,]*,' "$1" | grep -n .; }
for twin in "${TWINS[@]}"; do
  ref=${twin%:*}
  sys=${twin#*:}
  S=$R/systems/$sys
  j=${requeued_job[$sys]:-}
  if [ -z "$j" ] || [ "$j" = late ]; then
    fail "$sys: never requeued (its training was not seen between its first validation and its end)"
    continue
  fi
  job=$(scontrol show job "$j" 2>/dev/null)
  if echo "$job" | grep -q "Restarts=1" && echo "$job" | grep -q "JobState=COMPLETED"; then
    pass "$sys: job $j requeued once (Restarts=1), then COMPLETED"
  else
    fail "$sys: job $j $(echo "$job" | grep -oE 'JobState=[A-Z_]+|Restarts=[0-9]+' | paste -sd' ')"
  fi
  resumed=$(grep -m1 "resuming at epoch" "$S/train.log" 2>/dev/null | sed 's/.*resuming/resuming/')
  if echo "$resumed" | grep -q "update [1-9]"; then pass "$sys: $resumed"
  else fail "$sys: the rerun did not resume ($(grep -m1 -E 'resum|scratch' "$S/train.log" 2>/dev/null))"; fi
  for f in best.pt last.pt; do
    if [ -s "$S/$f" ] && cmp -s "$R/systems/$ref/$f" "$S/$f"; then pass "$sys: $f byte-identical to $ref's"
    else fail "$sys: $f differs from $ref's (or is missing)"; fi
  done
  if [ -s "$S/metrics.jsonl" ] && [ "$(losses "$S/metrics.jsonl" | wc -l)" -gt 0 ] \
     && diff <(losses "$R/systems/$ref/metrics.jsonl") <(losses "$S/metrics.jsonl") > "$T/loss.diff"; then
    pass "$sys: the same loss as $ref at all $(losses "$S/metrics.jsonl" | wc -l) logged updates"
  else
    fail "$sys: losses differ from $ref's: $(head -4 "$T/loss.diff" | paste -sd' ')"
  fi
done

# c. the failing job: Snakemake says so, with the rule's log file
FL=$R/systems/slurm_fails/train.log
if [ "$rc" != 0 ] && grep -q "^Error in rule train:" "$T/snakemake.log" \
  && grep -A12 "^Error in rule train:" "$T/snakemake.log" | grep -q "log: $FL"; then
  pass "failed job reported: 'Error in rule train', log: ${FL#"$T"/}"
else
  fail "failing job not reported with its log path (snakemake rc $rc)"
fi
grep -q "no_such_option" "$FL" 2>/dev/null && pass "its log names the cause: $(grep -m1 no_such_option "$FL" | cut -c1-90)" \
  || fail "the failing job's log lacks the cause"
n_err=$(grep -c "^Error in rule" "$T/snakemake.log")
[ "$n_err" = 1 ] && pass "no other job failed" || fail "$n_err jobs failed"

t_end=$(ms)
took=$(((t_end - t_start) / 1000))
[ "$took" -le "$budget" ] && pass "bring-up and tests took $took s (budget $budget s: $BUDGET_S s scaled by the machine's speed)" \
  || fail "bring-up and tests took $took s, over the $budget s budget ($BUDGET_S s scaled by the machine's speed)"
echo "timings: slurm-up $((t_up - t_start)) ms, smoke $((t_smoke - t_up)) ms, pipeline run $((t_run - t_smoke)) ms" \
  "(requeues done at $((t_requeue - t_smoke)) ms), checks $((t_end - t_run)) ms, total $((t_end - t_start)) ms before slurm-down"
if [ "$failed" != 0 ]; then
  echo "--- snakemake output (last 40 lines)"; tail -40 "$T/snakemake.log"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
