#!/usr/bin/env bash
# slurm-down.sh — stop the cluster cluster/ci/slurm-up.sh started: cancel every job, kill what
# jobs left behind, stop slurmd, slurmctld and munged by their pid files (never by process name),
# remove SLURM's empty cgroup directories and the configuration slurm-up.sh wrote. Safe to run when
# nothing is running. Always exits 0.
set -u
if [ -s /run/slurmctld.pid ] && kill -0 "$(cat /run/slurmctld.pid)" 2>/dev/null; then
  scancel --user="$(id -un)" 2>/dev/null || true
  for _ in $(seq 1 40); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.5; done
fi
# processes of this cluster's jobs that outlived them (possible without cgroups), by pid
for p in /proc/[0-9]*; do
  { tr '\0' '\n' <"$p/environ" | grep -qx 'SLURM_CLUSTER_NAME=synmtci'; } 2>/dev/null && kill "${p#/proc/}" 2>/dev/null
done
for pf in /run/slurmd.pid /run/slurmctld.pid /run/munge/munged.pid; do
  [ -s "$pf" ] || continue
  pid=$(cat "$pf" 2>/dev/null) || continue
  kill "$pid" 2>/dev/null || continue
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
done
rm -f /run/slurmd.pid /run/slurmctld.pid
# Without slurm.conf the SLURM commands fail at once; with it and no controller, `scontrol show
# config` retries for ~10 s, and the Snakemake SLURM plugin runs it whenever Snakemake starts (even
# with the local profile), so every later snakemake call on this machine would wait 10 s.
rm -f /etc/slurm/slurm.conf /etc/slurm/cgroup.conf
for d in /sys/fs/cgroup/*/slurm_*; do
  [ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
done
true
