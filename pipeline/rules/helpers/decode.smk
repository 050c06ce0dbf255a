# Helpers of decode.smk (Snakemake's linter wants rules and functions in separate files).


def decode_source(pair, split):
    """What synmt-translate reads: the binarised split (with its source features) for a pair with
    parse.src, the sub-word text otherwise."""
    if PAIR[pair].has_source_syntax:
        return f"{WORK}/{pair}/data/{split}.h5"
    return subword_text(pair, split, "src")


def decode_checkpoints(system):
    """The checkpoint files a run decodes with: its own best.pt or averaged.pt (decode.checkpoint;
    the trainer writes averaged.pt beside best.pt when train.average_last > 0), or each member's
    for an ensemble (`ensemble: [runs]`; log-probabilities averaged)."""
    run = SYSTEMS[system]
    members = run.get("ensemble", [system])
    # a decode-only system's own `checkpoint` names its members' files, so one run can be decoded
    # from best.pt and, as a second system, from its averaged.pt without being trained twice
    which = run["decode"].get("checkpoint", "best")
    return [f"{RESULTS}/systems/{m}/{which}.pt" for m in members]


def decode_extra_flags(system, input):
    """synmt-translate flags of the optional decoding steps: the length prior, UnkRep, model option
    overrides (a value as JSON unless a string, which synmt-translate reads as such)."""
    d = SYSTEMS[system]["decode"]
    flags = ""
    if d.get("length_prior"):
        flags += f" --length-prior {input.length_prior}"
    if d.get("unk_replace"):
        flags += " --unk-replace"
    for key, value in sorted(d.get("model_options", {}).items()):
        text = value if isinstance(value, str) else json.dumps(value)
        flags += f" --model-option {shlex.quote(f'{key}={text}')}"
    return flags


def length_prior_path(pair):
    return f"{WORK}/{pair}/length_prior.json"


def postprocess_inputs(w):
    pair = SYSTEMS[w.system]["pair"]
    inputs = {"sub": f"{RESULTS}/systems/{w.system}/hyp.{w.split}.sub"}
    if PAIR[pair].subwords == "spm":
        inputs["model"] = f"{WORK}/{pair}/spm/model.model"
    return inputs


def postprocess_command(w, input, output):
    pair = PAIR[SYSTEMS[w.system]["pair"]]
    if pair.subwords == "spm":
        return f"{BIN}/synmt-spm decode -m {input.model} -i {input.sub} -o {output}"
    # word-level output has no BPE joins to undo (a token may end in "@@" legitimately)
    join = f"cat {input.sub}" if pair.subwords == "none" else f"sed -E 's/(@@ )|(@@ ?$)//g' {input.sub}"
    if pair.spec["tokenizer"] == "none":
        return f"{join} > {output}"
    return f"{join} | {BIN}/synmt-tok --detok -l {pair.tgt} -o {output}"
