# Sourced by the SLURM tests: how much slower than the reference machine this machine runs right
# now, measured, so that a test's wall-clock budget can be scaled by it.
# The SLURM tests' minutes are mostly the machine's own compute (trainings, Snakemake starting in
# every job), and the CI machines' speed varies between machines and days by up to ~1.9x
# (docs/cluster.md, "What the test proves"). A budget fixed in seconds then fails on a slow
# machine for no fault of the cluster; a budget scaled by a measured speed keeps catching what it
# is there for: the cluster's own overhead (bring-up, scheduling, waits).
# The workload: synmt-train, rnn_tiny, 1 thread, 150 updates on 200 synthetic sentence pairs (no
# data mirror needed), outside the cluster; the fastest of 3 runs (single runs on one idle machine
# ranged 5.9-7.9 s).
# machine_speed_permille BIN TMPDIR REF_MS: prints "SCALE MS": SCALE = MS / REF_MS in per mille,
# never below 1000 (a faster machine keeps the budget as it is) and never above 2500 (ctest's
# TIMEOUT for these tests, tests/CMakeLists.txt, stays above every scaled limit; a machine more
# than 2.5x slower fails the budget).
machine_speed_permille() {
  local bin=$1 dir=$2 ref=$3 best="" t0 took
  mkdir -p "$dir"
  awk 'BEGIN { for (i = 0; i < 200; i++) { s = ""; t = "";
         for (j = 0; j < 6 + i % 9; j++) { s = s " w" (i * 7 + j * 13) % 97; t = t " v" (i * 5 + j * 11) % 89 }
         print substr(s, 2) > "'"$dir"'/s.txt"; print substr(t, 2) > "'"$dir"'/t.txt" } }'
  "$bin/synmt-binarize" vocab -i "$dir/s.txt" -o "$dir/vs" 2>/dev/null || return 1
  "$bin/synmt-binarize" vocab -i "$dir/t.txt" -o "$dir/vt" 2>/dev/null || return 1
  "$bin/synmt-binarize" data --src "$dir/s.txt" --tgt "$dir/t.txt" --src-vocab "$dir/vs" --tgt-vocab "$dir/vt" \
    -o "$dir/d.h5" 2>/dev/null || return 1
  printf '{"model": {"arch": "rnn_tiny"}, "train": {"batch_size": 8, "max_steps": 150, "max_epochs": 1000, "lr": 0.005, "seed": 1, "threads": 1, "checkpoint_interval": 0}}\n' > "$dir/cfg.json"
  for _ in 1 2 3; do
    rm -rf "$dir/run"
    t0=$(date +%s%N)
    "$bin/synmt-train" -c "$dir/cfg.json" --train "$dir/d.h5" --valid "$dir/d.h5" --src-vocab "$dir/vs" \
      --tgt-vocab "$dir/vt" -o "$dir/run" > "$dir/train.log" 2>&1 || { tail -3 "$dir/train.log" >&2; return 1; }
    took=$((($(date +%s%N) - t0) / 1000000))
    { [ -z "$best" ] || [ "$took" -lt "$best" ]; } && best=$took
  done
  local scale=$((best * 1000 / ref))
  [ "$scale" -lt 1000 ] && scale=1000
  [ "$scale" -gt 2500 ] && scale=2500
  echo "$scale $best"
}
