# Figures (matplotlib, PNG + SVG) and the experiment's one-page report (results/report/), all
# rebuilt byte-identically from the same results.

include: "helpers/report.smk"


rule curves_figure:
    """Training and validation curves of each row's first run, from the trainer's metrics.jsonl."""
    input:
        lambda w: [f"{RESULTS}/systems/{r}/summary.json" for _, r in trained_row_runs(w.table, TABLES[w.table]["columns"][0]["pair"])],
    output:
        png=f"{RESULTS}/figures/curves/{{table}}.png",
        svg=f"{RESULTS}/figures/curves/{{table}}.svg",
    params:
        py=PYTHON,
        prefix=lambda w, output: output[0][: -len('.png')],
        metrics=lambda w: " ".join(f"'{label}={RESULTS}/systems/{r}/metrics.jsonl'"
                                   for label, r in trained_row_runs(w.table, TABLES[w.table]["columns"][0]["pair"])),
        title=lambda w: shlex.quote(TABLES[w.table]["title"]),  # titles hold apostrophes
    log:
        f"{WORK}/logs/figures/curves.{{table}}.log",
    benchmark:
        f"{WORK}/logs/figures/curves.{{table}}.benchmark.tsv",
    shell:
        "{params.py} pipeline/scripts/plots/curves.py --metrics {params.metrics} --out {params.prefix}"
        " --title {params.title} 2> {log}"


rule length_figure:
    """BLEU by source length on the table's first scored test set, one bar per row (first run)."""
    input:
        src=lambda w: f"{WORK}/{table_first_metric_column(w.table)['pair']}/raw/{table_first_metric_column(w.table)['test']}.src",
        ref=lambda w: f"{WORK}/{table_first_metric_column(w.table)['pair']}/raw/{table_first_metric_column(w.table)['test']}.tgt",
        hyps=lambda w: [f"{RESULTS}/systems/{r}/hyp.{table_first_metric_column(w.table)['test']}.txt"
                        for _, r in table_row_runs(w.table, table_first_metric_column(w.table)["pair"])],
    output:
        png=f"{RESULTS}/figures/length/{{table}}.png",
        svg=f"{RESULTS}/figures/length/{{table}}.svg",
        csv=f"{RESULTS}/figures/length/{{table}}.csv",
    params:
        py=PYTHON,
        bin=BIN,
        prefix=lambda w, output: output[0][: -len('.png')],
        hyps=lambda w, input: " ".join(f"'{label}={h}'" for (label, _), h in
                                       zip(table_row_runs(w.table, table_first_metric_column(w.table)["pair"]), input.hyps)),
        flags=lambda w: score_flags(table_first_metric_column(w.table)["pair"], "bleu"),
    log:
        f"{WORK}/logs/figures/length.{{table}}.log",
    benchmark:
        f"{WORK}/logs/figures/length.{{table}}.benchmark.tsv",
    shell:
        "{params.py} pipeline/scripts/plots/length_buckets.py --src {input.src} --ref {input.ref} --hyp {params.hyps}"
        " --score-bin {params.bin}/synmt-score --out {params.prefix} --csv {output.csv} 2> {log}"


rule analysis_dump:
    """Named analysis tensors of a run on a binarised split, teacher-forced on the gold targets."""
    input:
        trained=f"{RESULTS}/systems/{{system}}/best.pt",
        data=lambda w: f"{WORK}/{SYSTEMS[w.system]['pair']}/data/{w.split}.h5",
        src_vocab=lambda w: vocab_path(SYSTEMS[w.system]["pair"], "src"),
        tgt_vocab=lambda w: vocab_path(SYSTEMS[w.system]["pair"], "tgt"),
    output:
        f"{RESULTS}/analysis/{{system}}/{{split}}.{{tensors}}.h5",
    threads: config["threads"]
    params:
        bin=BIN,
    log:
        f"{RESULTS}/analysis/{{system}}/{{split}}.{{tensors}}.log",
    benchmark:
        f"{RESULTS}/analysis/{{system}}/{{split}}.{{tensors}}.benchmark.tsv",
    shell:
        "{params.bin}/synmt-translate -m {input.trained} --src-vocab {input.src_vocab} --tgt-vocab {input.tgt_vocab}"
        " --data {input.data} --teacher-forced --dump {wildcards.tensors} --dump-file {output} --threads {threads} 2> {log}"


