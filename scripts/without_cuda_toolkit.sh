#!/usr/bin/env bash
# Runs a command as on a machine with PyTorch's wheel but no CUDA toolkit (a researcher's laptop):
# in a private mount namespace, the toolkit's folder (/usr/local/cuda -> cuda-X.Y) and whatever it
# installed into /usr/local/include and /usr/local/lib are covered by empty tmpfs mounts, and every
# nvcc on PATH by /dev/null. Nothing outside the namespace changes. Needs root or unprivileged user
# namespaces (unshare). CI uses it to configure and build synmt-train without a toolkit.
# usage: scripts/without_cuda_toolkit.sh COMMAND [ARG...]
set -euo pipefail
if [ "${SYNMT_IN_TOOLKIT_NAMESPACE:-}" != 1 ]; then
  flags=(--mount)
  [ "$(id -u)" -ne 0 ] && flags+=(--map-root-user)
  exec env SYNMT_IN_TOOLKIT_NAMESPACE=1 unshare "${flags[@]}" -- bash "$0" "$@"
fi
mount --make-rprivate / 2>/dev/null || true
for dir in /usr/local/cuda /usr/local/cuda-*; do
  [ -d "$dir" ] && mount -t tmpfs none "$(readlink -f "$dir")"
done
for dir in /usr/local/include /usr/local/lib; do
  [ -d "$dir" ] && mount -t tmpfs none "$dir"
done
while nvcc=$(command -v nvcc 2>/dev/null) && [ -x "$nvcc" ]; do
  mount --bind /dev/null "$nvcc"
  hash -r
done
if command -v nvcc >/dev/null 2>&1 && [ -x "$(command -v nvcc)" ]; then
  echo "without_cuda_toolkit.sh: nvcc still visible" >&2
  exit 1
fi
exec "$@"
