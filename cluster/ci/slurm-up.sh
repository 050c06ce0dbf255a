#!/usr/bin/env bash
# slurm-up.sh — a real one-node SLURM cluster on this machine, for CI and for trying the SLURM
# profile (docs/cluster.md). Debian 12, run as root, no systemd needed.
#
# Installs slurm-wlm + munge from Debian when missing (~10 s), writes /etc/slurm/slurm.conf for
# this host (controller and compute node in one, every daemon on 127.0.0.1), starts munged,
# slurmctld and slurmd, and waits until the node is idle. Idempotent: a running instance (found by
# its pid files, never by process name) is stopped first and the controller starts with no jobs.
# Stop it with cluster/ci/slurm-down.sh.
#
#   SLURM_CGROUP=auto|1|0  1: proctrack/cgroup + task/cgroup (cgroup v1): --mem is enforced,
#                          tasks are confined to their CPUs, processes a job leaves behind die
#                          with it. 0: /proc tracking only. auto (default): 1 when a memory
#                          cgroup can be created here.
#
# No slurmdbd: sacct only reads the job completion log (sacct -c); Snakemake asks squeue
# (cluster/slurm/config.yaml). Prints its timings on the last line.
set -euo pipefail
# shellcheck source=cluster/ci/daemons.sh
source "$(dirname "$0")/daemons.sh"
CG=${SLURM_CGROUP:-auto}
ms() { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms)

if [ "$(id -u)" != 0 ]; then
  echo "slurm-up.sh: must run as root (it installs packages and starts the SLURM daemons)" >&2
  exit 2
fi
if [ "$CG" = auto ]; then
  CG=0
  probe=/sys/fs/cgroup/memory/slurm-up-probe.$$
  if mkdir "$probe" 2>/dev/null; then rmdir "$probe"; CG=1; fi
fi

stop_pidfile() {  # kill the process named by a pid file and wait (at most 10 s) until it is gone
  local pid
  [ -s "$1" ] || return 0
  pid=$(cat "$1" 2>/dev/null) || return 0
  if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  fi
  rm -f "$1"
}

# 1. packages (Debian 12: slurm-wlm 22.05, munge 0.5.15; Open MPI and PMIx for `srun --mpi=pmix`)
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    slurm-wlm munge openmpi-bin libpmix2 >/dev/null
fi
t1=$(ms)

# 2. a previous instance
for pf in /run/slurmd.pid /run/slurmctld.pid; do stop_pidfile "$pf"; done
t2=$(ms)

# 3. munge (the package's postinst made /etc/munge/munge.key; make one if it did not)
ensure_munge

# 4. configuration for this host
NODE=$(hostname -s)
HW=$(slurmd -C | head -1 | sed -e 's/^NodeName=[^ ]* //')  # CPUs=2 Boards=1 ... RealMemory=24105
if [ "$CG" = 1 ]; then
  TRACKING='ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup,task/affinity
# memory is a consumable resource: a job gets what it asks for (--mem), DefMemPerCPU otherwise
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024'
  printf '%s\n' CgroupPlugin=cgroup/v1 CgroupMountpoint=/sys/fs/cgroup ConstrainCores=yes ConstrainRAMSpace=yes \
    > /etc/slurm/cgroup.conf
else
  TRACKING='# processes tracked through /proc: nothing is enforced, and a process a job leaves behind
# outlives the job (slurm-down.sh kills such leftovers)
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectTypeParameters=CR_Core'
  rm -f /etc/slurm/cgroup.conf
fi
install -d /etc/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
# Written by cluster/ci/slurm-up.sh: a one-node cluster, controller and compute node on this host.
ClusterName=synmtci
SlurmctldHost=${NODE}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# A requeued job may start again cred_expire + 1 s after the requeue (default 121 s); 10 s keeps
# the requeue test short. Never force an earlier start (scontrol update StartTime=now): the job
# then fails with "Job credential revoked".
AuthInfo=cred_expire=10
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmctldPidFile=/run/slurmctld.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmdLogFile=/var/log/slurm/slurmd.log
SelectType=select/cons_tres
${TRACKING}
# Debian's Open MPI 4.1 wires its ranks up through PMIx only
MpiDefault=pmix
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
ReturnToService=2
MailProg=/bin/true
# no slurmdbd: sacct -c reads the completion log; squeue/scontrol see a job MinJobAge s after it ended
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/linux
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
MinJobAge=300
# on cancel, requeue or time limit: SIGTERM, then SIGKILL KillWait s later (time to save state)
KillWait=30
InactiveLimit=0
Waittime=0
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=${NODE} NodeAddr=127.0.0.1 ${HW} State=UNKNOWN
PartitionName=debug Nodes=${NODE} Default=YES MaxTime=INFINITE State=UP
CONF
t3=$(ms)

# 5. daemons (they daemonise themselves and write the pid files above)
detached slurmctld -c  # -c: no jobs carried over from an earlier instance
detached slurmd
state=""
for _ in $(seq 1 240); do
  state=$(sinfo -h -o %T 2>/dev/null | sort -u)
  [ "$state" = idle ] && break
  sleep 0.25
done
t4=$(ms)
sinfo
echo "slurm-up: cgroups $CG; install $((t1 - t0)) ms, stop old $((t2 - t1)) ms, munge+config $((t3 - t2)) ms," \
  "daemons->idle $((t4 - t3)) ms, total $((t4 - t0)) ms"
if [ "$state" != idle ]; then
  echo "slurm-up: node not idle after 60 s (state '$state'); see /var/log/slurm/slurmctld.log and slurmd.log" >&2
  tail -5 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
  exit 1
fi
