# Helpers of data.smk (Snakemake's linter wants rules and functions in separate files).


def untokenised_text(pair, split, side):
    """The raw text of one side of a split, language-filtered first for training when the pair
    asks for it: what the tokeniser reads, and what SentencePiece reads (it segments untokenised
    text; length cleaning is a tokeniser-level step and does not apply to it)."""
    if split == "train" and PAIR[pair].filter_order == "filter_first":
        return f"{WORK}/{pair}/langid/train.{side}"
    return f"{WORK}/{pair}/raw/{split}.{side}"


def tokenize_input(w):
    return untokenised_text(w.pair, w.split, w.side)


def tokenizer_flags(pair, side):
    spec = PAIRS[pair]
    flags = f"-l {spec[side]}"
    if spec.get("normalize_punctuation", False):
        flags += " --normalize-punctuation"
    return flags


def tokenised_text(pair, split, side):
    """The tokenised text of a split: cleaned for training, only tokenised for valid/test. BPE
    segments it, word-level pairs binarise it as is, and the parser parses it, so a parse cache's
    words are exactly the words the sub-word marks delimit."""
    if split == "train" and PAIR[pair].filter_order == "clean_first":
        return f"{WORK}/{pair}/filtered/train.{side}"
    stage = "clean" if split == "train" else "tok"
    return f"{WORK}/{pair}/{stage}/{split}.{side}"


def bpe_codes(pair, lang):
    if PAIRS[pair]["bpe"]["mode"] == "joint":
        return f"{WORK}/{pair}/bpe/codes.joint"
    return f"{WORK}/{pair}/bpe/codes.{lang}"


def bpe_input(w):
    return tokenised_text(w.pair, w.split, w.side)


def spm_input(w):
    return untokenised_text(w.pair, w.split, w.side)


def subword_text(pair, split, side):
    """The text one side of one split is binarised from: BPE or SentencePiece output, or the
    tokenised text itself for a word-level pair."""
    kind = PAIR[pair].subwords
    if kind == "none":
        return tokenised_text(pair, split, side)
    return f"{WORK}/{pair}/{kind}/{split}.{side}"


def vocab_path(pair, side):
    """The dictionary a side is binarised with: a joint one for both sides, or one per side."""
    if PAIRS[pair]["vocab"].get("joint", False):
        return f"{WORK}/{pair}/vocab.joint"
    return f"{WORK}/{pair}/vocab.{side}"


def binarize_inputs(w):
    """A split's texts and vocabularies; with parse.src also its parse cache, the text the cache was
    made from (its key) and the pair's inventories, made from the training split's cache."""
    inputs = {
        "src": subword_text(w.pair, w.split, "src"),
        "tgt": subword_text(w.pair, w.split, "tgt"),
        "src_vocab": vocab_path(w.pair, "src"),
        "tgt_vocab": vocab_path(w.pair, "tgt"),
    }
    if PAIR[w.pair].has_source_syntax:
        inputs["src_parse"] = parse_cache(w.pair, w.split, "src")
        inputs["src_parse_corpus"] = tokenised_text(w.pair, w.split, "src")
        inputs["src_labels"] = syntax_inventory(w.pair, "labels")
        inputs["src_upos"] = syntax_inventory(w.pair, "upos")
    return inputs


def binarize_syntax_flags(input):
    if "src_parse" not in input.keys():
        return ""
    return (
        f" --src-parse {input.src_parse} --src-parse-corpus {input.src_parse_corpus}"
        f" --src-labels {input.src_labels} --src-upos {input.src_upos}"
    )
