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


rule all:
    input:
        expand(f"{RESULTS}/tables/{{table}}.md", table=config["experiment"]["tables"]),
        f"{RESULTS}/report/index.md",
    default_target: True