rule heatmap_figure:
    input:
        dump=lambda w: f"{RESULTS}/analysis/{heatmap_spec(w.name)['run']}/{heatmap_spec(w.name).get('split', 'valid')}.{heatmap_spec(w.name)['tensor']}.h5",
        data=lambda w: f"{WORK}/{SYSTEMS[heatmap_spec(w.name)['run']]['pair']}/data/{heatmap_spec(w.name).get('split', 'valid')}.h5",
        src_vocab=lambda w: vocab_path(SYSTEMS[heatmap_spec(w.name)["run"]]["pair"], "src"),
        tgt_vocab=lambda w: vocab_path(SYSTEMS[heatmap_spec(w.name)["run"]]["pair"], "tgt"),
    output:
        png=f"{RESULTS}/figures/heatmap/{{name}}.png",
        svg=f"{RESULTS}/figures/heatmap/{{name}}.svg",
    params:
        py=PYTHON,
        prefix=lambda w, output: output[0][: -len('.png')],
        h=lambda w: heatmap_spec(w.name),
        sentences=lambda w: ",".join(str(s) for s in heatmap_spec(w.name).get("sentences", [0])),
        head=lambda w: f"--head {heatmap_spec(w.name)['head']}" if "head" in heatmap_spec(w.name) else "",
    log:
        f"{WORK}/logs/figures/heatmap.{{name}}.log",
    benchmark:
        f"{WORK}/logs/figures/heatmap.{{name}}.benchmark.tsv",
    shell:
        "{params.py} pipeline/scripts/plots/heatmap.py --dump {input.dump} --tensor {params.h[tensor]} --sentences {params.sentences}"
        " {params.head} --data {input.data} --src-vocab {input.src_vocab} --tgt-vocab {input.tgt_vocab}"
        " --out {params.prefix} 2> {log}"


rule report_meta:
    """Date range, commits, hardware and scale of the experiment's runs (for the report header)."""
    input:
        provenance=lambda w: [f"{RESULTS}/systems/{r}/provenance.json" for r in experiment_runs()],
        summaries=lambda w: [f"{RESULTS}/systems/{r}/summary.json" for r in experiment_runs()],
    output:
        f"{RESULTS}/report/meta.json",
    params:
        scale=config["experiment"]["scale"],
        name=config["experiment"]["name"],
    log:
        f"{WORK}/logs/report/meta.log",
    benchmark:
        f"{WORK}/logs/report/meta.benchmark.tsv",
    script:
        "../scripts/report_meta.py"


rule report:
    input:
        tables=[f"{RESULTS}/tables/{t}.md" for t in config["experiment"]["tables"]],
        figures=[f for _, f, _ in report_figures()],
        meta=f"{RESULTS}/report/meta.json",
    output:
        md=f"{RESULTS}/report/index.md",
        html=f"{RESULTS}/report/index.html",
    params:
        py=PYTHON,
        title=shlex.quote(f"{config['experiment']['name']}: {config['experiment'].get('description', '')}"),
        tables=lambda w, input: " ".join(f"'{os.path.basename(t)[:-3]}={t}'" for t in input.tables),
        figures=" ".join(f"'{c}={f}" + (f"::{ref}'" if ref else "'") for c, f, ref in report_figures()),
    log:
        f"{WORK}/logs/report/report.log",
    benchmark:
        f"{WORK}/logs/report/report.benchmark.tsv",
    shell:
        "{params.py} pipeline/scripts/make_report.py --title {params.title} --table {params.tables} --figure {params.figures}"
        " --meta {input.meta} --out-dir $(dirname {output.md}) 2> {log}"
