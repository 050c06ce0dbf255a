# Decoding: beam search on a split, BPE removed and detokenised for the target language.


rule translate:
    input:
        checkpoint=f"{RESULTS}/systems/{{system}}/best.pt",
        src=lambda w: f"{WORK}/{SYSTEMS[w.system]['pair']}/bpe/{w.split}.src",
        src_vocab=lambda w: f"{WORK}/{SYSTEMS[w.system]['pair']}/vocab.src",
        tgt_vocab=lambda w: f"{WORK}/{SYSTEMS[w.system]['pair']}/vocab.tgt",
    output:
        hyp=f"{RESULTS}/systems/{{system}}/hyp.{{split}}.txt",
        tok=f"{RESULTS}/systems/{{system}}/hyp.{{split}}.tok",
    params:
        bin=BIN,
        d=lambda w: SYSTEMS[w.system]["decode"],
        lang=lambda w: pair_of(w.system)["tgt"],
    threads: config["threads"]
    log:
        f"{RESULTS}/systems/{{system}}/translate.{{split}}.log",
    benchmark:
        f"{RESULTS}/systems/{{system}}/translate.{{split}}.benchmark.tsv"
    shell:
        "{params.bin}/synmt-translate -m {input.checkpoint} --src-vocab {input.src_vocab} --tgt-vocab {input.tgt_vocab}"
        " -i {input.src} -o {output.hyp} --output-tok {output.tok} --detok-lang {params.lang}"
        " -k {params.d[beam]} --length-penalty {params.d[length_penalty]} --max-len-a {params.d[max_len_a]}"
        " --max-len-b {params.d[max_len_b]} --batch-size {params.d[batch_size]} --threads {threads} 2> {log}"
