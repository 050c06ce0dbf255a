"""experiment.seed_matched and runs_of on hand-made runs: equal groups are compared whole, a one-run
row is tested against the run of its seed in the other group (either side), a seed the other group
does not train and two groups of different sizes above one are refused. Prints 'N passed, N failed'."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipeline", "scripts"))
from experiment import ConfigError, runs_of, seed_matched  # noqa: E402

RUNS = {
    "nmt.s1": {"system": "nmt", "pair": "p", "seed": 1},
    "nmt.s2": {"system": "nmt", "pair": "p", "seed": 2},
    "nmt.s3": {"system": "nmt", "pair": "p", "seed": 3},
    "sa.s1": {"system": "sa", "pair": "p", "seed": 1},
    "sa.s2": {"system": "sa", "pair": "p", "seed": 2},
    "sa.s3": {"system": "sa", "pair": "p", "seed": 3},
    "hard": {"system": "hard", "pair": "p", "seed": 1},
    "other": {"system": "other", "pair": "p", "seed": 7},
    "two.s1": {"system": "two", "pair": "p", "seed": 1},
    "two.s2": {"system": "two", "pair": "p", "seed": 2},
}


def groups(system, other):
    return seed_matched(RUNS, system, runs_of(RUNS, system, "p"), other, runs_of(RUNS, other, "p"), "test")


def refused(system, other):
    try:
        groups(system, other)
    except ConfigError:
        return True
    return False


checks = [
    ("equal groups compared whole", groups("sa", "nmt") == ("sa", "nmt")),
    ("one run against the group's run of its seed", groups("hard", "nmt") == ("hard", "nmt@s1")),
    ("a group against a one-run baseline: its run of that seed", groups("nmt", "hard") == ("nmt@s1", "hard")),
    ("runs_of of a restricted group is that one run", runs_of(RUNS, "nmt@s2", "p") == ["nmt.s2"]),
    ("runs_of of a whole group, in seed order", runs_of(RUNS, "nmt", "p") == ["nmt.s1", "nmt.s2", "nmt.s3"]),
    ("a seed the group does not train is refused", refused("other", "nmt")),
    ("groups of 2 and 3 runs are refused", refused("two", "nmt")),
]
failed = [name for name, ok in checks if not ok]
for name in failed:
    print(f"FAILED: {name}")
print(f"{len(checks) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
