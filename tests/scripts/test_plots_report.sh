#!/usr/bin/env bash
# The plotting scripts (pipeline/scripts/plots/) and the report page (pipeline/scripts/make_report.py)
# on small fixtures made here: synthesised metrics.jsonl files, a 3-system text set scored by the real
# synmt-score, an analysis dump written as synmt-translate writes one (synmt-analysis-1, see
# trainer/decode/analysis_dump.cpp) and a report of them. Every output must exist, be byte-identical
# when rerun (another PYTHONHASHSEED, outputs overwritten), and bad input must fail naming file and line.
# Usage: test_plots_report.sh VENV BUILD_DIR
set -euo pipefail
VENV=$1
BUILD=$2
PY="$VENV/bin/python"
SCORE="$BUILD/bin/synmt-score"
SCRIPTS="$(cd "$(dirname "$0")/../../pipeline/scripts" && pwd)"
T=$(mktemp -d /tmp/synmt-plots-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
# expect_error WHAT PATTERN CMD...: CMD exits non-zero and its stderr matches PATTERN
expect_error() {
  local what=$1 pattern=$2
  shift 2
  if "$@" > "$T/err.out" 2> "$T/err.txt"; then fail "$what: accepted"; return; fi
  if grep -qE -- "$pattern" "$T/err.txt"; then ok; else cat "$T/err.txt"; fail "$what: stderr does not match '$pattern'"; fi
}

# ---------------------------------------------------------------- fixtures
F="$T/fixtures"
mkdir -p "$F"
"$PY" - "$F" <<'EOF'
import hashlib, json, math, os, sys
import h5py, numpy as np
F = sys.argv[1]

# metrics: a plain run with validation BLEU and an auxiliary term; a resumed run (updates 300-400
# logged twice: the first ones are superseded) with a skipped update and a NaN written as null
with open(f"{F}/a.jsonl", "w") as f:
    for step in range(50, 1001, 50):
        f.write(json.dumps({"type": "train", "step": step, "epoch": 1 + step // 500, "loss": 7 * math.exp(-step / 400) + 2,
                            "nll": 6.5 * math.exp(-step / 400) + 1.8, "ppl": 0, "lr": 1e-3, "elapsed_s": step * 0.1,
                            "aux_head_loss": 1 / (1 + step / 100)}) + "\n")
        if step % 250 == 0:
            f.write(json.dumps({"type": "valid", "step": step, "epoch": 1, "valid_ppl": 400 * math.exp(-step / 300) + 8,
                                "valid_tokens": 1000, "valid_bleu": 30 * (1 - math.exp(-step / 300))}) + "\n")
with open(f"{F}/b.jsonl", "w") as f:
    steps = list(range(50, 401, 50)) + list(range(300, 1001, 50))
    for step in steps:
        f.write(json.dumps({"type": "train", "step": step, "epoch": 1, "loss": 6 * math.exp(-step / 300) + 2.5,
                            "nll": None if step == 650 else 5.5 * math.exp(-step / 300) + 2.2, "lr": 5e-4,
                            "elapsed_s": step * 0.2}) + "\n")
        if step == 500:
            f.write(json.dumps({"type": "skipped_update", "step": 501, "epoch": 1, "skipped_updates": 1}) + "\n")
        if step % 200 == 0:
            f.write(json.dumps({"type": "valid", "step": step, "epoch": 1, "valid_ppl": 300 * math.exp(-step / 250) + 9}) + "\n")
with open(f"{F}/bad_json.jsonl", "w") as f:
    f.write('{"type": "train", "step": 50, "loss": 5.0}\n\n{"type": "train", "step": 100, "loss": 4.\n')
with open(f"{F}/bad_field.jsonl", "w") as f:
    f.write('{"type": "valid", "step": 50, "valid_ppl": 90}\n{"type": "train", "step": 100, "nll": 4.5}\n')
with open(f"{F}/bad_value.jsonl", "w") as f:
    f.write('{"type": "train", "step": 50, "loss": 5.0}\n{"type": "train", "step": 100, "loss": 4.0}\n'
            '{"type": "train", "step": 150, "loss": "4.0"}\n')

# text set: source lengths 2..27 words, reference, three systems (perfect, half right, poor)
words = "the a man woman dog runs on in green grass red hat with his small big old street near park".split()
src, ref, good, half, poor = [], [], [], [], []
for i in range(40):
    n = 2 + (i * 7) % 26
    if 9 <= n <= 12:
        n += 5  # leave the 9-12 bucket empty
    s = [words[(i * 3 + k * 5) % len(words)] for k in range(n)]
    r = [w.capitalize() if k == 0 else w for k, w in enumerate(reversed(s))] + ["."]
    src.append(" ".join(s)); ref.append(" ".join(r)); good.append(" ".join(r))
    half.append(" ".join(r[: len(r) // 2] + ["x"] * (len(r) - len(r) // 2)))
    poor.append(" ".join(sorted(r)))
for name, lines in [("src", src), ("ref", ref), ("good", good), ("half", half), ("poor", poor)]:
    with open(f"{F}/{name}.txt", "w") as fh:
        fh.write("\n".join(lines) + "\n")
with open(f"{F}/short.txt", "w") as fh:
    fh.write("\n".join(good[:-1]) + "\n")

# analysis dump, laid out as trainer/decode/analysis_dump.cpp writes it through core/hdf5_file.cpp:
# 1-d datasets (float32 values, int64 offsets, int32 shapes flattened), deflate 4 in chunks of
# min(n, 65536), fixed-length null-terminated string attributes
def write(f, name, data):
    data = np.ascontiguousarray(data)
    kw = {"chunks": (min(data.size, 1 << 16),), "compression": "gzip", "compression_opts": 4} if data.size else {}
    f.create_dataset(name, data=data, **kw)
def attr(f, name, value):
    tid = h5py.h5t.C_S1.copy()
    tid.set_size(max(len(value), 1))
    a = h5py.h5a.create(f.id, name.encode(), tid, h5py.h5s.create(h5py.h5s.SCALAR))
    a.write(np.array(value.encode(), dtype=f"S{max(len(value), 1)}"), mtype=tid)  # as H5Awrite with the file type
def ragged(f, name, blocks, dtype):
    write(f, name, np.concatenate([b.ravel() for b in blocks]).astype(dtype))
    write(f, name + "_offsets", np.cumsum([0] + [b.size for b in blocks]).astype(np.int64))
    write(f, name + "_shapes", np.array([b.shape for b in blocks], dtype=np.int32).ravel())

rng = np.random.default_rng(0)
src_ids = [[4, 5, 6], [7, 8, 9, 10, 11], [4, 12, 13, 5]]           # sub-word ids per sentence
tgt_ids = [[4, 5, 6, 7], [8, 9, 10], [11, 12, 4, 5, 6]]
word_spans = [np.array([[0, 0], [1, 2]]), np.array([[0, 1], [2, 2], [3, 4]]), np.array([[0, 0], [1, 1], [2, 3]])]
def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True)); return e / e.sum(-1, keepdims=True)
src_att = [softmax(rng.normal(size=(len(t) + 1, len(s))) * 3) for s, t in zip(src_ids, tgt_ids)]  # tgt + </s>
enc_att = [softmax(rng.normal(size=(2, len(s), len(s))) * 3) for s in src_ids]
gate = [rng.random(len(t) + 1) for t in tgt_ids]
with h5py.File(f"{F}/dump.h5", "w") as f:
    ragged(f, "word_spans", word_spans, np.int32)
    for name, axes, blocks in [("source_attention", "tgt src", src_att), ("encoder_attention_0", "2 src src", enc_att),
                               ("m0.gate_norm", "tgt", gate)]:
        ragged(f, name, blocks, np.float32)
        attr(f, name + "_axes", axes)
    attr(f, "format", "synmt-analysis-1")
    attr(f, "mode", "teacher-forced")
with h5py.File(f"{F}/not_dump.h5", "w") as f:
    attr(f, "format", "synmt-dataset-1")

# the binarised split the dump was "made from", and its vocabularies ("token<TAB>count", id = line)
specials = ["<pad>", "<unk>", "<s>", "</s>"]
vocabs = {"src": specials + "A man in a green ha@@ t runs on the street with".split(),
          "tgt": specials + "Ein Mann mit grün@@ em Hut läuft auf der Straße".split()}
digest = {}
for side, toks in vocabs.items():
    text = "".join(f"{t}\t{0 if k < 4 else 10 - k}\n" for k, t in enumerate(toks)).encode()
    with open(f"{F}/vocab.{side}", "wb") as fh:
        fh.write(text)
    digest[side] = hashlib.sha256(text).hexdigest()
with h5py.File(f"{F}/data.h5", "w") as f:
    for side, ids in (("src", src_ids), ("tgt", tgt_ids)):
        write(f, f"{side}_tokens", np.array(sum(ids, []), dtype=np.int32))
        write(f, f"{side}_offsets", np.cumsum([0] + [len(x) for x in ids]).astype(np.int64))
        attr(f, f"{side}_vocab_sha256", digest[side])
    attr(f, "format", "synmt-dataset-1")
    attr(f, "num_sentences", str(len(src_ids)))

# report inputs
with open(f"{F}/table.md", "w") as fh:
    fh.write("# Toy results (2 systems)\n\nScores on the *toy* set; `synmt-score` signature below.\n\n"
             "| system | BLEU | note |\n|---|---:|---|\n| good | 100.00 | a \\| b |\n| poor <b> | 12.50 | |\n\n"
             "BLEU signature: `nrefs:1|case:mixed`.\n- first note\n- second note\n")
with open(f"{F}/bad_table.md", "w") as fh:
    fh.write("# Bad\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |\n")
with open(f"{F}/meta.json", "w") as fh:
    json.dump({"date": "2026-01-02", "commit": "abc1234", "hardware": "2 CPU cores", "scale": "toy", "budget": 5}, fh)
with open(f"{F}/bad_meta.json", "w") as fh:
    fh.write('{"date": "2026-01-02", "commit": "abc1234"}\n')
EOF

# ---------------------------------------------------------------- all four scripts into OUT
run_all() {
  # "|| return 1" after each command: the caller runs this function on the left of "||", where
  # bash ignores set -e in its whole body (a failing script would go unnoticed but for the last)
  local O=$1
  mkdir -p "$O"
  "$PY" "$SCRIPTS/plots/curves.py" --metrics plain="$F/a.jsonl" resumed="$F/b.jsonl" --out "$O/curves" --title "toy curves" || return 1
  "$PY" "$SCRIPTS/plots/curves.py" --metrics only="$F/b.jsonl" --out "$O/curves_one" || return 1
  "$PY" "$SCRIPTS/plots/length_buckets.py" --src "$F/src.txt" --ref "$F/ref.txt" \
    --hyp good="$F/good.txt" half="$F/half.txt" poor="$F/poor.txt" --buckets 4,8,12,20 --score-bin "$SCORE" \
    --out "$O/buckets" --csv "$O/buckets.csv" || return 1
  "$PY" "$SCRIPTS/plots/heatmap.py" --dump "$F/dump.h5" --tensor source_attention --sentences 0,2 --out "$O/att" \
    --data "$F/data.h5" --src-vocab "$F/vocab.src" --tgt-vocab "$F/vocab.tgt" || return 1
  "$PY" "$SCRIPTS/plots/heatmap.py" --dump "$F/dump.h5" --tensor encoder_attention_0 --sentences 1 --out "$O/enc_all" || return 1
  "$PY" "$SCRIPTS/plots/heatmap.py" --dump "$F/dump.h5" --tensor encoder_attention_0 --sentences 0,1 --head 1 \
    --out "$O/enc_h1" --data "$F/data.h5" --src-vocab "$F/vocab.src" || return 1
  "$PY" "$SCRIPTS/plots/heatmap.py" --dump "$F/dump.h5" --tensor m0/gate_norm --sentences 2 --out "$O/gate" || return 1
  "$PY" "$SCRIPTS/make_report.py" --title "Toy report" --table toy="$F/table.md" \
    --figure "Training curves=$O/curves.png" "BLEU by source length=$O/buckets.png::paper Figure 3" \
    "Source attention=$O/att.png::paper Figure 4" --meta "$F/meta.json" --out-dir "$O/report" || return 1
}
O="$T/out"
PYTHONHASHSEED=1 run_all "$O" 2> "$T/run1.log" || { cat "$T/run1.log"; fail "first run"; }
for f in curves.png curves.svg curves_one.png curves_one.svg buckets.png buckets.svg buckets.csv att.png att.svg \
         enc_all.png enc_all.svg enc_h1.png enc_h1.svg gate.png gate.svg \
         report/index.md report/index.html report/figures/curves.png report/figures/buckets.png report/figures/att.png; do
  if [ -s "$O/$f" ]; then ok; else fail "missing output $f"; fi
done
for f in curves buckets att enc_all; do
  if head -c 8 "$O/$f.png" 2> /dev/null | od -An -c | grep -q 'P   N   G' && grep -q '<svg' "$O/$f.svg" 2> /dev/null; then ok; else fail "$f: not a PNG and an SVG"; fi
  if grep -qE 'dc:date|Matplotlib v' "$O/$f.svg"; then fail "$f.svg records a date or version"; else ok; fi
done

# ---------------------------------------------------------------- what the outputs say
# buckets: labels and counts as synmt-score's own --buckets-src gives them, each system's BLEU per
# bucket equal to the scorer's on that bucket, the perfect system 100 wherever a bucket has sentences
"$PY" - "$O/buckets.csv" "$SCORE" "$F" <<'EOF' || fail "buckets.csv disagrees with synmt-score --buckets-src"
import csv, json, subprocess, sys
path, score, F = sys.argv[1:]
rows = list(csv.DictReader(open(path)))
assert [r["bucket"] for r in rows] == ["0-4", "5-8", "9-12", "13-20", ">20"], rows
assert rows[2]["n"] == "0" and all(rows[2][s] == "" for s in ("good", "half", "poor")), rows[2]
assert sum(int(r["n"]) for r in rows) == 40
for system in ("good", "half", "poor"):
    out = subprocess.run([score, "bleu", "-r", f"{F}/ref.txt", "--format", "json", "--buckets-src", f"{F}/src.txt",
                          "--buckets", "4,8,12,20", f"{F}/{system}.txt"], check=True, capture_output=True, text=True).stdout
    buckets = json.loads(out)["buckets"]
    assert len(buckets) == len(rows), (system, len(buckets), len(rows))
    for r, b in zip(rows, buckets):
        assert (r["bucket"], int(r["n"])) == (b["source_words"], b["sentences"]), (r, b)
        if b["sentences"]:
            assert r[system] == f"{b['score']:.2f}", (system, r, b)
            assert system != "good" or r[system] == "100.00", r
EOF
ok
# report: header, converted table (escaped cells, alignment, notes, list), figures copied, paper refs
R="$O/report"
for pattern in '<h1>Toy report</h1>' '<dt>date</dt><dd>2026-01-02</dd>' '<dt>commit</dt><dd>abc1234</dd>' \
               '<dt>hardware</dt><dd>2 CPU cores</dd>' '<dt>scale</dt><dd>toy</dd>' '<dt>budget</dt><dd>5</dd>' \
               '<th style="text-align:right">BLEU</th>' '<td>a | b</td>' '<td>poor &lt;b&gt;</td>' \
               '<code>nrefs:1|case:mixed</code>' '<li>second note</li>' '<img src="figures/buckets.png"' \
               'BLEU by source length <span class="ref">(paper Figure 3)</span>'; do
  grep -q -- "$pattern" "$R/index.html" 2> /dev/null || { fail "index.html lacks $pattern"; continue; }
  ok
done
for pattern in '^# Toy report' '^- \*\*commit\*\*: abc1234' '^#### Toy results' '^| good | 100.00 |' \
               '^!\[Source attention\](figures/att.png)' 'paper Figure 4'; do
  grep -q -- "$pattern" "$R/index.md" 2> /dev/null || { fail "index.md lacks $pattern"; continue; }
  ok
done
if grep -qE '(src|href)="(/|https?:)' "$R/index.html"; then fail "index.html refers outside its folder"; else ok; fi
cmp -s "$O/buckets.png" "$R/figures/buckets.png" && ok || fail "figure not copied byte for byte"

# ---------------------------------------------------------------- rerun: byte-identical outputs
cp -r "$O" "$T/first"
rm -rf "$O"  # every file of the rerun is written anew, none left from the first run
PYTHONHASHSEED=2 run_all "$O" 2> "$T/run2.log" || { cat "$T/run2.log"; fail "second run"; }
(cd "$T/first" && find . -type f | sort) > "$T/files1"
(cd "$O" && find . -type f | sort) > "$T/files2"
cmp -s "$T/files1" "$T/files2" && ok || { diff "$T/files1" "$T/files2"; fail "the rerun wrote other files"; }
while read -r f; do
  cmp -s "$T/first/$f" "$O/$f" && ok || fail "$f differs when rerun"
done < "$T/files1"

# ---------------------------------------------------------------- bad input: file and line named, non-zero exit
expect_error "malformed metrics line" "bad_json\.jsonl:3: not a JSON object" \
  "$PY" "$SCRIPTS/plots/curves.py" --metrics x="$F/a.jsonl" y="$F/bad_json.jsonl" --out "$T/bad/c"
expect_error "train record without loss" "bad_field\.jsonl:2: a \"train\" record without \"loss\"" \
  "$PY" "$SCRIPTS/plots/curves.py" --metrics y="$F/bad_field.jsonl" --out "$T/bad/c"
expect_error "non-numeric loss" "bad_value\.jsonl:3: 'loss' is not a number" \
  "$PY" "$SCRIPTS/plots/curves.py" --metrics y="$F/bad_value.jsonl" --out "$T/bad/c"
expect_error "metrics without NAME=" "expected NAME=PATH" "$PY" "$SCRIPTS/plots/curves.py" --metrics "$F/a.jsonl" --out "$T/bad/c"
expect_error "hypothesis of another length" "short\.txt: 39 lines, but the source .*src\.txt has 40" \
  "$PY" "$SCRIPTS/plots/length_buckets.py" --src "$F/src.txt" --ref "$F/ref.txt" --hyp s="$F/short.txt" \
  --score-bin "$SCORE" --out "$T/bad/b"
expect_error "decreasing buckets" "--buckets: expected increasing" \
  "$PY" "$SCRIPTS/plots/length_buckets.py" --src "$F/src.txt" --ref "$F/ref.txt" --hyp s="$F/good.txt" \
  --buckets 10,5 --score-bin "$SCORE" --out "$T/bad/b"
expect_error "unknown tensor" "dump\.h5: no tensor 'nope' \(it has: encoder_attention_0, m0.gate_norm, source_attention\)" \
  "$PY" "$SCRIPTS/plots/heatmap.py" --dump "$F/dump.h5" --tensor nope --sentences 0 --out "$T/bad/h"
expect_error "sentence out of range" "dump\.h5: sentence 3: the dump has sentences 0-2" \
  "$PY" "$SCRIPTS/plots/heatmap.py" --dump "$F/dump.h5" --tensor source_attention --sentences 3 --out "$T/bad/h"
expect_error "head of a tensor without heads" "--head: 'source_attention' has no heads axis" \
  "$PY" "$SCRIPTS/plots/heatmap.py" --dump "$F/dump.h5" --tensor source_attention --sentences 0 --head 0 --out "$T/bad/h"
expect_error "not an analysis dump" "not_dump\.h5: not an analysis dump" \
  "$PY" "$SCRIPTS/plots/heatmap.py" --dump "$F/not_dump.h5" --tensor source_attention --sentences 0 --out "$T/bad/h"
expect_error "a vocabulary the split was not built with" "vocab\.tgt: not the vocabulary .*data\.h5 was built with" \
  "$PY" "$SCRIPTS/plots/heatmap.py" --dump "$F/dump.h5" --tensor source_attention --sentences 0 --out "$T/bad/h" \
  --data "$F/data.h5" --src-vocab "$F/vocab.tgt"
expect_error "text file as dump" "src\.txt: cannot open HDF5 file" \
  "$PY" "$SCRIPTS/plots/heatmap.py" --dump "$F/src.txt" --tensor source_attention --sentences 0 --out "$T/bad/h"
expect_error "table row with a missing cell" "bad_table\.md:6: table row has 1 cells, the header 2" \
  "$PY" "$SCRIPTS/make_report.py" --title x --table t="$F/bad_table.md" --meta "$F/meta.json" --out-dir "$T/bad/r"
expect_error "meta without hardware" "bad_meta\.json: missing hardware, scale" \
  "$PY" "$SCRIPTS/make_report.py" --title x --meta "$F/bad_meta.json" --out-dir "$T/bad/r2"

[ ! -e "$T/bad" ] && ok || fail "a failed run left outputs"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
