#!/usr/bin/env bash
# Run here (a Debian bookworm machine with network access): downloads the development packages
# that the GPU machine lacks (it has CUDA, NCCL, CMake, ninja and PyTorch's LibTorch, but no Debian
# -dev packages and no network) into .gpu-debs/ (git-ignored, ~27 MB). Pass it to the device tool
# as `carry: [".gpu-debs"]`; scripts/gpu/build.sh unpacks it there. See docs/gpu.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .gpu-debs
cd .gpu-debs
apt-get download \
  libhdf5-dev libhdf5-103-1 libhdf5-hl-100 libhdf5-cpp-103-1 libsz2 libaec0 \
  nlohmann-json3-dev libcli11-dev \
  libicu-dev libicu72 \
  libmecab-dev libmecab2 \
  libsentencepiece-dev libsentencepiece0 libprotobuf-lite32 \
  zlib1g-dev libssl-dev
du -sh .
