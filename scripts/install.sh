#!/usr/bin/env bash
# Installs every dependency (Debian packages, a project-local Python venv) and builds synmt
# (Release, -j2) into build/. Idempotent: a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi

APT_PACKAGES=(
  build-essential cmake ccache git pkg-config python3 python3-venv
  libtorch-dev libopenblas0-pthread          # LibTorch 1.13 (CPU); without OpenBLAS it runs ~25x slower
  libopenmpi-dev openmpi-bin libhdf5-dev nlohmann-json3-dev libgtest-dev libcli11-dev
  libsentencepiece-dev mecab libmecab-dev mecab-ipadic-utf8 python3-langdetect
  libicu-dev libssl-dev zlib1g-dev libcurl4-openssl-dev   # Unicode classes, sha256, gzip, downloads
  libarchive-dev                                         # corpus archives (tar.gz, tgz, zip)
  clang libclang-rt-14-dev                               # the libFuzzer targets (tests/fuzz, -DSYNMT_FUZZ=ON)
)
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${APT_PACKAGES[@]}" >/dev/null

if [ ! -x .venv/bin/python ]; then
  # whatever stands there is not a usable venv (a dangling link, a half-made one): start afresh
  rm -rf .venv
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -r requirements.txt

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSYNMT_VENV="$PWD/.venv"
cmake --build build -j2
echo "synmt: build complete (build/bin)"
