#!/usr/bin/env python3
"""ctest corpora_paper_yaml: every built-in corpora file's entries are well formed (URL schemes,
checksums, formats, archives, manual instructions), and the pipeline turns paper corpora into the
right synmt-fetch commands: a dry run of WMT17 En-De's four concatenated training archives and its
SGML test sets, a manual corpus (ASPEC) named once with where to place it, and, with the tools
built, a real run of archive members from fixture archives (file:// URLs, one cached download per
archive) and of the manual corpus, which must fail with the same instruction.
Run from the repository root: check_corpora_paper.py VENV [BIN_DIR]."""
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from urllib.parse import urlparse

import yaml

CORPORA_FILES = ["pipeline/config/corpora.yaml", "pipeline/config/corpora_paper.yaml"]
HEX = {"sha256": re.compile(r"[0-9a-f]{64}"), "md5": re.compile(r"[0-9a-f]{32}")}
FORMAT = re.compile(r"text|sgml|tags|field:-?[0-9]{1,2}")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL", msg)


class UniqueKeyLoader(yaml.SafeLoader):
    """yaml.safe_load keeps the last of two equal keys silently; a corpus defined twice is an error."""

    def construct_mapping(self, node, deep=False):
        keys = [self.construct_object(k, deep=deep) for k, _ in node.value]
        dup = {k for k in keys if keys.count(k) > 1}
        if dup:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key(s) {sorted(dup)}", node.start_mark)
        return super().construct_mapping(node, deep)


def check_url(where, url):
    u = urlparse(url)
    if u.scheme not in ("https", "http", "ftp") or not u.netloc:
        fail(f"{where}: URL '{url}' is not http(s)/ftp")


def check_hex(where, kind, value):
    if value != "" and not (isinstance(value, str) and HEX[kind].fullmatch(value)):
        fail(f"{where}: {kind} '{value}' is neither '' nor lower-case hex of the right length")


def check_relpath(where, path):
    if not isinstance(path, str) or not path or path.startswith("/") or ".." in path.split("/"):
        fail(f"{where}: mirror path '{path}' is not a relative path inside the mirror")


def check_corpora():
    archives_by_path = {}  # mirror path -> (url, checksum, where): one file in the mirror and the cache
    names = {}
    for path in CORPORA_FILES:
        with open(path) as f:
            corpora = yaml.load(f, Loader=UniqueKeyLoader)
        for name, c in corpora.items():
            where = f"{path}: {name}"
            if name in names:
                fail(f"{where}: also defined in {names[name]}")
            names[name] = path
            if set(c) - {"mirror_dir", "url_base", "archives", "files"} or "mirror_dir" not in c or not c.get("files"):
                fail(f"{where}: keys {sorted(c)} (mirror_dir and files required; url_base, archives optional)")
                continue
            archives = c.get("archives", {})
            for an, a in archives.items():
                aw = f"{where}: archive {an}"
                if set(a) - {"mirror", "url", "sha256", "md5", "manual"}:
                    fail(f"{aw}: unknown keys {sorted(set(a) - {'mirror', 'url', 'sha256', 'md5', 'manual'})}")
                check_relpath(aw, a.get("mirror"))
                kinds = [k for k in ("sha256", "md5") if k in a]
                if len(kinds) != 1:
                    fail(f"{aw}: give exactly one of sha256 or md5 ('' when none is published)")
                for k in kinds:
                    check_hex(aw, k, a[k])
                if "url" in a:
                    check_url(aw, a["url"])
                if "manual" in a and not (isinstance(a["manual"], str) and len(a["manual"]) > 20):
                    fail(f"{aw}: manual instruction too short to say how to obtain the file")
                if "url" not in a and "manual" not in a:
                    fail(f"{aw}: neither url nor manual instruction")
                rel = f"{c['mirror_dir']}/{a.get('mirror')}"
                key = (a.get("url"), a.get("sha256"), a.get("md5"))
                if rel in archives_by_path and archives_by_path[rel][0] != key:
                    fail(f"{aw}: mirror path {rel} also used by {archives_by_path[rel][1]} with another URL or checksum")
                archives_by_path.setdefault(rel, (key, aw))
            used, stems = set(), {}
            for fn, e in c["files"].items():
                fw = f"{where}: file {fn}"
                m = re.fullmatch(r"(.+)\.([a-z]{2,3})", fn)
                if not m:
                    fail(f"{fw}: not STEM.LANG")
                    continue
                stems.setdefault(m.group(1), []).append(m.group(2))
                if "sha256" not in e:
                    fail(f"{fw}: no sha256 ('' when none is published)")
                check_hex(fw, "sha256", e.get("sha256", ""))
                if "archive" in e:
                    if set(e) - {"archive", "member", "format", "sha256"} or "member" not in e:
                        fail(f"{fw}: an archive member has archive, member, format, sha256; got {sorted(e)}")
                    if e["archive"] not in archives:
                        fail(f"{fw}: archive '{e['archive']}' is not in the corpus' archives")
                    used.add(e["archive"])
                    if not FORMAT.fullmatch(str(e.get("format", "text"))):
                        fail(f"{fw}: format '{e.get('format')}' is not text, sgml, tags or field:N")
                else:
                    if set(e) - {"mirror", "remote", "sha256", "manual"} or "mirror" not in e:
                        fail(f"{fw}: a plain file has mirror, remote, sha256 (manual); got {sorted(e)}")
                    check_relpath(fw, e.get("mirror"))
                    if "remote" in e:
                        check_url(fw, f"{c.get('url_base', '')}/{e['remote']}")
                    elif not e.get("manual"):
                        fail(f"{fw}: neither remote nor manual instruction")
            for an in set(archives) - used:
                fail(f"{where}: archive {an} is used by no file")
            for stem, langs in stems.items():
                if len(langs) < 2:
                    fail(f"{where}: stem {stem} has only one side ({langs})")
    return names


