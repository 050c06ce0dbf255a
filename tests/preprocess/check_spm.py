"""synmt-spm (Debian's libsentencepiece) against the Python sentencepiece package on real Japanese
text: a model trained by synmt-spm on FLORES dev + Tatoeba ja is loaded by both; encoding of FLORES
devtest (pieces and ids) and decoding back must be identical. Prints 'N passed, N failed'.
"""
import argparse
import gzip
import subprocess
import sys
import tempfile

import sentencepiece as spm


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spm", required=True)
    ap.add_argument("--data", required=True)
    args = ap.parse_args()
    d = args.data
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        with open(f"{tmp}/train", "w", encoding="utf-8") as f:
            for p in (f"{d}/parallel/flores200/dev.ja.gz", f"{d}/parallel/tatoeba-en-ja/test.ja.gz"):
                f.write(gzip.open(p, "rt", encoding="utf-8").read())
        test = gzip.open(f"{d}/parallel/flores200/devtest.ja.gz", "rt", encoding="utf-8").read().split("\n")[:-1]
        open(f"{tmp}/test", "w", encoding="utf-8").write("\n".join(test) + "\n")
        subprocess.run([args.spm, "train", "-i", f"{tmp}/train", "--model-prefix", f"{tmp}/m", "--vocab-size", "4000"],
                       check=True, capture_output=True)
        sp = spm.SentencePieceProcessor(model_file=f"{tmp}/m.model")
        for fmt in ("piece", "id"):
            subprocess.run([args.spm, "encode", "-m", f"{tmp}/m.model", "-i", f"{tmp}/test", "-o", f"{tmp}/enc.{fmt}",
                            "--output-format", fmt], check=True)
            ours = open(f"{tmp}/enc.{fmt}", encoding="utf-8").read().split("\n")[:-1]
            theirs = [" ".join(map(str, sp.encode(l, out_type=str if fmt == "piece" else int))) for l in test]
            ok = ours == theirs
            passed, failed = passed + ok, failed + (not ok)
            print(f"encode ({fmt}): {sum(a == b for a, b in zip(ours, theirs))}/{len(test)} identical")
        subprocess.run([args.spm, "decode", "-m", f"{tmp}/m.model", "-i", f"{tmp}/enc.piece", "-o", f"{tmp}/dec"], check=True)
        ours = open(f"{tmp}/dec", encoding="utf-8").read().split("\n")[:-1]
        theirs = [sp.decode(sp.encode(l, out_type=str)) for l in test]
        ok = ours == theirs
        passed, failed = passed + ok, failed + (not ok)
        print(f"decode: {sum(a == b for a, b in zip(ours, theirs))}/{len(test)} identical")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
