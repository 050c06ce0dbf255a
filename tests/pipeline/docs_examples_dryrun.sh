#!/usr/bin/env bash
# The configuration examples of docs/ (adding_a_language_pair.md, reproducing.md, cluster.md,
# multitask.md), as a reader would copy them. adding_a_language_pair.md: the
# corpus entry into a corpora file, the pair, system and table into a config file, then
# `snakemake -n` must plan the table (every key accepted by the schema, the DAG complete). A doc
# whose examples drift from the schema fails here.  Usage: docs_examples_dryrun.sh VENV
set -euo pipefail
VENV=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$VENV/bin/python" - docs/adding_a_language_pair.md "$T" <<'PY'
import re, sys, yaml
doc, out = sys.argv[1], sys.argv[2]
blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", open(doc).read(), re.S)]
blocks = [{k: v for k, v in b.items()} for b in blocks]
# a block is either corpus entries (every value has files) or configuration: every configuration key
# goes to the schema (a misspelt or new key is judged there, never dropped here)
corpora, config = {}, {"corpora": [f"{out}/corpora.yaml"], "work_dir": f"{out}/work", "results_dir": f"{out}/results"}
for b in blocks:
    if all(isinstance(v, dict) and "files" in v for v in b.values()):
        corpora.update(b)
        continue
    for key, value in b.items():
        if isinstance(value, dict):
            config.setdefault(key, {}).update(value)
        else:
            config[key] = value
missing = [k for k in ("pairs", "systems", "tables", "experiment") if k not in config]
assert corpora and not missing, f"{doc}: examples lack {missing or 'a corpus entry'}"
yaml.safe_dump(corpora, open(f"{out}/corpora.yaml", "w"))
yaml.safe_dump(config, open(f"{out}/config.yaml", "w"))
print(f"{doc}: {len(blocks)} examples, corpora {sorted(corpora)}, pairs {sorted(config['pairs'])}, tables {sorted(config['tables'])}")
PY
# the whole example config must plan, down to the table it describes
"$VENV/bin/snakemake" --nolock -n --quiet rules --configfile "$T/config.yaml" > "$T/dry.txt" 2>&1 || { cat "$T/dry.txt"; echo "the examples do not dry-run"; exit 1; }
for rule in train translate score table; do
  grep -qE "^$rule +[0-9]+" "$T/dry.txt" || { cat "$T/dry.txt"; echo "the dry run plans no '$rule' job"; exit 1; }
done
echo "docs/adding_a_language_pair.md examples: dry run plans $(grep -E '^total' "$T/dry.txt" | head -1 | awk '{print $2}') jobs"
# docs/reproducing.md: your own system in a paper table, the page's two blocks as my.yaml over the
# SA-NMT mini file; the table must plan the new system's training and its significance tests
"$VENV/bin/python" - docs/reproducing.md "$T/my.yaml" <<'PY'
import re, sys, yaml
text = open(sys.argv[1]).read()
section = text[text.index("## Adding your own system to a paper table"):]
blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", section, re.S)[:2]]
merged = {}
for b in blocks:
    merged.update(b)
assert set(merged) == {"systems", "tables"}, f"{sys.argv[1]}: the example blocks define {sorted(merged)}"
yaml.safe_dump(merged, open(sys.argv[2], "w"), allow_unicode=True)
PY
"$VENV/bin/snakemake" --nolock -n "$T/results2/tables/sa_nmt_table2.md" --quiet rules --configfile pipeline/config/experiments/sa_nmt.mini.yaml "$T/my.yaml" \
  --config work_dir="$T/work2" results_dir="$T/results2" > "$T/dry2.txt" 2>&1 || { cat "$T/dry2.txt"; echo "the reproducing.md example does not dry-run"; exit 1; }
"$VENV/bin/snakemake" --nolock -n "$T/results2/tables/sa_nmt_table2.md" --configfile pipeline/config/experiments/sa_nmt.mini.yaml "$T/my.yaml" \
  --config work_dir="$T/work2" results_dir="$T/results2" > "$T/dry3.txt" 2>&1 || { tail -20 "$T/dry3.txt"; exit 1; }
