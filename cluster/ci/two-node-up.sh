#!/usr/bin/env bash
# two-node-up.sh — a two-node SLURM cluster on this one machine, each node behind its own network:
#
#   namespace synmt-ctl    ctl, the login and controller host: slurmctld, the bridge synbr0 with
#                          10.231.0.1/24; sbatch, srun and Snakemake run here (two-node-exec.sh)
#   namespace synmt-node1  node1, 10.231.0.11 on its own eth0 (a veth into the bridge), slurmd -N node1
#   namespace synmt-node2  node2, 10.231.0.12, slurmd -N node2
#
# Each slurmd also has its own UTS namespace (hostname node1/node2), so what a rank reports as its
# host is the node's name, and Open MPI sees two hosts: with no shared network namespace its ranks
# must find each other over TCP between the addresses above, as on a real cluster. Every address
# lives inside these namespaces; nothing is routed to or from the machine's own network (no
# address, route or forwarding in the root namespace). The file system is shared, as a cluster's
# NFS home would be; munged is shared through its Unix socket (one key, as on a cluster).
#
# What is NOT separate (docs/cluster.md): the file system, /tmp and /dev/shm (each node gets its
# own PMIx directory, below), the CPUs (each node declares both of the machine's cores), and the
# time. Processes are tracked through /proc (no cgroups: `ip netns`-style remounts of /sys would
# hide the cgroup hierarchy, and two slurmd on one host would share it).
#
# Env: SYNMT_CLUSTER_NET (default 10.231.0) the /24 the cluster uses. Each host sees its own
# /etc/slurm (from /etc/slurm-synmt2/<host>) in its mount namespace; the machine's /etc/slurm is untouched. Refuses to start when an address of that /24 is already assigned
# or routed on this machine. Idempotent: a previous instance is taken down first. Stop it with
# cluster/ci/two-node-down.sh. Prints its timings on the last line.
set -euo pipefail
# shellcheck source=cluster/ci/daemons.sh
source "$(dirname "$0")/daemons.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=cluster/ci/two-node-env.sh
source "$HERE/two-node-env.sh"
ms() { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms)
if [ "$(id -u)" != 0 ]; then
  echo "two-node-up.sh: must run as root (network namespaces, SLURM daemons)" >&2
  exit 2
fi

# 1. packages (as slurm-up.sh) and a previous instance
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null || ! command -v ip >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    slurm-wlm munge openmpi-bin libpmix2 iproute2 >/dev/null
fi
# the network: refuse an address range this machine already uses
python3 - "$NET" <<'PY'
import ipaddress, json, subprocess, sys
net = ipaddress.ip_network(sys.argv[1] + ".0/24")
addrs = json.loads(subprocess.run(["ip", "-j", "addr"], capture_output=True, text=True, check=True).stdout)
for link in addrs:
    for a in link.get("addr_info", []):
        if a.get("family") == "inet" and ipaddress.ip_address(a["local"]) in net:
            sys.exit(f"two-node-up.sh: {a['local']} ({link['ifname']}) is already on this machine; "
                     f"set SYNMT_CLUSTER_NET to an unused /24")
routes = json.loads(subprocess.run(["ip", "-j", "route", "show", "table", "all"], capture_output=True, text=True, check=True).stdout)
for r in routes:
    dst = r.get("dst", "default")
    if dst in ("default",) or ":" in dst or r.get("type") in ("local", "broadcast"):
        continue
    try:
        rnet = ipaddress.ip_network(dst if "/" in dst else dst + "/32", strict=False)
    except ValueError:
        continue
    if rnet.overlaps(net):
        sys.exit(f"two-node-up.sh: {net} is already routed here ({dst} dev {r.get('dev')}); "
                 f"set SYNMT_CLUSTER_NET to an unused /24")
PY
bash "$HERE/two-node-down.sh" >/dev/null 2>&1 || true
t1=$(ms)

# 2. the network
ip netns add "$NS_CTL"
ip -n "$NS_CTL" link set lo up
ip -n "$NS_CTL" link add synbr0 type bridge
ip -n "$NS_CTL" addr add "$NET.1/24" dev synbr0
ip -n "$NS_CTL" link set synbr0 up
for i in 1 2; do
  ns=${NS_NODE[$i]}
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  # the veth is created inside the controller's namespace and its peer moved into the node's
  ip -n "$NS_CTL" link add "vnode$i" type veth peer name eth0 netns "$ns"
  ip -n "$NS_CTL" link set "vnode$i" master synbr0 up
  ip -n "$ns" addr add "$NET.1$i/24" dev eth0
  ip -n "$ns" link set eth0 up
