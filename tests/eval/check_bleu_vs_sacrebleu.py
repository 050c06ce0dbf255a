"""synmt-score bleu against sacreBLEU on real system outputs (WMT22 De-En and En-De, one and two
references; En-Ja with MeCab).

For every system output: the output itself and a perturbed copy of it (words dropped / swapped /
case changed, seeded) are scored by both; scores must agree to 4 decimals and the counts exactly.
The zh tokeniser runs on perturbed Chinese source text: the data has no system output into Chinese.
Prints 'N passed, N failed'.
"""
import argparse
import gzip
import json
import random
import subprocess
import sys
import tempfile

import sacrebleu


def read(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def perturb(lines, seed):
    rng = random.Random(seed)
    out = []
    for line in lines:
        words = line.split(" ")
        if len(words) > 3 and rng.random() < 0.5:
            del words[rng.randrange(len(words))]
        if len(words) > 3 and rng.random() < 0.3:
            i = rng.randrange(len(words) - 1)
            words[i], words[i + 1] = words[i + 1], words[i]
        if rng.random() < 0.1:
            words = [w.upper() for w in words]
        out.append(" ".join(words))
    return out


def perturb_chars(lines, seed):
    """Deletes and swaps characters (for scripts without word spaces)."""
    rng = random.Random(seed)
    out = []
    for line in lines:
        chars = list(line)
        if len(chars) > 4 and rng.random() < 0.6:
            del chars[rng.randrange(len(chars))]
        if len(chars) > 4 and rng.random() < 0.4:
            i = rng.randrange(len(chars) - 1)
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        out.append("".join(chars))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--score", required=True)
    ap.add_argument("--data", required=True)
    args = ap.parse_args()
    d = args.data
    cases = [
        (f"{d}/eval/wmt22/generaltest2022.de-en.hyp.Online-B.en.gz", [f"{d}/eval/wmt22/generaltest2022.de-en.ref.A.en.gz"]),
        (f"{d}/eval/wmt22/generaltest2022.en-de.hyp.Online-W.de.gz", [f"{d}/eval/wmt22/generaltest2022.en-de.ref.A.de.gz"]),
        (f"{d}/eval/wmt22/generaltest2022.de-en.hyp.LT22.en.gz",
         [f"{d}/eval/wmt22/generaltest2022.de-en.ref.A.en.gz", f"{d}/eval/wmt22/generaltest2022.de-en.ref.B.en.gz"]),
        (f"{d}/eval/wmt22/generaltest2022.en-de.hyp.OpenNMT.de.gz", [f"{d}/eval/wmt22/generaltest2022.en-de.ref.A.de.gz"]),
        (f"{d}/eval/wmt22/generaltest2022.en-de.hyp.PROMT.de.gz",
         [f"{d}/eval/wmt22/generaltest2022.en-de.ref.A.de.gz", f"{d}/eval/wmt22/generaltest2022.en-de.ref.B.de.gz"]),
    ]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for ci, (hyp_path, ref_paths) in enumerate(cases):
            refs = [read(p) for p in ref_paths]
            hyp_real = read(hyp_path)
            if any(len(r) != len(hyp_real) for r in refs):
                print(f"MISMATCH {hyp_path}: line counts differ from its references")
                failed += 1
                continue
            for variant, hyp in (("real", hyp_real), ("perturbed", perturb(hyp_real, ci))):
                ref_files = []
                for k, r in enumerate(refs):
                    p = f"{tmp}/ref{ci}.{k}"
                    open(p, "w", encoding="utf-8").write("\n".join(r) + "\n")
                    ref_files.append(p)
                hp = f"{tmp}/hyp{ci}.{variant}"
                open(hp, "w", encoding="utf-8").write("\n".join(hyp) + "\n")
                for smooth in ("exp", "floor", "add-k", "none"):
                    for lc in (False, True):
                        cmd = [args.score, "bleu", "--format", "json", "-s", smooth, hp]
                        for p in ref_files:
                            cmd += ["-r", p]
                        if lc:
                            cmd.append("-lc")
                        ours = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                        theirs = sacrebleu.corpus_bleu(hyp, refs, smooth_method=smooth, lowercase=lc)
                        ok = (round(ours["score"], 4) == round(theirs.score, 4) and ours["counts"] == theirs.counts
                              and ours["totals"] == theirs.totals and ours["sys_len"] == theirs.sys_len
                              and ours["ref_len"] == theirs.ref_len)
                        name = f"{hyp_path.split('/')[-1]} [{variant}, smooth={smooth}, lc={lc}, refs={len(refs)}]"
                        if ok:
                            passed += 1
                        else:
                            failed += 1
                            print(f"MISMATCH {name}: synmt {ours['score']:.6f} {ours['counts']} vs "
                                  f"sacrebleu {theirs.score:.6f} {theirs.counts}")
        # every other tokeniser on real text of its language (perturbed copies where no system exists)
        import ipadic
        w = f"{d}/eval/wmt22/generaltest2022"
        zh = read(f"{w}.zh-en.src.zh.gz")
        tok_cases = [
            ("intl", read(f"{w}.de-en.hyp.Online-B.en.gz"), read(f"{w}.de-en.ref.A.en.gz"), []),
            ("intl", read(f"{w}.en-de.hyp.Online-W.de.gz"), read(f"{w}.en-de.ref.A.de.gz"), []),
            ("char", read(f"{w}.en-de.hyp.Online-W.de.gz"), read(f"{w}.en-de.ref.A.de.gz"), []),
            ("none", read(f"{w}.de-en.hyp.Online-B.en.gz"), read(f"{w}.de-en.ref.A.en.gz"), []),
            ("zh", perturb_chars(zh, 5), zh, []),
            ("ja-mecab", read(f"{w}.en-ja.hyp.Online-B.ja.gz"), read(f"{w}.en-ja.ref.A.ja.gz"),
             ["--mecab-dicdir", ipadic.DICDIR]),
        ]
        for k, (tok, hyp, ref, extra) in enumerate(tok_cases):
            hp, rp = f"{tmp}/tok_hyp{k}", f"{tmp}/tok_ref{k}"
            open(hp, "w", encoding="utf-8").write("\n".join(hyp) + "\n")
            open(rp, "w", encoding="utf-8").write("\n".join(ref) + "\n")
            cmd = [args.score, "bleu", "--format", "json", "-t", tok, "-r", rp, hp] + extra
            ours = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            theirs = sacrebleu.corpus_bleu(hyp, [ref], tokenize=tok)
            ok = round(ours["score"], 4) == round(theirs.score, 4) and ours["counts"] == theirs.counts
            if ok:
                passed += 1
            else:
                failed += 1
                print(f"MISMATCH tokenize={tok} case {k}: synmt {ours['score']:.6f} {ours['counts']} vs "
                      f"sacrebleu {theirs.score:.6f} {theirs.counts}")
        # sentence-level BLEU (sacreBLEU's sentence_score with effective order) for every segment
        from sacrebleu.metrics import BLEU
        hyp, ref = tok_cases[0][1], tok_cases[0][2]
        hp, rp = f"{tmp}/sent_hyp", f"{tmp}/sent_ref"
        open(hp, "w", encoding="utf-8").write("\n".join(hyp) + "\n")
        open(rp, "w", encoding="utf-8").write("\n".join(ref) + "\n")
        subprocess.run([args.score, "bleu", "-r", rp, hp, "--sentence-scores", f"{tmp}/sent.txt"], check=True,
                       capture_output=True)
        ours = [float(x) for x in open(f"{tmp}/sent.txt")]
        sb = BLEU(effective_order=True)
        theirs = [sb.sentence_score(h, [r]).score for h, r in zip(hyp, ref)]
        bad = [i for i, (a, b) in enumerate(zip(ours, theirs)) if abs(a - b) > 5e-6]
        if len(ours) == len(theirs) and not bad:
            passed += 1
        else:
            failed += 1
            print(f"MISMATCH sentence BLEU at segments {bad[:5]}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
