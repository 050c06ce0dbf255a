#!/usr/bin/env bash
# two-node-exec.sh CMD [ARGS...] — run CMD on the login host of the two-node cluster
# (cluster/ci/two-node-up.sh): inside the login host's network, mount and UTS namespaces (its
# /etc/slurm is the cluster's), so
# that sbatch, srun, squeue and `snakemake --profile cluster/slurm` talk to that cluster.
set -euo pipefail
# shellcheck source=cluster/ci/two-node-env.sh
source "$(dirname "$0")/two-node-env.sh"
[ -e "/run/netns/$NS_CTL" ] || { echo "two-node-exec.sh: the two-node cluster is not up (cluster/ci/two-node-up.sh)" >&2; exit 2; }
in_cluster "$@"
