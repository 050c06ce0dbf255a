# Scoring: one JSON per table cell value (run x split x metric), and the paired bootstrap of one
# seed group against another on the concatenation of their runs' hypotheses.

include: "helpers/eval.smk"


rule tokenised_hypotheses:
    """Hypotheses with sub-words joined but not detokenised: what SA-NMT scored with multi-bleu.perl.
    SentencePiece output has no tokenised form of its own, so its decoded text is tokenised."""
    input:
        sub=f"{RESULTS}/systems/{{system}}/hyp.{{split}}.sub",
        txt=f"{RESULTS}/systems/{{system}}/hyp.{{split}}.txt",
    output:
        f"{RESULTS}/systems/{{system}}/hyp.{{split}}.tok",
    params:
        command=lambda w, input, output: {
            "bpe": f"sed -E 's/(@@ )|(@@ ?$)//g' {input.sub} > {output}",
            "none": f"cp {input.sub} {output}",
            "spm": f"{BIN}/synmt-tok -l {pair_of(w.system)['tgt']} -i {input.txt} -o {output}",
        }[PAIR[SYSTEMS[w.system]["pair"]].subwords],
    log:
        f"{RESULTS}/systems/{{system}}/tokenised_hypotheses.{{split}}.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/tokenised_hypotheses.{{split}}.benchmark.tsv"
    shell:
        "({params.command}) 2> {log}"


rule score:
    input:
        hyp=lambda w: hyp_file(w.system, w.split, w.metric),
        ref=lambda w: ref_file(SYSTEMS[w.system]["pair"], w.split, w.metric),
    output:
        f"{RESULTS}/systems/{{system}}/{{metric}}.{{split}}.json",
    params:
        bin=BIN,
        command=lambda w: score_command(w.metric),
        flags=lambda w: score_flags(SYSTEMS[w.system]["pair"], w.metric),
    wildcard_constraints:
        metric="bleu|chrf|ribes|bleu_tok",
    log:
        f"{RESULTS}/systems/{{system}}/{{metric}}.{{split}}.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/{{metric}}.{{split}}.benchmark.tsv"
    shell:
        "{params.bin}/synmt-score {params.command} -r {input.ref} --format json {params.flags} {input.hyp}"
        " > {output} 2> {log}"


rule group_hypotheses:
    """A seed group's hypotheses: its runs' outputs concatenated in seed order (one run: a copy)."""
    input:
        lambda w: [f"{RESULTS}/systems/{r}/hyp.{w.split}.{w.ext}" for r in group_runs(w)],
    output:
        f"{RESULTS}/groups/{{group}}/{{pair}}/hyp.{{split}}.{{ext}}",
    wildcard_constraints:
        group=_group_names(),
        ext="txt|tok",
    log:
        f"{WORK}/logs/groups/{{group}}.{{pair}}.{{split}}.{{ext}}.log",
    benchmark:
        f"{WORK}/logs/groups/{{group}}.{{pair}}.{{split}}.{{ext}}.benchmark.tsv",
    shell:
        "cat {input} > {output} 2> {log}"


rule group_references:
    """The reference repeated once per run of a group, matching group_hypotheses."""
    input:
        lambda w: ref_file(w.pair, w.split, "bleu_tok" if w.ext == "tok" else "bleu"),
    output:
        f"{RESULTS}/groups/references/{{pair}}/{{split}}.x{{n}}.{{ext}}",
    wildcard_constraints:
        ext="txt|tok",
        n="[0-9]+",
    log:
        f"{WORK}/logs/groups/references.{{pair}}.{{split}}.x{{n}}.{{ext}}.log",
    benchmark:
        f"{WORK}/logs/groups/references.{{pair}}.{{split}}.x{{n}}.{{ext}}.benchmark.tsv",
    shell:
        "(for i in $(seq 1 {wildcards.n}); do cat {input}; done > {output}) 2> {log}"


rule significance:
    """Paired bootstrap (sacreBLEU's --paired-bs) of one group against a baseline group; a group
    against itself gives its bootstrap mean and 95% interval. Samples and seed are the config's
    `bootstrap` block, printed in every table header, so `synmt-score paired-bs` reproduces it."""
    input:
        unpack(_significance_inputs),
    output:
        f"{RESULTS}/significance/{{pair}}/{{split}}/{{metric}}/{{baseline}}--{{system}}.json",
    params:
        bin=BIN,
        command=lambda w: score_command(w.metric),
        flags=lambda w: score_flags(w.pair, w.metric, paired=True),
        samples=config["bootstrap"]["samples"],
        seed=config["bootstrap"]["seed"],
        # a seed group's runs are resampled by test sentence (every run's line of a drawn sentence)
        runs=lambda w: len(experiment.runs_of(SYSTEMS, w.system, w.pair)),
    threads: config["threads"]
    wildcard_constraints:
        metric="bleu|chrf|ribes|bleu_tok",
        baseline=_group_names(),
        system=_group_names(),
    log:
        f"{WORK}/logs/significance/{{pair}}.{{split}}.{{metric}}.{{baseline}}--{{system}}.log",
    benchmark:
        f"{WORK}/benchmarks/significance/{{pair}}.{{split}}.{{metric}}.{{baseline}}--{{system}}.tsv"
    shell:
        "{params.bin}/synmt-score paired-bs -r {input.ref} --metric {params.command} {params.flags} --samples {params.samples}"
        " --seed {params.seed} --runs {params.runs} --threads {threads} --format json --baseline {input.baseline} {input.system}"
        " > {output} 2> {log}"
