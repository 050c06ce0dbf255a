# Training: one run directory per system. The JSON config is written from the system's
# config section; synmt-train rejects keys it does not know. --resume: a job requeued after
# preemption (SIGTERM -> state.pt, exit 143) continues where it stopped.


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
        launch=lambda w: train_launcher(w.system),
        rank_threads=lambda w, threads: max(1, threads // SYSTEMS[w.system].get("ranks", 1)),
    threads: config["threads"]
    resources:
        runtime=24 * 60,
        tasks=lambda w: SYSTEMS[w.system].get("ranks", 1),
        # one GPU per rank when train.device is cuda (the SLURM executor turns this into --gpus)
        gpu=lambda w: SYSTEMS[w.system].get("ranks", 1) if train_uses_gpu(w.system) else 0,
    log:
        f"{RESULTS}/systems/{{system}}/train.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/train.benchmark.tsv"
    shell:
        "{params.launch}{params.bin}/synmt-train -c {input.config} --set train.threads={params.rank_threads} --train {input.train} --valid {input.valid} --resume"
        " --src-vocab {input.src_vocab} --tgt-vocab {input.tgt_vocab} -o {params.out_dir} 2> {log}"
