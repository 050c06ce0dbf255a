"""synmt-langid against Python langdetect 1.0.9 (DetectorFactory.seed = 0) on real text in many
languages: FLORES-200 devtest (en de ru tr ja ar zh), Tatoeba (de en ru tr ja ar), Multi30k
(en de fr cs) and newstest (en de ru cs tr); every file must be there. The first --per-file lines
(400) of each file are compared, not the whole files (langdetect in Python is slow). Labels must
agree on every one of those lines (disagreeing lines are listed) and the top probability to 6e-7
(synmt-langid prints 6 decimals: rounding alone is at most 5e-7) on every line. Both read the same
profile directory (the pip package's), so that the language order is identical. Also prints the
speed ratio measured in this run. Prints 'N passed, N failed'.
"""
import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import time

import langdetect
from langdetect import DetectorFactory, detect_langs

DetectorFactory.seed = 0


def read(path, limit):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for _, line in zip(range(limit), f)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--langid", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--per-file", type=int, default=400)
    args = ap.parse_args()
    d, k = args.data, args.per_file
    files = [f"{d}/parallel/flores200/devtest.{l}.gz" for l in ("en", "de", "ru", "tr", "ja", "ar", "zh")]
    files += [f"{d}/parallel/tatoeba-{p}/test.{l}.gz" for p, l in
              (("de-en", "de"), ("de-en", "en"), ("en-ru", "ru"), ("en-tr", "tr"), ("en-ja", "ja"), ("ar-en", "ar"))]
    files += [f"{d}/parallel/multi30k-task1/test_2016_flickr.{l}.gz" for l in ("en", "de", "fr", "cs")]
    files += [f"{d}/parallel/wmt-newstest-{p}/newstest2017.{l}.gz" for p, l in
              (("de-en", "en"), ("de-en", "de"), ("en-ru", "ru"), ("en-cs", "cs"), ("en-tr", "tr"))]
    missing = [f for f in files if not os.path.exists(f)]
    if missing:
        print(f"FAILED: missing input files: {missing}")
        return 1
    lines = []
    for f in files:
        lines += read(f, k)
    profiles = os.path.join(os.path.dirname(langdetect.__file__), "profiles")
    t0 = time.time()
    theirs = []
    for line in lines:
        try:
            best = detect_langs(line)[0]
            theirs.append((best.lang, best.prob))
        except Exception:
            theirs.append(("unknown", 0.0))
    t1 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        inp = f"{tmp}/lines"
        open(inp, "w", encoding="utf-8").write("\n".join(lines) + "\n")
        t2 = time.time()
        out = subprocess.run([args.langid, "--seed", "0", "--profiles", profiles, "-i", inp], check=True,
                             capture_output=True, text=True).stdout
        t3 = time.time()
    ours = [(l.split("\t")[0], float(l.split("\t")[1])) for l in out.splitlines()]
    assert len(ours) == len(lines)
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a[0] != b[0]]
    prob_off = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a[0] == b[0] and abs(a[1] - b[1]) > 6e-7]
    agreement = 1 - len(differ) / len(lines)
    print(f"{len(lines)} lines from {len(files)} files; labels agree on {100 * agreement:.3f}%; "
          f"probabilities off by > 6e-7 on {len(prob_off)} agreeing lines")
    for i in differ[:20]:
        print(f"  line {i + 1}: synmt {ours[i]} langdetect {theirs[i]}: {lines[i][:80]!r}")
    print(f"speed: langdetect {t1 - t0:.2f} s, synmt-langid {t3 - t2:.2f} s (incl. profile loading), "
          f"ratio {(t1 - t0) / (t3 - t2):.1f}x")
    passed = failed = 0
    for ok in (not differ, not prob_off):
        passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
