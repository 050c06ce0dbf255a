#!/usr/bin/env bash
# Run here (the CPU machine, Debian bookworm): packs what scripts/gpu/first_light.sh needs on a lent
# GPU machine into .gpu-run/ (git-ignored), under the device tool's 64 MiB carry limit:
#   bundle.tar.xz  the CUDA build's binaries (build/bin, compiled here against the same PyTorch
#                  2.11.0+cu130 wheel the GPU machines run), the Debian shared libraries they need
#                  besides LibTorch and glibc, and a relocatable Open MPI (mpirun, its plugins,
#                  PMIx); first_light.sh unpacks it into a private prefix (nothing under /).
#   torch.sha256   checksums of this machine's LibTorch libraries: first_light.sh compares the GPU
#                  machine's with them, which proves the binaries run on the LibTorch they were
#                  compiled against.
#   demo/          the two demo systems' checkpoints and the Multi30k test input for decoding
#                  (DEMO=0 leaves them out; DEMO_SYSTEMS names which: both together exceed
#                  the carry limit beside the bundle).
#   mini/          mini-scale pipeline runs to train on the GPU (MINI_RUNS: their system folders,
#                  each holding the train_config.json the pipeline wrote; MINI_DATA: the pair's
#                  work folder with data/train.h5, data/valid.h5, vocab.src, vocab.tgt, or
#                  vocab.joint, packed as both). All the runs of one call share one pair's data.
# The GPU machine has no network and no Debian packages of ours; a build there (scripts/gpu/build.sh)
# would spend about half of a lease's 15 device-minutes compiling.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-build/bin}
OUT=.gpu-run
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
rm -rf "$OUT" && mkdir -p "$OUT" "$STAGE/bin" "$STAGE/lib" "$STAGE/usr/bin"
BINARIES=(synmt-train synmt-translate synmt_trainer_tests synmt-binarize)
for b in "${BINARIES[@]}"; do cp "$BIN/$b" "$STAGE/bin/"; done
# Open MPI as Debian installed it, relocated by OPAL_PREFIX (its directories are relative to /usr)
MPI_LIB=/usr/lib/x86_64-linux-gnu
mkdir -p "$STAGE/usr/lib/x86_64-linux-gnu" "$STAGE/usr/share"
cp -a "$MPI_LIB/openmpi" "$MPI_LIB/pmix2" "$STAGE/usr/lib/x86_64-linux-gnu/"
cp -a /usr/share/openmpi "$STAGE/usr/share/"
cp -a /usr/bin/orterun /usr/bin/orted /usr/bin/ompi_info "$STAGE/usr/bin/"
ln -s orterun "$STAGE/usr/bin/mpirun"
rm -rf "$STAGE/usr/lib/x86_64-linux-gnu/openmpi/include" "$STAGE/usr/lib/x86_64-linux-gnu/openmpi/lib/"*.a \
  "$STAGE/usr/lib/x86_64-linux-gnu/pmix2/include" "$STAGE/usr/lib/x86_64-linux-gnu/pmix2/lib/"*.a
# every shared library those need, except glibc's, the C++ runtime (the GPU machine's is newer)
# and LibTorch's own (the GPU machine's LibTorch is used)
{
  for f in "${BINARIES[@]/#/$BIN/}" /usr/bin/orterun /usr/bin/orted; do ldd "$f"; done
  find "$MPI_LIB/openmpi" "$MPI_LIB/pmix2" -name '*.so*' -type f -exec ldd {} \; 2>/dev/null
} | awk '/=> \// {print $1, $3}' | sort -u |
  grep -v -E '^(libc|libm|libdl|librt|libpthread|libutil|libresolv|ld-linux-x86-64|libstdc\+\+|libgcc_s|libcuda|libnvidia-ml)\.so' |
  grep -v -E '/(torch|nvidia)/' |
  while read -r soname path; do cp -L "$path" "$STAGE/lib/$soname"; done
tar -C "$STAGE" -cf - . | xz -T2 -6 > "$OUT/bundle.tar.xz"
TORCH_LIB=$(.venv/bin/python -c "import torch, os; print(os.path.join(os.path.dirname(torch.__file__), 'lib'))")
(cd "$TORCH_LIB" && sha256sum libtorch_cpu.so libtorch_cuda.so libc10.so libc10_cuda.so libtorch.so) > "$OUT/torch.sha256"
.venv/bin/python -c "import torch; print(torch.__version__, torch.version.cuda, torch.version.git_version)" > "$OUT/torch.version"
# 256 sentence pairs for the multi-rank checks (subword-segmented Multi30k training data)
head -256 work/multi30k_en_de/bpe/train.src > "$OUT/tiny.src"
head -256 work/multi30k_en_de/bpe/train.tgt > "$OUT/tiny.tgt"
if [ "${DEMO:-1}" = 1 ]; then
  mkdir -p "$OUT/demo"
  for s in ${DEMO_SYSTEMS:-rnn_demo transformer_demo}; do
    cp results/systems/$s/best.pt "$OUT/demo/$s.pt"
    cp results/systems/$s/hyp.test.sub "$OUT/demo/$s.cpu_here.sub"
  done
  cp work/multi30k_en_de/vocab.src work/multi30k_en_de/vocab.tgt work/multi30k_en_de/bpe/test.src "$OUT/demo/"
fi
if [ -n "${MINI_RUNS:-}" ]; then
  mkdir -p "$OUT/mini/data"
  for f in data/train.h5 data/valid.h5; do cp "${MINI_DATA:?set MINI_DATA}/$f" "$OUT/mini/data/"; done
  if [ -f "$MINI_DATA/vocab.joint" ]; then
    # one dictionary for both sides (Pascal's shared embeddings): the pipeline passes the same file
    # as --src-vocab and --tgt-vocab, and so does first_light.sh's mini step with these two copies
    cp "$MINI_DATA/vocab.joint" "$OUT/mini/data/vocab.src"
    cp "$MINI_DATA/vocab.joint" "$OUT/mini/data/vocab.tgt"
  else
    for f in vocab.src vocab.tgt; do cp "$MINI_DATA/$f" "$OUT/mini/data/"; done
  fi
  for r in $MINI_RUNS; do
    mkdir -p "$OUT/mini/runs/$(basename "$r")"
    cp "$r/train_config.json" "$OUT/mini/runs/$(basename "$r")/"
  done
fi
du -sh "$OUT"/* | sort -h
