# Sourced by cluster/ci/slurm-up.sh and two-node-up.sh: starting daemons and munge, the same way
# for the one-node and the two-node cluster.
# shellcheck shell=bash

# Start a daemon with stdin/stdout/stderr on /dev/null and every other inherited descriptor
# closed: a daemon that keeps a caller's pipe open makes `slurm-up.sh | tee log` (or a CI runner
# reading our output) wait forever.
detached() {
  (
    cd /
    for fd in /proc/"$BASHPID"/fd/*; do
      fd=${fd##*/}
      if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-"; fi
    done
    exec "$@"
  ) </dev/null >/dev/null 2>&1
}

# munged with the package's key (its postinst made /etc/munge/munge.key; one is made if not),
# started unless one already answers; every namespace reaches it through its socket.
ensure_munge() {
  [ -s /etc/munge/munge.key ] || runuser -u munge -- mungekey -c
  install -d -o munge -g munge -m 0755 /run/munge
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    detached runuser -u munge -- /usr/sbin/munged
    for _ in $(seq 1 40); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.25; done
  fi
  munge -n | unmunge >/dev/null
}
