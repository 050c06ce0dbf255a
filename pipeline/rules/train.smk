# Training: one run directory per system. The JSON config is written from the system's
# config section; synmt-train rejects keys it does not know. --resume: a job requeued after
# preemption (SIGTERM -> state.pt, exit 143) continues where it stopped.
#
# Resources are plain and cluster-neutral: tasks = ranks, cpus_per_task = threads per rank,
# mem_mb, runtime (minutes), gpu; a multi-rank job also carries `mpi` (it starts its own ranks).
# Per-system values come from systems.<name>.resources; a profile maps all of them to its
# scheduler (cluster/slurm/config.yaml for SLURM, docs/cluster.md). Helpers: below.

include: "helpers/train.smk"


rule train_config:
    output:
        f"{RESULTS}/systems/{{system}}/train_config.json",
    params:
        content=lambda w: train_config_content(w.system),
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
        pretrained_parser=lambda w: [p for p in [pretrained_parser_path(w.system)] if p],
        extended=lambda w: extended_inputs(w.system),
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


rule pretrain_lgp_parser:
    """LGP-NMT+ (Hashimoto & Tsuruoka 2017, §4.3): the lgp model's parser and tagger trained on the
    first K sentences of a builtin parser's treebank (pretrain_parser: {parser, sentences, epochs}),
    over the pair's source vocabulary and with the model's parser sizes, so that synmt-train can
    load it into the model before NMT training."""
    input:
        config=f"{RESULTS}/systems/{{system}}/train_config.json",
        src_vocab=lambda w: vocab_path(SYSTEMS[w.system]["pair"], "src"),
        train=lambda w: sorted({treebank_file(t) for t in as_list(PARSERS[SYSTEMS[w.system]["pretrain_parser"]["parser"]]["train"])}),
        dev=lambda w: treebank_file(PARSERS[SYSTEMS[w.system]["pretrain_parser"]["parser"]]["dev"]),
    output:
        f"{RESULTS}/systems/{{system}}/pretrained_parser/parser.pt",
    params:
        bin=BIN,
        out_dir=lambda w: f"{RESULTS}/systems/{w.system}/pretrained_parser",
        flags=lambda w: pretrain_parser_flags(w.system),
    threads: config["threads"]
    log:
        f"{RESULTS}/systems/{{system}}/pretrained_parser/train.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/pretrained_parser/train.benchmark.tsv"
    shell:
        "{params.bin}/synmt-parser-train {params.flags} --nmt-vocab {input.src_vocab} --lgp-config {input.config}"
        " -o {params.out_dir} --threads {threads} 2> {log}"
