#!/usr/bin/env bash
# Installs every dependency (Debian packages, a project-local Python venv with PyTorch 2.11, whose
# LibTorch the trainer builds against) and builds synmt (Release, -j2) into build/. Idempotent: a
# second run only rebuilds what changed. With a CUDA toolkit on the machine (nvcc), the CUDA code and
# the NCCL communicator are built as well (docs/gpu.md).
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi

APT_PACKAGES=(
  build-essential cmake ccache git pkg-config python3 python3-venv
  libopenmpi-dev openmpi-bin libhdf5-dev nlohmann-json3-dev libgtest-dev libcli11-dev
  libsentencepiece-dev mecab libmecab-dev mecab-ipadic-utf8 python3-langdetect
  libicu-dev libssl-dev zlib1g-dev libcurl4-openssl-dev   # Unicode classes, sha256, gzip, downloads
  libarchive-dev                                         # corpus archives (tar.gz, tgz, zip)
  clang libclang-rt-14-dev                               # the libFuzzer targets (tests/fuzz, -DSYNMT_FUZZ=ON)
  iproute2                                               # the two-node SLURM test's network namespaces
)
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${APT_PACKAGES[@]}" >/dev/null
# Debian's LibTorch 1.13 (libtorch-dev), which earlier versions of this script installed, goes: with
# it in the system paths CMake can pair the venv's headers with its libraries.
if dpkg-query -W -f='${Status}' libtorch-dev 2>/dev/null | grep -q "ok installed"; then
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq libtorch-dev >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  # whatever stands there is not a usable venv (a dangling link, a half-made one): start afresh
  rm -rf .venv
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
# requirements.txt pins torch==2.11.0 (the CUDA 13.0 wheel, ~4.6 GB with its nvidia-* wheels): the
# GPU machines' version; its LibTorch runs on CPUs too (MKL inside)
.venv/bin/python -m pip install -q -r requirements.txt

echo "[install] packages and venv done after $SECONDS s; configure and build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSYNMT_VENV="$PWD/.venv"
cmake --build build -j2
echo "synmt: build complete (build/bin) after $SECONDS s"
