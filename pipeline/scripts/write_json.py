"""Write snakemake.params.content as JSON to snakemake.output[0] (atomically)."""
import json
import os

out = snakemake.output[0]  # noqa: F821 (injected by Snakemake)
tmp = f"{out}.tmp.{os.getpid()}"
with open(tmp, "w") as f:
    json.dump(snakemake.params.content, f, indent=2, sort_keys=True)  # noqa: F821
    f.write("\n")
os.replace(tmp, out)