done
t2=$(ms)

# 3. munge: shared by every namespace through its socket
ensure_munge

# 4. configuration: one slurm.conf, in each host's own /etc/slurm (a bind mount inside the host's
# mount namespace); each node's beside an mpi.conf with its own PMIx directory (the nodes share
# /tmp: the second would find the first's directory there)
HW=$(slurmd -C | head -1 | grep -o 'CPUs=[0-9]*')
install -d "$CONF_DIR/ctl" "$STATE_DIR" "$LOG_DIR" "$RUN_DIR"
cat > "$CONF_DIR/ctl/slurm.conf" <<CONF
# Written by cluster/ci/two-node-up.sh: a controller and two compute nodes, each in its own network
# namespace on one machine. Both nodes declare the machine's cores (${HW}).
ClusterName=$CLUSTER
SlurmctldHost=ctl($NET.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=cred_expire=10
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$STATE_DIR/ctld
SlurmctldPidFile=$RUN_DIR/slurmctld.pid
SlurmctldLogFile=$LOG_DIR/slurmctld.log
SlurmdPidFile=$RUN_DIR/slurmd.%n.pid
SlurmdSpoolDir=$STATE_DIR/%n
SlurmdLogFile=$LOG_DIR/slurmd.%n.log
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
MpiDefault=pmix
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
# a node that comes back after being lost is usable again at once
ReturnToService=2
# a job on a node that is lost goes back to the queue (when it was submitted with --requeue)
JobRequeue=1
MailProg=/bin/true
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/linux
JobCompType=jobcomp/filetxt
JobCompLoc=$LOG_DIR/jobcomp.log
MinJobAge=300
KillWait=30
InactiveLimit=0
Waittime=0
SlurmctldTimeout=30
# a node that does not answer for 10 s is DOWN (a real cluster waits minutes; the node-loss test
# would otherwise wait as long)
SlurmdTimeout=10
NodeName=node1 NodeAddr=$NET.11 NodeHostname=node1 $HW RealMemory=8000 State=UNKNOWN
NodeName=node2 NodeAddr=$NET.12 NodeHostname=node2 $HW RealMemory=8000 State=UNKNOWN
PartitionName=debug Nodes=node1,node2 Default=YES MaxTime=INFINITE State=UP
CONF
for i in 1 2; do
  install -d "$CONF_DIR/node$i" "$STATE_DIR/node$i" "/var/tmp/slurm-pmix/$CLUSTER/node$i"
  cp "$CONF_DIR/ctl/slurm.conf" "$CONF_DIR/node$i/slurm.conf"
  echo "PMIxCliTmpDirBase=/var/tmp/slurm-pmix/$CLUSTER/node$i" > "$CONF_DIR/node$i/mpi.conf"
done
install -d "$STATE_DIR/ctld"
t3=$(ms)

# 5. the hosts: a mount and a UTS namespace each, kept in NS_DIR (a private mount, as `ip netns`
# keeps its network namespaces), then the daemons inside them
install -d /etc/slurm "$NS_DIR"
mount --bind "$NS_DIR" "$NS_DIR"
mount --make-private "$NS_DIR"
for h in ctl node1 node2; do
  touch "$NS_DIR/$h.mnt" "$NS_DIR/$h.uts"
  unshare "--mount=$NS_DIR/$h.mnt" "--uts=$NS_DIR/$h.uts" --propagation private \
    sh -c "hostname $h && mount --bind $CONF_DIR/$h /etc/slurm"
done
# slurmctld checks that it runs on SlurmctldHost (ctl)
host_ns ctl
detached "${HOST_NS[@]}" slurmctld -c
for i in 1 2; do
  host_ns "node$i"
  detached "${HOST_NS[@]}" slurmd -N "node$i"
done
state=""
for _ in $(seq 1 240); do
  state=$(in_cluster timeout 5 sinfo -h -N -o %T 2>/dev/null | sort -u | paste -sd,) || true
  [ "$state" = idle ] && break
  sleep 0.25
done
t4=$(ms)
in_cluster sinfo -N
echo "two-node-up: network $NET.0/24; install+stop old $((t1 - t0)) ms, namespaces $((t2 - t1)) ms," \
  "munge+config $((t3 - t2)) ms, daemons->idle $((t4 - t3)) ms, total $((t4 - t0)) ms"
if [ "$state" != idle ]; then
  echo "two-node-up: nodes not idle after 60 s (states '$state'); see $LOG_DIR" >&2
  tail -5 "$LOG_DIR"/*.log >&2 || true
  exit 1
fi
