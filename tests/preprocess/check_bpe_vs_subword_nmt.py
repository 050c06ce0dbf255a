"""synmt-bpe against subword-nmt 0.3.8 on real corpora: codes and segmented output byte-identical.

Cases: Multi30k train (en, de), a joint En+De corpus (as Pascal learns it), and newstest (de, ru),
with several merge counts and min-frequency settings. Prints 'N passed, N failed'.
"""
import argparse
import gzip
import os
import subprocess
import sys
import tempfile

VENV_BIN = os.path.dirname(sys.executable)


def gunzip(src, dst, limit=None):
    with gzip.open(src, "rb") as f, open(dst, "wb") as g:
        for i, line in enumerate(f):
            if limit is not None and i >= limit:
                break
            g.write(line)


def run(cmd, stdin_path, stdout_path):
    with open(stdin_path, "rb") as i, open(stdout_path, "wb") as o:
        subprocess.run(cmd, stdin=i, stdout=o, check=True, stderr=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bpe", required=True)
    ap.add_argument("--data", required=True)
    args = ap.parse_args()
    d = args.data
    subword_nmt = os.path.join(VENV_BIN, "subword-nmt")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        corpora = {
            "m30k.en": (f"{d}/parallel/multi30k-task1/train.en.gz", None),
            "m30k.de": (f"{d}/parallel/multi30k-task1/train.de.gz", None),
            "nt14.de": (f"{d}/parallel/wmt-newstest-de-en/newstest2014.de.gz", None),
            "nt17.ru": (f"{d}/parallel/wmt-newstest-en-ru/newstest2017.ru.gz", None),
        }
        for name, (src, limit) in corpora.items():
            gunzip(src, f"{tmp}/{name}", limit)
        with open(f"{tmp}/joint", "wb") as j:
            for name in ("m30k.en", "m30k.de"):
                j.write(open(f"{tmp}/{name}", "rb").read())
        cases = [("m30k.en", 2000, 2), ("m30k.de", 3000, 2), ("joint", 4000, 2), ("nt14.de", 1500, 2),
                 ("nt17.ru", 1000, 3), ("m30k.en", 300, 1)]
        for name, merges, minf in cases:
            text = f"{tmp}/{name}"
            ref_codes, our_codes = f"{tmp}/{name}.{merges}.ref.codes", f"{tmp}/{name}.{merges}.our.codes"
            run([subword_nmt, "learn-bpe", "-s", str(merges), "--min-frequency", str(minf)], text, ref_codes)
            run([args.bpe, "learn", "-s", str(merges), "--min-frequency", str(minf)], text, our_codes)
            same_codes = open(ref_codes, "rb").read() == open(our_codes, "rb").read()
            ref_out, our_out = f"{text}.ref.bpe", f"{text}.our.bpe"
            run([subword_nmt, "apply-bpe", "-c", ref_codes], text, ref_out)
            run([args.bpe, "apply", "-c", ref_codes], text, our_out)
            same_apply = open(ref_out, "rb").read() == open(our_out, "rb").read()
            for what, ok in (("learn", same_codes), ("apply", same_apply)):
                label = f"{name} merges={merges} min_frequency={minf} {what}"
                if ok:
                    passed += 1
                else:
                    failed += 1
                    a = open(ref_codes if what == "learn" else ref_out, encoding="utf-8").read().split("\n")
                    b = open(our_codes if what == "learn" else our_out, encoding="utf-8").read().split("\n")
                    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                    print(f"MISMATCH {label} at line {first + 1}: subword-nmt {a[first:first+1]!r} synmt {b[first:first+1]!r}")
        # get-vocab, --vocabulary/--vocabulary-threshold (the Sennrich et al. recipe), glossaries
        text = f"{tmp}/m30k.de"
        codes = f"{tmp}/m30k.de.3000.ref.codes"
        run([subword_nmt, "apply-bpe", "-c", codes], text, f"{tmp}/seg")
        run([subword_nmt, "get-vocab"], f"{tmp}/seg", f"{tmp}/vocab.ref")
        run([args.bpe, "get-vocab"], f"{tmp}/seg", f"{tmp}/vocab.our")
        extra_cases = [("get-vocab", f"{tmp}/vocab.ref", f"{tmp}/vocab.our")]
        for name, flags in (("vocabulary-threshold 50", ["--vocabulary", f"{tmp}/vocab.ref", "--vocabulary-threshold", "50"]),
                            ("glossaries", ["--glossaries", "[0-9]+", "Mann", "ge"])):
            run([subword_nmt, "apply-bpe", "-c", codes] + flags, text, f"{tmp}/x.ref")
            run([args.bpe, "apply", "-c", codes] + flags, text, f"{tmp}/x.our")
            extra_cases.append((name, f"{tmp}/x.ref", f"{tmp}/x.our"))
            import shutil
            shutil.copy(f"{tmp}/x.ref", f"{tmp}/{name.split()[0]}.ref")
            shutil.copy(f"{tmp}/x.our", f"{tmp}/{name.split()[0]}.our")
            extra_cases[-1] = (name, f"{tmp}/{name.split()[0]}.ref", f"{tmp}/{name.split()[0]}.our")
        for name, a, b in extra_cases:
            if open(a, "rb").read() == open(b, "rb").read():
                passed += 1
            else:
                failed += 1
                x, y = open(a, encoding="utf-8").read().split("\n"), open(b, encoding="utf-8").read().split("\n")
                i = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
                print(f"MISMATCH {name} at line {i + 1}: subword-nmt {x[i:i+1]!r} synmt {y[i:i+1]!r}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
