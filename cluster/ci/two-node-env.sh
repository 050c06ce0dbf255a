# Sourced by the two-node cluster's scripts (cluster/ci/two-node-*.sh): names and paths, and
# in_cluster, which runs a command on the cluster's login host (the controller's namespace).
# shellcheck shell=bash
# shellcheck disable=SC2034  # the names are for the scripts that source this file
NET=${SYNMT_CLUSTER_NET:-10.231.0}
CLUSTER=synmt2
NS_CTL=synmt-ctl
NS_NODE=([1]=synmt-node1 [2]=synmt-node2)
# each host's /etc/slurm (bind-mounted there in the host's own mount namespace, as every node of a
# real cluster has its own): CONF_DIR/ctl, CONF_DIR/node1, CONF_DIR/node2
CONF_DIR=/etc/slurm-synmt2
STATE_DIR=/var/lib/slurm-synmt2
LOG_DIR=/var/log/slurm-synmt2
RUN_DIR=/run/slurm-synmt2
# the hosts' mount and UTS namespaces, kept by bind mounts of their nsfs files
NS_DIR=$RUN_DIR/ns
# a command on host H (ctl, node1, node2): its network, mount and UTS namespaces. nsenter, not
# `ip netns exec`, which would remount /sys
host_ns() {  # host_ns H: sets HOST_NS to the nsenter command line that enters host H
  local net=$NS_CTL
  [ "$1" = ctl ] || net=${NS_NODE[${1#node}]}
  HOST_NS=(nsenter "--net=/run/netns/$net" "--mount=$NS_DIR/$1.mnt" "--uts=$NS_DIR/$1.uts" "--wd=$PWD")
}
on_host() {
  host_ns "$1"
  shift
  "${HOST_NS[@]}" "$@"
}
in_cluster() { on_host ctl "$@"; }
