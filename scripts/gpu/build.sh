#!/usr/bin/env bash
# Run on the GPU machine: unpacks .gpu-debs/ (scripts/gpu/fetch_debs.sh) into a private prefix and
# builds the trainer against the LibTorch of the machine's PyTorch (2.x, CUDA) into build-cuda/.
# One GPU per process: MPI and NCCL off unless SYNMT_GPU_NCCL=1 (then Open MPI must be there).
# The CoreNLP backend (libcurl) is left out. Not yet run on a GPU machine: see docs/gpu.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
PREFIX=${SYNMT_DEPS_PREFIX:-/tmp/synmt-deps}
mkdir -p "$PREFIX"
for deb in .gpu-debs/*.deb; do dpkg -x "$deb" "$PREFIX"; done
LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/hdf5/serial:${LD_LIBRARY_PATH:-}
export PKG_CONFIG_PATH=$LIB/pkgconfig:$PREFIX/usr/share/pkgconfig:${PKG_CONFIG_PATH:-}
TORCH_PREFIX=$(python3 -c "import torch; print(torch.utils.cmake_prefix_path)")
NCCL=${SYNMT_GPU_NCCL:-0}
cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$TORCH_PREFIX;$PREFIX/usr" \
  -DSYNMT_WITH_CUDA=ON -DSYNMT_WITH_MPI=$([ "$NCCL" = 1 ] && echo ON || echo OFF) \
  -DSYNMT_WITH_NCCL=$([ "$NCCL" = 1 ] && echo ON || echo OFF) \
  -DSYNMT_WITH_CORENLP=OFF -DSYNMT_BUILD_TESTS=OFF \
  -DHDF5_C_INCLUDE_DIR="$PREFIX/usr/include/hdf5/serial" \
  -DHDF5_C_LIBRARY="$LIB/hdf5/serial/libhdf5.so" \
  -DICU_ROOT="$PREFIX/usr" -DOPENSSL_ROOT_DIR="$PREFIX/usr" \
  -DZLIB_ROOT="$PREFIX/usr"
cmake --build build-cuda --target synmt-train synmt-translate synmt-binarize synmt-bpe synmt-tok
echo "built: build-cuda/bin (LD_LIBRARY_PATH must include $LIB and $LIB/hdf5/serial)"
