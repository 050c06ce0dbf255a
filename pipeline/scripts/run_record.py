"""What a run's training summary (results/systems/RUN/summary.json) says of the code and machines
that trained it. Summaries written since the trainer records its build list one session per build
and machine that trained the run ("sessions": commit, hardware, from_step, ranks), so a run resumed
on a lent GPU or by a newer build names each. Older summaries name only the hardware of the last
session and no build: the commit of the checkout that recorded the run's provenance.json (the
provenance rule, when it last ran: at the run's end, or later where Snakemake ran it again)
stands in."""


def hardware(summary):
    """The hardware of every session that trained the run, in training order, each once."""
    kinds = [s["hardware"] for s in summary.get("sessions") or []] or [summary["hardware"]]
    return list(dict.fromkeys(kinds))


# stands for the builds of a run resumed from a state saved before sessions were recorded
UNRECORDED = "(earlier builds unrecorded)"


def commits(summary, provenance):
    """The commits of the builds that trained the run, in training order, each once; for a summary
    without sessions, the provenance record's commit. A run whose first recorded session starts past
    update 0 was begun by builds that did not record themselves: UNRECORDED says so."""
    sessions = summary.get("sessions") or []
    built = list(dict.fromkeys(s["commit"] for s in sessions))
    if not built:
        return [provenance["commit"]]
    return ([UNRECORDED] if sessions[0]["from_step"] > 0 else []) + built