def snakemake(venv, args, cwd="."):
    r = subprocess.run([f"{venv}/bin/snakemake", "--nolock", *args], cwd=cwd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def write_config(path, work, mirror, pairs, corpora=None):
    cfg = {"mirror": mirror, "work_dir": f"{work}/work", "results_dir": f"{work}/results", "pairs": pairs}
    if corpora:
        cfg["corpora"] = [corpora]
    with open(path, "w") as f:
        yaml.safe_dump(cfg, f)


PAIR_DEFAULTS = {"tokenizer": "moses", "clean": {"min": 1, "max": 80, "ratio": 9.0},
                 "bpe": {"mode": "joint", "merges": 8000, "min_frequency": 2}, "vocab": {"min_frequency": 1, "max_size": 0}}


def check_dry_run(venv, tmp):
    wmt = "wmt17_en_de_paper"
    pairs = {
        wmt: {**PAIR_DEFAULTS, "corpus": "europarl-v7", "src": "en", "tgt": "de", "splits": {
            "train": [{"corpus": c, "stem": "de-en"} for c in ("europarl-v7", "commoncrawl", "news-commentary-v12", "rapid2016")],
            "valid": {"corpus": "wmt-newstest-de-en-sgm", "stem": "newstest2015"},
            "test": {"corpus": "wmt-newstest-de-en-sgm", "stem": "newstest2016"}}},
        "aspec_ja_en": {**PAIR_DEFAULTS, "corpus": "aspec-je", "src": "ja", "tgt": "en",
                        "splits": {"train": ["train-1", "train-2"], "valid": "dev", "test": "test"}},
    }
    empty_mirror = f"{tmp}/empty_mirror"
    os.makedirs(empty_mirror, exist_ok=True)
    write_config(f"{tmp}/paper.yaml", tmp, empty_mirror, pairs)
    W = f"{tmp}/work"
    targets = [f"{W}/{p}/raw/{s}.src" for p in pairs for s in ("train", "valid", "test")]
    # targets first: --configfile and --config take every value up to the next option
    rc, out = snakemake(venv, [*targets, "-n", "-p", "--configfile", f"{tmp}/paper.yaml"])
    if rc != 0:
        print(out)
        fail("the paper corpora do not dry-run")
        return
    expect = [
        f"--cache-dir {W}/downloads",
        "--archive-file paper/statmt/wmt13/training-parallel-europarl-v7.tgz https://www.statmt.org/wmt13/training-parallel-europarl-v7.tgz "
        f"0224c7c710c8a063dfd893b0cc0830202d61f4c75c17eb8e31836103d27d96e7 training/europarl-v7.de-en.en text - {W}/{wmt}/raw/train.src.0",
        "--archive-file paper/statmt/wmt13/training-parallel-commoncrawl.tgz https://www.statmt.org/wmt13/training-parallel-commoncrawl.tgz "
        f"c7a74e2ea01ac6c920123108627e35278d4ccb5701e15428ffa34de86fa3a9e5 commoncrawl.de-en.de text - {W}/{wmt}/raw/train.tgt.1",
        f"training/news-commentary-v12.de-en.en text - {W}/{wmt}/raw/train.src.2",
        f"rapid2016.de-en.de text - {W}/{wmt}/raw/train.tgt.3",
        f"cat {W}/{wmt}/raw/train.src.0 {W}/{wmt}/raw/train.src.1 {W}/{wmt}/raw/train.src.2 {W}/{wmt}/raw/train.src.3 > {W}/{wmt}/raw/train.src.all",
        "--archive-file paper/statmt/wmt17/dev.tgz https://data.statmt.org/wmt17/translation-task/dev.tgz md5:9b1aa63c1cf49dccdd20b962fe313989 "
        f"dev/newstest2015-deen-ref.en.sgm sgml - {W}/{wmt}/raw/valid.src.0",
        "--archive-file paper/statmt/wmt16/test.tgz https://data.statmt.org/wmt16/translation-task/test.tgz md5:3d809cd0c2c86adb2c67034d15c4e446 "
        f"test/newstest2016-deen-src.de.sgm sgml - {W}/{wmt}/raw/test.tgt.0",
        "--manual paper/aspec/ASPEC.zip 'ASPEC is distributed under a licence agreement",
        f"--archive-file paper/aspec/ASPEC.zip - - ASPEC/ASPEC-JE/train/train-2.txt field:-2 - {W}/aspec_ja_en/raw/train.src.1",
    ]
    for e in expect:
        if e not in out:
            fail(f"dry run: the synmt-fetch commands lack: {e}")
    notice = f"needs a manual download: ASPEC is distributed under a licence agreement"
    place = f"place it at {empty_mirror}/paper/aspec/ASPEC.zip"
    lines = [l for l in out.splitlines() if notice in l and place in l and l.startswith("synmt: corpus aspec-je")]
    if len(lines) != 1:
        fail(f"dry run: the ASPEC instruction is printed {len(lines)} times, not once")
    if failures:
        print(out)


def check_real_run(venv, tmp, bin_dir):
    """Fixture archives behind file:// URLs through the real rules and synmt-fetch."""
    remote, W = f"{tmp}/remote", f"{tmp}/run/work"
    os.makedirs(remote, exist_ok=True)

    def add(tf, name, text):
        data = text.encode()
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))

    with tarfile.open(f"{remote}/train.tgz", "w:gz") as tf:
        add(tf, "training/a.de-en.de", "a1\na2\na3\n")
        add(tf, "training/a.de-en.en", "A1\nA2\nA3\n")
        add(tf, "training/b.de-en.de", "b1\n")
        add(tf, "training/b.de-en.en", "B1\n")
    def sgm(segs):
        return "".join(f'<seg id="{i}">{s}</seg>\n' for i, s in enumerate(segs, 1))

    with zipfile.ZipFile(f"{remote}/dev.zip", "w") as z:
        z.writestr("dev/nt-src.de.sgm", sgm(["x &amp; y", "z"]))
        z.writestr("dev/nt-ref.en.sgm", sgm(["X  &amp;\tY", "Z"]))
    url = f"file://{os.path.abspath(remote)}"
    corpora = {"fixture-archives": {"mirror_dir": "fixture", "archives": {
        "train": {"mirror": "train.tgz", "url": f"{url}/train.tgz", "sha256": ""},
        "dev": {"mirror": "dev.zip", "url": f"{url}/dev.zip", "md5": ""}}, "files": {
        "a.de": {"archive": "train", "member": "training/a.de-en.de", "sha256": ""},
        "a.en": {"archive": "train", "member": "training/a.de-en.en", "sha256": ""},
        "b.de": {"archive": "train", "member": "training/b.de-en.de", "sha256": ""},
        "b.en": {"archive": "train", "member": "training/b.de-en.en", "sha256": ""},
        "nt.de": {"archive": "dev", "member": "dev/nt-src.de.sgm", "format": "sgml", "sha256": ""},
        "nt.en": {"archive": "dev", "member": "dev/nt-ref.en.sgm", "format": "sgml", "sha256": ""}}}}
    with open(f"{tmp}/fixture_corpora.yaml", "w") as f:
        yaml.safe_dump(corpora, f)
    pairs = {"fixture_de_en": {**PAIR_DEFAULTS, "corpus": "fixture-archives", "src": "de", "tgt": "en",
                               "splits": {"train": ["a", "b"], "valid": "nt", "test": "nt"}},
             "aspec_ja_en": {**PAIR_DEFAULTS, "corpus": "aspec-je", "src": "ja", "tgt": "en",
                             "splits": {"train": "train-1", "valid": "dev", "test": "test"}}}
    empty_mirror = f"{tmp}/empty_mirror"
    write_config(f"{tmp}/run.yaml", f"{tmp}/run", empty_mirror, pairs, f"{tmp}/fixture_corpora.yaml")
    P = f"{W}/fixture_de_en/raw"
    rc, out = snakemake(venv, [*[f"{P}/{s}.{side}" for s in ("train", "valid", "test") for side in ("src", "tgt")],
                               "--cores", "1", "--configfile", f"{tmp}/run.yaml", "--config", f"bin_dir={bin_dir}"])
    if rc != 0:
        print(out)
        fail("fetching fixture archive members through the pipeline failed")
        return
    want = {"train.src": "a1\na2\na3\nb1\n", "train.tgt": "A1\nA2\nA3\nB1\n", "valid.src": "x & y\nz\n", "test.tgt": "X & Y\nZ\n"}
    for name, text in want.items():
        got = open(f"{P}/{name}").read()
        if got != text:
            fail(f"real run: {name} is {got!r}, expected {text!r}")
    logs = "".join(open(f"{W}/logs/fetch/fixture_de_en.{s}.log").read() for s in ("train", "valid", "test"))
    downloads = logs.count("into the download cache")
    if downloads != 2 or "dev.zip from the download cache" not in logs:
        fail(f"real run: {downloads} downloads for 2 archives (valid and test must reuse the cached dev.zip):\n{logs}")
    # the manual corpus fails with the instruction, naming the file and where to place it
    rc, out = snakemake(venv, [f"{W}/aspec_ja_en/raw/test.src", "--cores", "1", "--configfile", f"{tmp}/run.yaml",
                               "--config", f"bin_dir={bin_dir}"])
    log = open(f"{W}/logs/fetch/aspec_ja_en.test.log").read() if os.path.exists(f"{W}/logs/fetch/aspec_ja_en.test.log") else ""
    want = (f"synmt-fetch: error: paper/aspec/ASPEC.zip: needs a manual download: ASPEC is distributed under a licence "
            f"agreement")
    if rc == 0 or want not in log or f"(place it at {empty_mirror}/paper/aspec/ASPEC.zip)" not in log:
        print(out, log)
        fail("real run: the manual corpus does not fail with its instruction")


def main():
    venv = sys.argv[1]
    bin_dir = sys.argv[2] if len(sys.argv) > 2 else None
    names = check_corpora()
    print(f"{len(names)} corpora checked")
    with tempfile.TemporaryDirectory() as tmp:
        check_dry_run(venv, tmp)
        if not bin_dir or not os.path.exists(f"{bin_dir}/synmt-fetch"):
            fail(f"no synmt-fetch in {bin_dir}: the real run cannot be made (build synmt-fetch first)")
        else:
            check_real_run(venv, tmp, os.path.abspath(bin_dir))
    if failures:
        print(f"{len(failures)} failed")
        sys.exit(1)
    print("corpora_paper_yaml: passed")


if __name__ == "__main__":
    main()
