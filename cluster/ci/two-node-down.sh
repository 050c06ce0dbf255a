#!/usr/bin/env bash
# two-node-down.sh — take down the cluster of two-node-up.sh: cancel its jobs, kill what they left
# behind (processes whose environment names the cluster), stop slurmctld and both slurmd by their
# pid files, release the hosts' mount and UTS namespaces, delete the three network namespaces (with them the bridge and the veths) and the
# configuration. munged stays (the one-node cluster may share it). Always exits 0.
set -u
# shellcheck source=cluster/ci/two-node-env.sh
source "$(dirname "$0")/two-node-env.sh"
if [ -e "/run/netns/$NS_CTL" ] && [ -s "$RUN_DIR/slurmctld.pid" ] && kill -0 "$(cat "$RUN_DIR/slurmctld.pid")" 2>/dev/null; then
  in_cluster timeout 20 scancel --user="$(id -un)" 2>/dev/null
fi
for p in /proc/[0-9]*; do
  { tr '\0' '\n' <"$p/environ" | grep -qx "SLURM_CLUSTER_NAME=$CLUSTER"; } 2>/dev/null && kill -9 "${p#/proc/}" 2>/dev/null
done
for pf in "$RUN_DIR"/slurmd.node1.pid "$RUN_DIR"/slurmd.node2.pid "$RUN_DIR"/slurmctld.pid; do
  [ -s "$pf" ] || continue
  pid=$(cat "$pf" 2>/dev/null) || continue
  kill "$pid" 2>/dev/null || continue
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -9 "$pid" 2>/dev/null
done
for f in "$NS_DIR"/*.mnt "$NS_DIR"/*.uts; do [ -e "$f" ] && umount "$f" 2>/dev/null; done
mountpoint -q "$NS_DIR" && umount "$NS_DIR"
for ns in "$NS_CTL" "${NS_NODE[@]}"; do
  [ -e "/run/netns/$ns" ] && ip netns del "$ns"
done
rm -rf "$CONF_DIR" "$RUN_DIR" "$STATE_DIR" "/var/tmp/slurm-pmix/$CLUSTER"
true
