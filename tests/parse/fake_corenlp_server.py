#!/usr/bin/env python3
"""A loopback stand-in for a Stanford CoreNLP server (CoreNLP itself cannot be installed here).

It answers POST /?properties={...} like StanfordCoreNLPServer with outputFormat=json: one
"sentences" entry per input line (ssplit.eolonly), whitespace tokens (tokenize.whitespace), each
sentence with "index", "basicDependencies" (dep/governor/governorGloss/dependent/dependentGloss,
ROOT first, as the server orders them) and "tokens" (index/word/originalText/characterOffsetBegin/
characterOffsetEnd/pos/before/after). The tree is a deterministic right-branching chain, the tags
are deterministic, so the client's cache can be checked exactly.

Modes (argv[2]): ok | error500 (always HTTP 500) | flaky (first request 500, then ok) |
slow (sleeps 5 s) | split (the first line comes back as two sentences) | properties (HTTP 400
unless the request asks for the properties the client must send).
Writes the port it listens on to argv[1].
"""
import json
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer

MODE = sys.argv[2] if len(sys.argv) > 2 else "ok"
REQUIRED = {"annotators": "tokenize,ssplit,pos,depparse", "tokenize.whitespace": "true",
            "ssplit.eolonly": "true", "outputFormat": "json"}
TAGS = ["DT", "NN", "VBZ", "IN", "JJ"]
state = {"requests": 0}


def sentence_json(index, words):
    tokens, deps, offset = [], [], 0
    for k, w in enumerate(words, start=1):
        tokens.append({"index": k, "word": w, "originalText": w, "characterOffsetBegin": offset,
                       "characterOffsetEnd": offset + len(w), "pos": TAGS[(k + len(w)) % len(TAGS)],
                       "before": "" if k == 1 else " ", "after": " " if k < len(words) else ""})
        offset += len(w) + 1
    # chain: word 1 is the root, word k attaches to k-1
    deps.append({"dep": "ROOT", "governor": 0, "governorGloss": "ROOT", "dependent": 1, "dependentGloss": words[0]})
    for k in range(2, len(words) + 1):
        deps.append({"dep": "dep" if k % 2 else "amod", "governor": k - 1, "governorGloss": words[k - 2],
                     "dependent": k, "dependentGloss": words[k - 1]})
    return {"index": index, "basicDependencies": deps, "enhancedDependencies": deps,
            "enhancedPlusPlusDependencies": deps, "tokens": tokens}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body, ctype="application/json"):
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        state["requests"] += 1
        text = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode("utf-8")
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        props = json.loads(query.get("properties", ["{}"])[0])
        if MODE == "error500" or (MODE == "flaky" and state["requests"] == 1):
            return self.reply(500, "java.lang.RuntimeException: out of memory", "text/plain")
        if MODE == "slow":
            time.sleep(5)
        if any(props.get(k) != v for k, v in REQUIRED.items()):
            return self.reply(400, "missing properties: " + json.dumps(props), "text/plain")
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        sentences = []
        for i, line in enumerate(lines):
            words = line.split(" ")
            if MODE == "split" and i == 0 and len(words) > 1:
                sentences.append(sentence_json(len(sentences), words[:1]))
                sentences.append(sentence_json(len(sentences), words[1:]))
            else:
                sentences.append(sentence_json(len(sentences), words))
        self.reply(200, json.dumps({"sentences": sentences}))


server = HTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
