#!/usr/bin/env bash
# Every paper-scale experiment file dry-runs with the SLURM profile and schedules one training job
# for every run of every system its tables use; every system's model and training options pass
# `synmt-train --check-config` (a model is built with placeholder vocabularies).
# Usage: paper_dryrun.sh VENV [BIN_DIR]
set -euo pipefail
VENV=$1
BIN=${2:-build/bin}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export USER=${USER:-$(id -un)}
passed=0
for cfg in pipeline/config/experiments/*.paper.yaml; do
  name=$(basename "$cfg" .yaml)
  "$VENV/bin/snakemake" --nolock -n --profile cluster/slurm --configfile "$cfg" \
    --config "work_dir=$T/$name/work" "results_dir=$T/$name/results" > "$T/$name.txt" 2>&1 \
    || { tail -30 "$T/$name.txt"; echo "$name: dry run with the SLURM profile failed"; exit 1; }
  "$VENV/bin/python" - "$cfg" "$T/$name.txt" "$T/$name/results" "$BIN/synmt-train" "$T" <<'PY'
import json, os, re, subprocess, sys, yaml
sys.path.insert(0, "pipeline/scripts")
import experiment
base = yaml.safe_load(open("pipeline/config/config.yaml"))
exp = yaml.safe_load(open(sys.argv[1]))
dry = open(sys.argv[2]).read()
results = sys.argv[3]
runs = experiment.expand_systems(exp["systems"], exp["pairs"])
used = set()
for t in exp["experiment"]["tables"]:
    for cell in experiment.resolve_table(t, exp["tables"][t], runs, exp["pairs"], results)["cells"]:
        used |= {r for r in cell["runs"] if "ensemble" not in runs[r]}
trained = set(re.findall(r"results/systems/([^/\s]+)/best\.pt", " ".join(l for l in dry.splitlines() if "output:" in l)))
assert used, f"{sys.argv[1]}: its tables use no training run (nothing would be checked)"
missing = sorted(used - trained)
assert not missing, f"{sys.argv[1]}: no training job for {missing[:5]}"
n_jobs = int(re.search(r"^train\s+(\d+)$", dry, re.M).group(1))
assert n_jobs >= len(used), (n_jobs, len(used))
configs = {json.dumps({"model": runs[r]["model"], "train": runs[r]["train"]}, sort_keys=True) for r in used}
def check(item):  # one config through synmt-train --check-config; the checks run two at a time
    k, text = item
    path = os.path.join(sys.argv[5], f"check{k}.json")
    open(path, "w").write(text)
    p = subprocess.run([sys.argv[4], "--check-config", "-c", path], capture_output=True, text=True,
                       env={**os.environ, "OMP_NUM_THREADS": "1"})
    return text, p
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
    for text, p in pool.map(check, enumerate(sorted(configs))):
        assert p.returncode == 0, f"{sys.argv[1]}: synmt-train --check-config refuses {text}: {p.stderr.strip()}"
print(f"{sys.argv[1]}: {len(used)} training runs scheduled, every table row has its runs; {len(configs)} distinct configs pass --check-config")
PY
  passed=$((passed + 1))
done
echo "$passed passed, 0 failed"
