# Helpers of train.smk (Snakemake's linter wants rules and functions in separate files).


def system_ranks(system):
    return SYSTEMS[system].get("ranks", 1)


def train_uses_gpu(system):
    """Whether the system trains on CUDA (train.device cuda or cuda:N)."""
    return str(SYSTEMS[system].get("train", {}).get("device", "cpu")).startswith("cuda")


def train_resource(system, key):
    """systems.<name>.resources.<key>, else its default (gpus_per_rank: 1 when the system trains on CUDA)."""
    defaults = {
        "mem_mb_per_rank": 4000,
        "runtime_min": 24 * 60,
        "gpus_per_rank": 1 if train_uses_gpu(system) else 0,
    }
    return SYSTEMS[system].get("resources", {}).get(key, defaults[key])


def rank_threads(system, threads):
    """LibTorch threads of each rank: the job's threads shared by its ranks."""
    return max(1, threads // system_ranks(system))


def train_launcher(system, resources, threads):
    """The command that starts the trainer's ranks, '-n N' appended. A cluster profile sets the
    `mpi_launcher` resource (cluster/slurm: srun ...): then every training job, one rank included,
    starts through it, so that each rank is a task of the scheduler and gets its signals
    (preemption, time limit); "{cpus_per_task}" in it becomes the rank's CPU count. Without one:
    nothing for one rank, else the config's mpi_launcher (default mpirun --oversubscribe). A
    resource, not a config key: a user's own `--config k=v` replaces a profile's whole `config:`
    list but leaves its resources alone. mpirun as root (containers, CI) needs explicit consent."""
    ranks = system_ranks(system)
    launcher = resources.get("mpi_launcher")
    if launcher:
        launcher = str(launcher).replace("{cpus_per_task}", str(rank_threads(system, threads)))
    elif ranks == 1:
        return ""
    else:
        launcher = config.get("mpi_launcher", "mpirun --oversubscribe")
    if launcher.split()[0].endswith("mpirun") and os.geteuid() == 0:
        launcher += " --allow-run-as-root"
    return f"{launcher} -n {ranks} "


def extended_inputs(system):
    """An extending run (systems.NAME.extends) waits for the run it extends to finish."""
    source = SYSTEMS[system].get("extended_run")
    return [f"{RESULTS}/systems/{source}/summary.json"] if source else []


def pretrained_parser_path(system):
    """LGP-NMT+'s pre-trained parser (systems.NAME.pretrain_parser), or None. The seeds of one
    system share it (pre-training does not depend on the translation seed): it lives in the run
    directory of the group's first run."""
    spec = SYSTEMS[system]
    if "pretrain_parser" not in spec:
        return None
    group = sorted(r for r, s in SYSTEMS.items() if s.get("system") == spec.get("system") and s.get("pair") == spec.get("pair"))
    owner = group[0] if group else system
    return f"{RESULTS}/systems/{owner}/pretrained_parser/parser.pt"


def pretrain_parser_flags(system):
    """synmt-parser-train flags of an LGP-NMT+ pre-training: the named parser's treebanks and train
    options, the first K sentences, E epochs, the parser after the last of them (keep last: no early
    stop), no wall-clock budget; the model sizes come from the lgp
    config (--lgp-config), never from the parser's model options."""
    spec = SYSTEMS[system]["pretrain_parser"]
    parser = PARSERS[spec["parser"]]
    if parser.get("backend") != "builtin":
        raise ValueError(f"systems.{system}.pretrain_parser: '{spec['parser']}' is not a builtin parser")
    flags = [f"--train {treebank(t)}" for t in as_list(parser["train"])] + [f"--dev {treebank(parser['dev'])}"]
    flags += [f"--test {treebank(t)}" for t in parser.get("test", [])]
    train = dict(parser.get("options", {}).get("train", {}))
    # the paper's "trained for 10 epochs in advance": the parser after E epochs, not the best one
    train.update({"max_sentences": spec.get("sentences", 0), "max_epochs": spec.get("epochs", 10), "keep": "last", "max_minutes": 0})
    flags += [f"--set train.{k}={json.dumps(v)}" for k, v in sorted(train.items())]
    if spec.get("fold_case", False):
        flags.append("--fold-case")
    return " ".join(flags)


def train_config_content(system):
    """synmt-train's config of a system: its model and train sections, the pre-trained parser
    file an LGP-NMT+ run starts from, and the run directory an extending run carries on."""
    model = json.loads(json.dumps(SYSTEMS[system]["model"]))
    parser = pretrained_parser_path(system)
    if parser:
        model.setdefault("options", {})["pretrained_parser"] = parser
    content = {"model": model, "train": SYSTEMS[system]["train"]}
    if SYSTEMS[system].get("extended_run"):  # synmt-train copies that run's training state in and carries it on
        content["extends"] = f"{RESULTS}/systems/{SYSTEMS[system]['extended_run']}"
    return content
