"""The report header's facts, from the runs' provenance and training summaries (never the clock)."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_record  # noqa: E402
from table_io import _replace  # noqa: E402


def main(sm):
    prov = [json.load(open(p)) for p in sm.input.provenance]
    summaries = [json.load(open(p)) for p in sm.input.summaries]  # the same runs as prov, in order
    hardware = sorted({kind for s in summaries for kind in run_record.hardware(s)})
    commits = sorted({c for s, p in zip(summaries, prov) for c in run_record.commits(s, p)})
    dates = sorted({p["date"] for p in prov})
    meta = {
        "experiment": sm.params.name,
        "scale": sm.params.scale,
        "date": (dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}") if dates else "n/a",
        "commit": ", ".join(commits) or "n/a",
        "hardware": "; ".join(hardware) or "n/a",
    }
    _replace(sm.output[0], lambda f: f.write(json.dumps(meta, indent=1, sort_keys=True) + "\n"))


main(snakemake)  # noqa: F821 (injected by Snakemake)
