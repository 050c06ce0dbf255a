"""synmt-tok --normalize-only against sacremoses' MosesPunctNormalizer(perl_parity=True), i.e. Moses'
normalize-punctuation.perl, on real text (the first 3,000 lines of each newstest, Multi30k, FLORES
and WMT22 output file) and on 20,000 seeded random strings built from every character the rules
touch (so that each rule fires).
Prints 'N passed, N failed'.
"""
import argparse
import gzip
import random
import subprocess
import sys

from sacremoses import MosesPunctNormalizer

PIECES = ["(", ")", " ", "  ", ".", "..", ",", "!", "?", ":", ";", "%", "`", "'", "''", "\"", "„", "“", "”", "–", "—",
          "´", "‘", "’", "‚", "…", "«", "»", "\u00A0", "nº", "ºC", "cm", "<", "a", "Z", "x", "7", "3", "\r", "٣", "ab"]


def compare(tok, lang, lines, label):
    n = MosesPunctNormalizer(lang=lang, perl_parity=True)
    ref = [n.normalize(l) for l in lines]
    out = subprocess.run([tok, "-l", lang, "--normalize-only"], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True).stdout.split("\n")[:-1]
    bad = [i for i, (a, b) in enumerate(zip(out, ref)) if a != b]
    for i in bad[:5]:
        print(f"  {label} {lang}: {lines[i]!r}\n    synmt      {out[i]!r}\n    sacremoses {ref[i]!r}")
    print(f"{label} {lang}: {len(lines)} lines, {len(bad)} differ")
    return len(out) == len(ref) and not bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tok", required=True)
    ap.add_argument("--data", required=True)
    args = ap.parse_args()
    d = args.data
    real = [("en", f"{d}/parallel/wmt-newstest-de-en/newstest2017.en.gz"), ("de", f"{d}/parallel/wmt-newstest-de-en/newstest2017.de.gz"),
            ("fr", f"{d}/parallel/multi30k-task1/train.fr.gz"), ("cs", f"{d}/parallel/wmt-newstest-en-cs/newstest2017.cs.gz"),
            ("ru", f"{d}/parallel/wmt-newstest-en-ru/newstest2017.ru.gz"), ("de", f"{d}/parallel/flores200/devtest.de.gz"),
            ("en", f"{d}/eval/wmt22/generaltest2022.de-en.hyp.Online-B.en.gz")]
    passed = failed = 0
    for lang, path in real:
        lines = [l.rstrip("\n") for _, l in zip(range(3000), gzip.open(path, "rt", encoding="utf-8"))]
        ok = compare(args.tok, lang, lines, path.split("/")[-1])
        passed, failed = passed + ok, failed + (not ok)
    rng = random.Random(0)
    for lang in ("en", "de", "fr", "cs", "ru"):
        # "\r" inside a line would be read as a line end by the text pipe: keep it out of the fuzz
        lines = ["".join(rng.choice(PIECES[:-3] + PIECES[-2:]) for _ in range(rng.randint(1, 25))) for _ in range(4000)]
        lines = [l for l in lines if "\r" not in l]
        ok = compare(args.tok, lang, lines, "random")
        passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
