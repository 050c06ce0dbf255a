# Decoding: beam search on a split (sub-word output), then post-processing to plain text: BPE
# joined and Moses-detokenised, or SentencePiece-decoded, or left tokenised for corpora that come
# tokenised (tokenizer: none), whose references are tokenised the same way.

include: "helpers/decode.smk"


rule translate:
    input:
        # training declares best.pt; averaged.pt is written by the same job
        trained=lambda w: [f"{RESULTS}/systems/{m}/best.pt" for m in SYSTEMS[w.system].get("ensemble", [w.system])],
        # a pair with parse.src decodes its binarised split: the source features (parents, labels,
        # POS) the syntax models read travel with it; other pairs decode the sub-word text
        src=lambda w: decode_source(SYSTEMS[w.system]["pair"], w.split),
        src_vocab=lambda w: vocab_path(SYSTEMS[w.system]["pair"], "src"),
        tgt_vocab=lambda w: vocab_path(SYSTEMS[w.system]["pair"], "tgt"),
        length_prior=lambda w: [length_prior_path(SYSTEMS[w.system]["pair"])] if SYSTEMS[w.system]["decode"].get("length_prior") else [],
    output:
        f"{RESULTS}/systems/{{system}}/hyp.{{split}}.sub",
    params:
        bin=BIN,
        d=lambda w: SYSTEMS[w.system]["decode"],
        models=lambda w: " ".join(f"-m {c}" for c in decode_checkpoints(w.system)),
        src_flag=lambda w: "--data" if PAIR[SYSTEMS[w.system]["pair"]].has_source_syntax else "-i",
        extra=lambda w, input: decode_extra_flags(w.system, input),
    threads: config["threads"]
    resources:
        gpu=lambda w: 1 if SYSTEMS[w.system]["decode"].get("device", "cpu") != "cpu" else 0,
    log:
        f"{RESULTS}/systems/{{system}}/translate.{{split}}.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/translate.{{split}}.benchmark.tsv"
    shell:
        "{params.bin}/synmt-translate {params.models} --src-vocab {input.src_vocab} --tgt-vocab {input.tgt_vocab}"
        " {params.src_flag} {input.src} -o {output} --raw"
        " -k {params.d[beam]} --length-penalty {params.d[length_penalty]} --max-len-a {params.d[max_len_a]}"
        " --max-len-b {params.d[max_len_b]} --batch-size {params.d[batch_size]} --threads {threads}"
        " --length-norm {params.d[length_norm]} --device {params.d[device]}{params.extra} 2> {log}"


rule postprocess:
    input:
        unpack(postprocess_inputs),
    output:
        f"{RESULTS}/systems/{{system}}/hyp.{{split}}.txt",
    params:
        command=lambda w, input, output: postprocess_command(w, input, output),
    log:
        f"{RESULTS}/systems/{{system}}/postprocess.{{split}}.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/postprocess.{{split}}.benchmark.tsv"
    shell:
        "({params.command}) 2> {log}"


rule length_prior:
    """p(target length | source length) on the pair's training text as it is translated (words,
    or sub-words): LGP-NMT's beam search adds its log to each finished hypothesis."""
    input:
        src=lambda w: subword_text(w.pair, "train", "src"),
        tgt=lambda w: subword_text(w.pair, "train", "tgt"),
    output:
        f"{WORK}/{{pair}}/length_prior.json",
    params:
        bin=BIN,
    log:
        f"{WORK}/logs/length_prior/{{pair}}.log",
    benchmark:
        f"{WORK}/logs/length_prior/{{pair}}.benchmark.tsv",
    shell:
        "{params.bin}/synmt-length-prior --src {input.src} --tgt {input.tgt} -o {output} 2> {log}"
