#!/usr/bin/env bash
# slurm-smoke.sh — quick checks that the cluster of slurm-up.sh takes work, before anything
# slower runs on it: the node is idle, srun runs a command, an sbatch job completes and shows up in
# the completion log (sacct -c), and a 2-task srun step gets one CPU per task. Every wait is bounded.
# Prints 'N passed, N failed'; exits non-zero on a failure.
set -uo pipefail
W=$(mktemp -d /tmp/slurm-smoke.XXXXXX)
trap 'rm -rf "$W"' EXIT
pass=0
fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
gone() {  # jobid timeout_s: true once the job has left the pending/running states
  local i
  for i in $(seq 1 $(($2 * 4))); do
    case "$(squeue -h -j "$1" -o %T 2>/dev/null)" in "" | COMPLETED | FAILED | CANCELLED | TIMEOUT) return 0 ;; esac
    sleep 0.25
  done
  return 1
}

state=$(sinfo -h -o %T | sort -u)
[ "$state" = idle ] && ok "sinfo: node idle" || bad "sinfo: node '$state'"

out=$(timeout 60 srun -N1 -n1 hostname 2>&1)
[ "$out" = "$(hostname -s)" ] && ok "srun -n1 hostname" || bad "srun: $out"

J=$(sbatch --parsable -o "$W/%j.out" --wrap 'echo ok')
if gone "$J" 60 && [ "$(cat "$W/$J.out" 2>/dev/null)" = ok ] \
  && scontrol show job "$J" | grep -q 'JobState=COMPLETED'; then
  ok "sbatch --wrap: job $J COMPLETED"
else
  bad "sbatch --wrap: job $J $(scontrol show job "$J" | grep -o 'JobState=[A-Z_]*')"
fi
for _ in $(seq 1 20); do sacct -c -X -n -P -o JobIdRaw,State -j "$J" 2>/dev/null | grep -q "^$J|COMPLETED" && break; sleep 0.25; done
sacct -c -X -n -P -o JobIdRaw,State -j "$J" 2>/dev/null | grep -q "^$J|COMPLETED" \
  && ok "sacct -c: job $J in the completion log" || bad "sacct -c: job $J not in the completion log"

masks=$(timeout 60 srun -n 2 -c 1 --mpi=none bash -c 'grep Cpus_allowed_list /proc/self/status | cut -f2' 2>&1 | sort | paste -sd' ')
n=$(echo "$masks" | wc -w)
[ "$n" = 2 ] && ok "srun -n 2 -c 1: 2 tasks (CPUs $masks)" || bad "srun -n 2: '$masks'"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
