# Training: one run directory per system. The JSON config is written from the system's
# config section; synmt-train rejects keys it does not know. --resume: a job requeued after
# preemption (SIGTERM -> state.pt, exit 143) continues where it stopped.
#
# Resources are plain and cluster-neutral: tasks = ranks, cpus_per_task = threads per rank,
# mem_mb, runtime (minutes), gpu; a multi-rank job also carries `mpi` (it starts its own ranks).
# Per-system values come from systems.<name>.resources; a profile maps all of them to its
# scheduler (cluster/slurm/config.yaml for SLURM, docs/cluster.md). Helpers: common.smk.


rule train_config:
    output:
        f"{RESULTS}/systems/{{system}}/train_config.json",
    params:
        content=lambda w: {"model": SYSTEMS[w.system]["model"], "train": SYSTEMS[w.system]["train"]},
    log:
        f"{WORK}/logs/train/{{system}}.config.log",
    benchmark:
        f"{WORK}/benchmarks/train/{{system}}.config.tsv"
    script:
        "../scripts/write_json.py"


rule train:
    input:
        config=f"{RESULTS}/systems/{{system}}/train_config.json",
        train=lambda w: f"{WORK}/{SYSTEMS[w.system]['pair']}/data/train.h5",
        valid=lambda w: f"{WORK}/{SYSTEMS[w.system]['pair']}/data/valid.h5",
        src_vocab=lambda w: vocab_path(SYSTEMS[w.system]["pair"], "src"),
        tgt_vocab=lambda w: vocab_path(SYSTEMS[w.system]["pair"], "tgt"),
    output:
        checkpoint=f"{RESULTS}/systems/{{system}}/best.pt",
        summary=f"{RESULTS}/systems/{{system}}/summary.json",
    params:
        bin=BIN,
        out_dir=lambda w: f"{RESULTS}/systems/{w.system}",
        launch=lambda w, resources, threads: train_launcher(w.system, resources, threads),
        rank_threads=lambda w, threads: rank_threads(w.system, threads),
    threads: config["threads"]
    resources:
        runtime=lambda w: train_resource(w.system, "runtime_min"),
        tasks=lambda w: system_ranks(w.system),
        cpus_per_task=lambda w, threads: rank_threads(w.system, threads),
        mem_mb=lambda w: system_ranks(w.system) * train_resource(w.system, "mem_mb_per_rank"),
        # GPUs of the whole job (the SLURM executor turns this into --gpus)
        gpu=lambda w: system_ranks(w.system) * train_resource(w.system, "gpus_per_rank"),
        # set (to the rank count) for a multi-rank job only: the SLURM executor then submits
        # --ntasks=<ranks> and leaves starting the ranks to the command; unset for one rank
        mpi=lambda w: system_ranks(w.system) if system_ranks(w.system) > 1 else None,
    log:
        f"{RESULTS}/systems/{{system}}/train.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/train.benchmark.tsv"
    shell:
        "{params.launch}{params.bin}/synmt-train -c {input.config} --set train.threads={params.rank_threads} --train {input.train} --valid {input.valid} --resume"
        " --src-vocab {input.src_vocab} --tgt-vocab {input.tgt_vocab} -o {params.out_dir} 2> {log}"