grep -q "output: .*/systems/my_variant.sa_mini_en_de.s1/best.pt" "$T/dry3.txt" || { echo "the example's system is not trained"; exit 1; }
# its comparisons (compare: NMT and SA-NMT shared): significance jobs of each pair against the variant
for baseline in nmt sa_shared; do
  grep -qE "output: .*/significance/sa_mini_en_de/[^/]+/[a-z_]+/$baseline(@s[0-9]+)?--my_variant(@s[0-9]+)?\.json" "$T/dry3.txt" \
    || { echo "no significance test of my_variant against $baseline is planned"; exit 1; }
done
echo "docs/reproducing.md example: dry run plans $(grep -E '^total' "$T/dry2.txt" | head -1 | awk '{print $2}') jobs"
echo "2 passed, 0 failed"
# docs/cluster.md: the multi-rank system, over config.yaml, with the SLURM profile: its training job
# is planned with 4 ranks' resources
blocks() {  # blocks DOC OUT: the doc's ```yaml blocks merged into one file
  "$VENV/bin/python" - "$1" "$2" <<'PY'
import re, sys, yaml
merged = {}
for b in re.findall(r"```yaml\n(.*?)```", open(sys.argv[1]).read(), re.S):
    for k, v in yaml.safe_load(b).items():
        merged.setdefault(k, {}).update(v)
yaml.safe_dump(merged, open(sys.argv[2], "w"), allow_unicode=True)
PY
}
blocks docs/cluster.md "$T/cluster.yaml"
USER=${USER:-$(id -un)} "$VENV/bin/snakemake" --nolock -n "$T/results4/systems/transformer_big/summary.json" --profile cluster/slurm \
  --configfile pipeline/config/config.yaml "$T/cluster.yaml" --config work_dir="$T/work4" results_dir="$T/results4" > "$T/dry4.txt" 2>&1 \
  || { tail -20 "$T/dry4.txt"; echo "the cluster.md example does not dry-run"; exit 1; }
# the train job's resources: 4 tasks launched as MPI ranks (mpi: the SLURM plugin submits --ntasks),
# 4 GPUs, the memory of 4 ranks
resources=$(grep -A12 '^rule train:' "$T/dry4.txt" | grep -m1 'resources:' || true)
for need in 'tasks=4(,|$)' 'mpi=4(,|$)' 'gpu=4(,|$)' 'mem_mb=64000(,|$)'; do
  grep -qE "$need" <<< "$resources" \
    || { grep -A12 "^rule train:" "$T/dry4.txt"; echo "the cluster.md system's train job lacks $need"; exit 1; }
done
echo "docs/cluster.md example: its 4-rank training job is planned with the SLURM profile"
# docs/multitask.md: the two pairs, and one system on the multi-task pair (the page defines pairs
# only): its data must come from the multi-task rules and the parse of the other pair
blocks docs/multitask.md "$T/multitask.yaml"
cat >> "$T/multitask.yaml" <<'YAML'
systems:
  multitask_check: {pair: my_de_en_ch, model: {arch: transformer_tiny}, train: {max_steps: 1}, decode: {beam: 1}}
YAML
"$VENV/bin/snakemake" --nolock -n "$T/results5/systems/multitask_check/summary.json" --quiet rules \
  --configfile pipeline/config/config.yaml "$T/multitask.yaml" --config work_dir="$T/work5" results_dir="$T/results5" > "$T/dry5.txt" 2>&1 \
  || { tail -20 "$T/dry5.txt"; echo "the multitask.md example does not dry-run"; exit 1; }
for rule in multitask_parse_train multitask_tag_split parse_corpus train; do
  grep -qE "^$rule +[0-9]+" "$T/dry5.txt" || { cat "$T/dry5.txt"; echo "the multitask.md dry run plans no '$rule' job"; exit 1; }
done
echo "docs/multitask.md example: the multi-task pair's system plans multitask_parse_train, multitask_tag_split, parse_corpus and train"
