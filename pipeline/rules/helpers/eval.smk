# Helpers of eval.smk (Snakemake's linter wants rules and functions in separate files).


def hyp_file(system, split, metric):
    """Detokenised hypotheses (scored like the references as they ship) or, for bleu_tok,
    tokenised ones scored against the tokenised references (multi-bleu.perl's setting)."""
    return f"{RESULTS}/systems/{system}/hyp.{split}.{'tok' if metric == 'bleu_tok' else 'txt'}"


def ref_file(pair, split, metric):
    if metric == "bleu_tok":
        return f"{WORK}/{pair}/tok/{split}.tgt"
    return f"{WORK}/{pair}/raw/{split}.tgt"


def score_flags(pair, metric, paired=False):
    """synmt-score flags of a metric on a pair: the pair's BLEU tokenisation (`bleu: {tokenize:
    13a | intl | none | ja-mecab | ...}`, default sacreBLEU's 13a); bleu_tok is tokenised BLEU as
    multi-bleu.perl computes it (SA-NMT), scored on tokenised hypotheses and references; RIBES's
    segmentation before its whitespace split (`ribes: {tokenize: ...}`, default none: as given).
    paired: the flags as paired-bs spells them (its -t is BLEU's)."""
    if metric == "bleu_tok":
        return "-t none -s none"  # what --multi-bleu implies; paired-bs takes the explicit form
    if metric == "bleu":
        tok = PAIRS[pair].get("bleu", {}).get("tokenize")
        return f"-t {tok}" if tok else ""
    if metric == "ribes":
        tok = PAIRS[pair].get("ribes", {}).get("tokenize")
        return f"{'--ribes-tokenize' if paired else '-t'} {tok}" if tok else ""
    return ""


def score_command(metric):
    """synmt-score's sub-command for a table metric."""
    return "bleu" if metric == "bleu_tok" else metric


def group_runs(w):
    return experiment.runs_of(SYSTEMS, w.group, w.pair)


def _significance_inputs(w):
    ext = "tok" if w.metric == "bleu_tok" else "txt"
    n = len(experiment.runs_of(SYSTEMS, w.system, w.pair))
    return {
        "baseline": experiment.group_hyp_file(RESULTS, w.baseline, w.pair, w.split, w.metric),
        "system": experiment.group_hyp_file(RESULTS, w.system, w.pair, w.split, w.metric),
        "ref": f"{RESULTS}/groups/references/{w.pair}/{w.split}.x{n}.{ext}",
    }
