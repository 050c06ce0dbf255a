# synmt: the experiment DAG. Stages are C++ executables (build/bin); this file only wires them.
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "pipeline/config/config.yaml"


validate(config, "pipeline/schemas/config.schema.yaml")


include: "pipeline/rules/common.smk"
include: "pipeline/rules/data.smk"
include: "pipeline/rules/parse.smk"
include: "pipeline/rules/train.smk"
include: "pipeline/rules/decode.smk"
include: "pipeline/rules/eval.smk"
include: "pipeline/rules/tables.smk"


rule all:
    input:
        expand(f"{RESULTS}/tables/{{table}}.md", table=list(config["tables"])),
        [f"{RESULTS}/tables/langid_filter.md"] if LANGID_SETS else [],
    default_target: True
