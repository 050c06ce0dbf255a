# Sourced by the reference-ratio benchmarks (after `cd` to the repository root): the data folder
# (the script's first argument, else $SYNMT_MIRROR, else the mirror beside the clone) in DATA, a temporary folder removed on exit
# in T, and timed runs of a reference tool and of ours on the same input with their ratio. Each tool runs BENCH_REPS times (default 3), interleaved (reference, ours,
# reference, ...), so that a slow spell of this shared machine hits both; the reported speed-up is
# the ratio of the median times, with every run's own ratio listed beside it.
BENCH_REPS=${BENCH_REPS:-3}
DATA=${1:-${SYNMT_MIRROR:-../shared/data}}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# run_timed FILE COMMAND: runs COMMAND (a shell string, with its redirections) and appends its
# wall time in seconds to FILE. The clock is bash's $EPOCHREALTIME: spawning `date` around a
# command added about a millisecond to each interval, 1-2% of the fastest tools' times.
run_timed() {
  local start=$EPOCHREALTIME
  eval "$2"
  local end=$EPOCHREALTIME
  python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$end" >> "$1"
}

# report LABEL REF_NAME REF_FILE OUR_NAME OUR_FILE
report() {
  python3 - "$@" <<'PY'
import statistics, sys
label, ref_name, ref_file, our_name, our_file = sys.argv[1:]
ref = [float(x) for x in open(ref_file)]
ours = [float(x) for x in open(our_file)]
runs = ", ".join(f"{r / o:.1f}x" for r, o in zip(ref, ours))
mr, mo = statistics.median(ref), statistics.median(ours)
print(f"{label}: {ref_name} {mr:.3f} s, {our_name} {mo:.3f} s (medians of {len(ref)}), "
      f"speed-up {mr / mo:.1f}x (runs: {runs})")
PY
}
