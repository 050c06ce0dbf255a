"""synmt-score chrf / paired-bs against sacreBLEU on real WMT22 system outputs.

chrF and chrF++ must equal sacreBLEU to 4 decimals. For paired-bs, sacreBLEU's own resample
indices (numpy default_rng(12345), as sacreBLEU draws them) are replayed with --indices: every
resample score must be identical and the p-values, bootstrap means and CIs equal.
Prints 'N passed, N failed'.
"""
import argparse
import gzip
import json
import subprocess
import sys
import tempfile

import numpy as np
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest, _bootstrap_resample


def read(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--score", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--samples", type=int, default=1000)
    args = ap.parse_args()
    w = f"{args.data}/eval/wmt22/generaltest2022.de-en"
    names = ["Online-B", "JDExploreAcademy", "LT22", "Online-A"]
    outputs = {n: read(f"{w}.hyp.{n}.en.gz") for n in names}
    refs = [read(f"{w}.ref.A.en.gz")]
    passed = failed = 0

    def check(label, ok, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"MISMATCH {label} {detail}")

    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for n, lines in outputs.items():
            paths[n] = f"{tmp}/{n}"
            open(paths[n], "w", encoding="utf-8").write("\n".join(lines) + "\n")
        ref_path = f"{tmp}/ref"
        open(ref_path, "w", encoding="utf-8").write("\n".join(refs[0]) + "\n")

        for n in names[:2]:
            for word_order, lc in ((0, False), (2, False), (0, True), (2, True)):
                cmd = [args.score, "chrf", "-r", ref_path, "--format", "json", "--word-order", str(word_order), paths[n]]
                if lc:
                    cmd.append("-lc")
                ours = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)["score"]
                theirs = CHRF(word_order=word_order, lowercase=lc).corpus_score(outputs[n], refs).score
                check(f"chrF nw={word_order} lc={lc} {n}", round(ours, 4) == round(theirs, 4), f"{ours} vs {theirs}")

        n_seg = len(refs[0])
        idxs = np.random.default_rng(12345).choice(n_seg, size=(args.samples, n_seg), replace=True)
        idx_path = f"{tmp}/indices"
        np.savetxt(idx_path, idxs, fmt="%d")
        for metric_name, metric in (("bleu", BLEU(references=refs)), ("chrf", CHRF(references=refs))):
            named = [(n, outputs[n]) for n in names]
            sigs, scores = PairedTest(named, {metric_name: metric}, references=None, test_type="bs",
                                      n_samples=args.samples)()
            theirs = list(scores.values())[1]
            dump = f"{tmp}/resamples.{metric_name}"
            cmd = [args.score, "paired-bs", "-r", ref_path, "--baseline", paths[names[0]], "--metric", metric_name,
                   "--indices", idx_path, "--format", "json", "--resample-scores", dump] + [paths[n] for n in names[1:]]
            ours = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            for k, n in enumerate(names):
                t, o = theirs[k], ours[k]
                check(f"paired-bs {metric_name} {n} score", round(o["score"], 4) == round(t.score, 4), f"{o['score']} vs {t.score}")
                check(f"paired-bs {metric_name} {n} mean/ci", abs(o["mean"] - t.mean) < 1e-9 and abs(o["ci"] - t.ci) < 1e-9,
                      f"{o['mean']}+-{o['ci']} vs {t.mean}+-{t.ci}")
                if k > 0:
                    check(f"paired-bs {metric_name} {n} p-value", o["p_value"] == t.p_value, f"{o['p_value']} vs {t.p_value}")
            # every resample score of every system (one dump line each, the baseline first), as
            # sacreBLEU computes them (its resampling draws the same indices for each system)
            lines = open(dump).read().splitlines()
            check(f"paired-bs {metric_name} resample dump has a line per system", len(lines) == len(names),
                  f"{len(lines)} lines for {len(names)} systems")
            for n, line in zip(names, lines):
                stats = metric._extract_corpus_statistics(outputs[n], None)
                _, ref_scores = _bootstrap_resample(stats, metric, args.samples)
                our_scores = [float(x) for x in line.split()]
                same = len(our_scores) == len(ref_scores) and all(a == b.score for a, b in zip(our_scores, ref_scores))
                worst = max((abs(a - b.score) for a, b in zip(our_scores, ref_scores)), default=float("inf"))
                check(f"paired-bs {metric_name} {n} per-resample scores identical", same, f"max difference {worst}")
        # approximate randomisation: replay sacreBLEU's own trial selections
        trials = max(200, args.samples)
        sel = np.random.default_rng(12345).integers(2, size=(trials, n_seg), dtype=bool)
        sel_path = f"{tmp}/selections"
        np.savetxt(sel_path, sel.astype(int), fmt="%d")
        for metric_name, metric in (("bleu", BLEU(references=refs)), ("chrf", CHRF(references=refs))):
            named = [(n, outputs[n]) for n in names]
            _, scores = PairedTest(named, {metric_name: metric}, references=None, test_type="ar", n_samples=trials)()
            theirs = list(scores.values())[1]
            cmd = [args.score, "paired-ar", "-r", ref_path, "--baseline", paths[names[0]], "--metric", metric_name,
                   "--selections", sel_path, "--format", "json"] + [paths[n] for n in names[1:]]
            ours = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            for k in range(1, len(names)):
                check(f"paired-ar {metric_name} {names[k]} p-value", ours[k]["p_value"] == theirs[k].p_value,
                      f"{ours[k]['p_value']} vs {theirs[k].p_value}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
