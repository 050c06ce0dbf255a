# Helpers of fetch.smk (Snakemake's linter wants rules and functions in separate files).


def split_spec(pair, split):
    """What one split is made of: a stem of the pair's corpus, {corpus, stem}, or a list of those
    (concatenated in order, e.g. several training corpora)."""
    spec = PAIRS[pair]
    if "resplit" in spec and split == "test" and not from_pool(pair, split):
        return spec["resplit"]["test_source"]
    if split in ("train", "valid", "test"):
        return spec["splits"][split]
    if split in spec.get("test_sets", {}):
        return spec["test_sets"][split]
    raise ValueError(f"pairs.{pair}: no split '{split}'")


def from_pool(pair, split):
    """Whether a split is cut from the pair's resplit pool (train, valid, and test unless the
    resplit names an external test_source) rather than fetched from the corpora."""
    r = PAIRS[pair].get("resplit")
    return r is not None and (split in ("train", "valid") or (split == "test" and r["test"] > 0))


def split_sources(pair, split=None, spec=None):
    """[(corpus, stem)] of one split (or of a split spec), in concatenation order."""
    spec = split_spec(pair, split) if spec is None else spec
    out = []
    for item in spec if isinstance(spec, list) else [spec]:
        if isinstance(item, str):
            out.append((PAIRS[pair]["corpus"], item))
        elif isinstance(item, dict) and set(item) == {"corpus", "stem"}:
            if item["corpus"] not in CORPORA:
                raise ValueError(f"pairs.{pair}: split source corpus '{item['corpus']}' is in no corpora file")
            out.append((item["corpus"], item["stem"]))
        else:
            raise ValueError(f"pairs.{pair}: a split source is a stem or {{corpus, stem}}, not {item!r}")
    return out


def corpus_entry(corpus, name):
    """One corpus file as synmt-fetch takes it: (mirror relpath, URL, sha256, archive checksum,
    member, format, manual instruction). The first three are --file's RELPATH URL SHA256 for a plain
    file; for an archive member they are the archive's path and URL and the member text's sha256,
    and the archive's checksum, the member and its format follow (None for a plain file). Absent
    URLs and checksums are '-'. A file that needs a manual download and is not in the mirror is
    named once, with where to place it, while the DAG is built."""
    c = CORPORA[corpus]
    if name not in c["files"]:
        raise ValueError(f"{CORPUS_FILE[corpus]}: corpus {corpus} has no file {name}")
    e = c["files"][name]
    sha = e.get("sha256") or "-"
    if "archive" not in e:
        url = f"{c['url_base']}/{e['remote']}" if "remote" in e else "-"
        relpath, archive_sum, member, fmt, manual = f"{c['mirror_dir']}/{e['mirror']}", None, None, None, e.get("manual")
    else:
        a = c.get("archives", {}).get(e["archive"])
        if a is None:
            raise ValueError(f"{CORPUS_FILE[corpus]}: corpus {corpus} file {name}: no archive '{e['archive']}' in its archives")
        relpath, url, manual = f"{c['mirror_dir']}/{a['mirror']}", a.get("url") or "-", a.get("manual")
        archive_sum = a.get("sha256") or (f"md5:{a['md5']}" if a.get("md5") else "-")
        member, fmt = e["member"], e.get("format", "text")
    if manual and url == "-" and not (config["mirror"] and os.path.exists(os.path.join(config["mirror"], relpath))):
        announced = corpus_entry.__dict__.setdefault("announced", set())
        if relpath not in announced:
            announced.add(relpath)
            where = os.path.join(config["mirror"], relpath) if config["mirror"] else f"MIRROR/{relpath} (config mirror is '')"
            print(f"synmt: corpus {corpus} ({CORPUS_FILE[corpus]}) needs a manual download: {manual}; place it at {where}",
                  file=sys.stderr)
    return relpath, url, sha, archive_sum, member, fmt, manual


def fetch_flags(sources, lang, out):
    """synmt-fetch flags that fetch every source's `lang` side into OUT.0, OUT.1, ...; the rule
    concatenates them in order. A plain file is a --file, an archive member an --archive-file; a
    file that needs a manual download adds its --manual instruction. Downloads go to the work
    dir's cache, so the members of one archive (both sides, every split) are downloaded once."""
    import shlex

    q = shlex.quote
    flags, manuals = [f"--cache-dir {q(os.path.join(WORK, 'downloads'))}"], set()
    for k, (corpus, stem) in enumerate(sources):
        mirror, url, sha, archive_sum, member, fmt, manual = corpus_entry(corpus, f"{stem}.{lang}")
        if manual and mirror not in manuals:
            manuals.add(mirror)
            flags.append(f"--manual {q(mirror)} {q(manual)}")
        if member is None:
            flags.append(f"--file {q(mirror)} {q(url)} {q(sha)} {q(f'{out}.{k}')}")
        else:
            flags.append(f"--archive-file {q(mirror)} {q(url)} {q(archive_sum)} {q(member)} {q(fmt)} {q(sha)} {q(f'{out}.{k}')}")
    return " ".join(flags)


def fetch_sources_command(pair, sources, output, slice_n=0):
    """Shell command: fetch every source's src and tgt side, concatenate them in order into
    output.src / output.tgt, and keep the first slice_n lines if slice_n > 0."""
    spec = PAIRS[pair]
    steps = [f"{BIN}/synmt-fetch --mirror '{config['mirror']}' {fetch_flags(sources, spec['src'], output.src)}"
             f" {fetch_flags(sources, spec['tgt'], output.tgt)}"]
    for out in (output.src, output.tgt):
        parts = " ".join(f"{out}.{k}" for k in range(len(sources)))
        steps.append(f"cat {parts} > {out}.all && rm {parts} && {keep_lines(f'{out}.all', out, slice_n)} && rm {out}.all")
    return " && ".join(steps)


def keep_lines(inp, out, slice_n):
    # not `cat | head`: head exiting early fails the pipe under pipefail
    return f"head -n {slice_n} {inp} > {out}" if slice_n > 0 else f"cp {inp} {out}"


def fetch_split_command(w, output):
    """The shell command that makes raw/{split}.{src,tgt}: fetched sources concatenated (or the
    split of a resplit pair's pool), then cut to the pair's first N lines if it asks (`slice`)."""
    slice_n = PAIR[w.pair].slice
    if from_pool(w.pair, w.split):
        pool = f"{WORK}/{w.pair}/pool"
        return " && ".join(keep_lines(f"{pool}/{w.split}.{side}", out, slice_n) for side, out in (("src", output.src), ("tgt", output.tgt)))
    return fetch_sources_command(w.pair, split_sources(w.pair, w.split), output, slice_n)
