# synmt: the experiment DAG. Stages are C++ executables (build/bin); this file only wires them.
# The default target builds the tables of `experiment` (pipeline/config/config.yaml: the demo;
# --configfile pipeline/config/experiments/<paper>.<scale>.yaml: a paper's tables at a scale).
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "pipeline/config/config.yaml"


validate(config, "pipeline/schemas/config.schema.yaml")


include: "pipeline/rules/common.smk"
include: "pipeline/rules/fetch.smk"
include: "pipeline/rules/data.smk"
include: "pipeline/rules/parse.smk"
include: "pipeline/rules/multitask.smk"
include: "pipeline/rules/train.smk"
include: "pipeline/rules/decode.smk"
include: "pipeline/rules/eval.smk"
include: "pipeline/rules/tables.smk"
include: "pipeline/rules/report.smk"
include: "pipeline/rules/trees.smk"


# Rules that run where Snakemake itself runs (the login host) with a cluster profile, instead of
# as SLURM jobs of their own: each only reads the data mirror or the network, writes a small
# config or record, concatenates files, or scores and post-processes one set of hypotheses in
# seconds. As SLURM jobs, each one waited for a submission and the executor's status checks
# (12-24 s per step on the CI cluster, docs/cluster.md) for a second of work. Anything that trains,
# translates, parses, learns or applies subwords, binarises or bootstraps stays a SLURM job.
localrules:
    all,
    fetch_split,
    fetch_pool,
    fetch_langid_set,
    fetch_treebank,
    gold_treebank_head,
    train_config,
    provenance,
    group_references,
    group_hypotheses,
    group_trees,
    group_gold_trees,
    postprocess,
    tokenised_hypotheses,
    score,
    data_counts,
    table,
    langid_table,
    parser_table,
    report_meta,
    report,


rule all:
    input:
        expand(f"{RESULTS}/tables/{{table}}.md", table=config["experiment"]["tables"]),
        f"{RESULTS}/report/index.md",
    default_target: True
