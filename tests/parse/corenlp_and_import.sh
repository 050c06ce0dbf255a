#!/usr/bin/env bash
# synmt-parse against a loopback CoreNLP stand-in (fake_corenlp_server.py, CoreNLP's JSON format):
# a good parse into the cache and its reuse; server down, HTTP 500, timeout, flaky server (retry
# succeeds), a re-split line — each a clear error, the cache untouched. Then the CoNLL-U import
# backend on a real UD file and a misaligned corpus.
set -euo pipefail
BUILD=$1
MIRROR=$2   # the local data mirror (tests/CMakeLists.txt: SYNMT_MIRROR)
HERE=$(cd "$(dirname "$0")" && pwd)
T=$BUILD/test_tmp/corenlp
rm -rf "$T"; mkdir -p "$T"
PARSE=$BUILD/bin/synmt-parse
fail() { echo "FAIL: $*" >&2; exit 1; }
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
start_server() {  # mode -> sets PORT
  rm -f "$T/port"
  python3 "$HERE/fake_corenlp_server.py" "$T/port" "$1" & pids+=($!)
  for _ in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
  PORT=$(cat "$T/port")
}
expect_error() {  # pattern, command...
  local pattern=$1; shift
  if "$@" > "$T/out" 2> "$T/err"; then fail "expected an error: $*"; fi
  grep -q -- "$pattern" "$T/err" || { cat "$T/err" >&2; fail "message lacks '$pattern'"; }
}

printf 'The cat sat .\nA dog barks loudly\nHi\n' > "$T/corpus.tok"
start_server ok
$PARSE --backend corenlp --url "http://127.0.0.1:$PORT" --batch-lines 2 -i "$T/corpus.tok" -o "$T/cache.h5" 2> "$T/log"
$PARSE --backend corenlp --url "http://127.0.0.1:$PORT" -i "$T/corpus.tok" -o "$T/cache.h5" --export-conllu "$T/export.conllu" 2> "$T/log"
# chain trees (word 1 = root), labels root/amod/dep, tags from the stand-in's rule
cut -f 2,4,7,8 "$T/export.conllu" | tr '\t\n' ' |' > "$T/got"
expected="The JJ 0 root|cat DT 1 amod|sat NN 2 dep|. DT 3 amod||A VBZ 0 root|dog DT 1 amod|barks IN 2 dep|loudly DT 3 amod||Hi IN 0 root||"
[ "$(cat "$T/got")" = "$expected" ] || fail "exported parses: $(cat "$T/got")"
$PARSE --backend corenlp --url "http://127.0.0.1:$PORT" -i "$T/corpus.tok" -o "$T/cache.h5" 2> "$T/log"
grep -q "reused" "$T/log" || fail "the matching cache was not reused"
cp "$T/cache.h5" "$T/cache.before"

# server down: nothing listens on the port any more
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true
expect_error "failed for the lines from 1" $PARSE --backend corenlp --url "http://127.0.0.1:$PORT" --retries 2 --backoff 0.1 --force -i "$T/corpus.tok" -o "$T/cache.h5"
grep -q "retry 2/2" "$T/err" || fail "no retries logged"
grep -q "StanfordCoreNLPServer" "$T/err" || fail "no hint how to start the server"
start_server error500
expect_error "HTTP 500" $PARSE --backend corenlp --url "http://127.0.0.1:$PORT" --retries 1 --backoff 0.1 --force -i "$T/corpus.tok" -o "$T/cache.h5"
start_server slow
expect_error "Timeout" $PARSE --backend corenlp --url "http://127.0.0.1:$PORT" --timeout 1 --retries 1 --backoff 0.1 --force -i "$T/corpus.tok" -o "$T/cache.h5"
start_server split
expect_error "corpus.tok:1: .*re-split a line" $PARSE --backend corenlp --url "http://127.0.0.1:$PORT" --force -i "$T/corpus.tok" -o "$T/cache.h5"
cmp -s "$T/cache.h5" "$T/cache.before" || fail "a failed run changed the cache"
start_server flaky
$PARSE --backend corenlp --url "http://127.0.0.1:$PORT" --backoff 0.1 --force -i "$T/corpus.tok" -o "$T/cache2.h5" 2> "$T/log"
grep -q "retry 1/" "$T/log" || fail "flaky server: no retry"

# CoNLL-U import: the words of a real UD file as the corpus, then a misaligned corpus
python3 - "$MIRROR/ud/UD_English-EWT/en_ewt-ud-dev.conllu.gz" "$T" <<'PY'
import gzip, sys
src, out = sys.argv[1], sys.argv[2]
data = gzip.open(src, "rt", encoding="utf-8").read()
open(out + "/ewt_dev.conllu", "w", encoding="utf-8").write(data)
lines, words = [], []
for row in data.split("\n"):
    if not row:
        if words: lines.append(" ".join(words)); words = []
        continue
    if row.startswith("#"): continue
    cols = row.split("\t")
    if "-" in cols[0] or "." in cols[0]: continue
    words.append(cols[1].replace(" ", "_"))
open(out + "/ewt_dev.tok", "w", encoding="utf-8").write("\n".join(lines) + "\n")
bad = lines[:]; bad[41] = bad[41] + " extra"
open(out + "/ewt_bad.tok", "w", encoding="utf-8").write("\n".join(bad) + "\n")
PY
$PARSE --backend conllu --conllu "$T/ewt_dev.conllu" -i "$T/ewt_dev.tok" -o "$T/ewt.h5" 2> "$T/log" || { cat "$T/log"; fail "import"; }
grep -q "2001 sentences" "$T/log" || { cat "$T/log"; fail "EWT dev should have 2001 sentences"; }
# import then export keeps every head, label and UPOS of the UD file
$PARSE --backend conllu --conllu "$T/ewt_dev.conllu" -i "$T/ewt_dev.tok" -o "$T/ewt.h5" --export-conllu "$T/ewt_export.conllu" 2> "$T/log"
grep -q reused "$T/log" || fail "import cache not reused"
diff <(grep -v '^#' "$T/ewt_dev.conllu" | awk -F'\t' '$1 !~ /[-.]/' | cut -f 4,7,8) <(cut -f 4,7,8 "$T/ewt_export.conllu") > /dev/null || fail "export differs from the UD file"
expect_error "sentence 42 does not match line 42" $PARSE --backend conllu --conllu "$T/ewt_dev.conllu" -i "$T/ewt_bad.tok" -o "$T/ewt_bad.h5"
[ ! -e "$T/ewt_bad.h5" ] || fail "a failed import wrote a cache"
echo "corenlp client and conllu import: all checks passed"
