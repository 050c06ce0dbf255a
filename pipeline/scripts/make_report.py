#!/usr/bin/env python3
"""One report page (DIR/index.md and a self-contained DIR/index.html) gathering results tables and
figures, with the date, commit, hardware and scale they were measured at in its header, so that a run
can be read and shared as one document.

The tables are the Markdown files the make_*_table.py scripts write (a "# title", a pipe table with
a header and a |---| separator line, notes); the HTML page converts them (headings, pipe tables,
paragraphs, lists, `code`, **bold**, [links](url)). Figures are copied into DIR/figures/ and referenced
by relative path. The page never reads the clock (the date is META's), so the same inputs give
byte-identical outputs.

  make_report.py --title T --table NAME=MD_PATH [...] --figure CAPTION=PNG_PATH[::PAPER_REF] [...]
                 --meta META.json --out-dir DIR
  META.json: {"date": ..., "commit": ..., "hardware": ..., "scale": ...} (other keys are listed too)
"""
import argparse
import html
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "plots"))
from script_io import InputError, replace_atomically, run  # noqa: E402  (the plots' error, exit and atomic writes)

META_KEYS = ("date", "commit", "hardware", "scale")
SEPARATOR = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
CSS = """body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #bbb;padding:.25rem .5rem}
th{background:#eee}tr:nth-child(even) td{background:#f8f8f8}code{background:#f2f2f2;padding:0 .2rem}
dl.meta{display:grid;grid-template-columns:max-content auto;gap:.2rem 1rem}dl.meta dt{font-weight:bold}
figure{margin:1.5rem 0}figure img{max-width:100%;border:1px solid #ddd}figcaption{margin-top:.4rem}
.ref{color:#666;font-style:italic}.table-wrap{overflow-x:auto}"""


def inline(text):
    """Markdown inline markup to HTML: `code`, **bold**, [text](url); everything else escaped."""
    out = []
    for i, part in enumerate(re.split(r"(`[^`]*`)", text)):
        if i % 2:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        part = html.escape(part)
        part = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", part)
        part = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', part)
        out.append(part)
    return "".join(out)


def cells(line):
    """A pipe-table row's cells (outer pipes optional, \\| an escaped pipe)."""
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)]


def markdown_to_html(text, path, heading_shift):
    """The subset of Markdown the table files use, as HTML; headings moved down heading_shift levels."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif m := re.match(r"^(#{1,6})\s+(.*)$", line):
            level = min(6, len(m.group(1)) + heading_shift)
            out.append(f"<h{level}>{inline(m.group(2).strip())}</h{level}>")
            i += 1
        elif line.lstrip().startswith("|"):
            if i + 1 >= len(lines) or not SEPARATOR.match(lines[i + 1].strip()):
                raise InputError(path, i + 1, "a table row without a header and a |---| separator line before it")
            header = cells(line)
            aligns = []
            for c in cells(lines[i + 1]):
                aligns.append("center" if c.startswith(":") and c.endswith(":") else
                              "right" if c.endswith(":") else "left" if c.startswith(":") else "")
            if len(aligns) != len(header):
                raise InputError(path, i + 2, f"separator has {len(aligns)} columns, the header {len(header)}")
            style = [f' style="text-align:{a}"' if a else "" for a in aligns]
            rows = ["<tr>" + "".join(f"<th{s}>{inline(c)}</th>" for c, s in zip(header, style)) + "</tr>"]
            i += 2
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                row = cells(lines[i])
                if len(row) != len(header):
                    raise InputError(path, i + 1, f"table row has {len(row)} cells, the header {len(header)}")
                rows.append("<tr>" + "".join(f"<td{s}>{inline(c)}</td>" for c, s in zip(row, style)) + "</tr>")
                i += 1
            out.append('<div class="table-wrap"><table>\n' + "\n".join(rows) + "\n</table></div>")
        elif re.match(r"^\s*[-*]\s+", line):
            items = []
            while i < len(lines) and re.match(r"^\s*[-*]\s+", lines[i]):
                items.append("<li>" + inline(re.sub(r"^\s*[-*]\s+", "", lines[i])) + "</li>")
                i += 1
            out.append("<ul>\n" + "\n".join(items) + "\n</ul>")
        else:
            para = [line.strip()]
            i += 1
            while i < len(lines) and lines[i].strip() and not re.match(r"^(#{1,6}\s|\s*\||\s*[-*]\s)", lines[i]):
                para.append(lines[i].strip())
                i += 1
            out.append(f"<p>{inline(' '.join(para))}</p>")
    return "\n".join(out)


def shift_headings(text, shift):
    return re.sub(r"^(#{1,6})(?=\s)", lambda m: "#" * min(6, len(m.group(1)) + shift), text, flags=re.M)


def read_meta(path):
    try:
        with open(path, encoding="utf-8") as f:
            meta = json.load(f)
    except json.JSONDecodeError as e:
        raise InputError(path, e.lineno, f"not valid JSON: {e.msg}") from None
    if not isinstance(meta, dict):
        raise InputError(path, 0, "expected a JSON object")
    missing = [k for k in META_KEYS if k not in meta]
    if missing:
        raise InputError(path, 0, f"missing {', '.join(missing)} (needs {', '.join(META_KEYS)})")
    keys = list(META_KEYS) + sorted(k for k in meta if k not in META_KEYS)
    return [(k, v if isinstance(v, str) else json.dumps(v, sort_keys=True)) for k, v in ((k, meta[k]) for k in keys)]


def write_atomically(path, text):
    replace_atomically(path, lambda f: f.write(text.encode("utf-8")), mode="wb")


def copy_atomically(src, dst):
    with open(src, "rb") as f:
        data = f.read()
    replace_atomically(dst, lambda out: out.write(data), mode="wb")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--title", required=True)
    parser.add_argument("--table", nargs="*", default=[], metavar="NAME=MD_PATH")
    parser.add_argument("--figure", nargs="*", default=[], metavar="CAPTION=PNG_PATH[::PAPER_REF]")
    parser.add_argument("--meta", required=True, metavar="META.json")
    parser.add_argument("--out-dir", required=True, metavar="DIR")
    args = parser.parse_args()
    tables, figures = [], []
    for v in args.table:
        name, sep, path = v.partition("=")
        if not (sep and name and path):
            parser.error(f"--table: expected NAME=MD_PATH, got '{v}'")
        tables.append((name, path))
    for v in args.figure:
        caption, sep, rest = v.partition("=")
        path, _, ref = rest.partition("::")
        if not (sep and caption and path):
            parser.error(f"--figure: expected CAPTION=PNG_PATH[::PAPER_REF], got '{v}'")
        figures.append((caption, path, ref))

    meta = read_meta(args.meta)
    md = [f"# {args.title}", ""] + [f"- **{k}**: {v}" for k, v in meta] + [""]
    body = [f"<h1>{html.escape(args.title)}</h1>", '<dl class="meta">'] + \
           [f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in meta] + ["</dl>"]
    if tables:
        md += ["## Tables", ""]
        body.append("<h2>Tables</h2>")
    for name, path in tables:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        md += [f"### {name}", "", shift_headings(text, 3).rstrip("\n"), ""]
        body += [f'<section id="table-{html.escape(name)}">', f"<h3>{html.escape(name)}</h3>",
                 markdown_to_html(text, path, 3), "</section>"]
    if figures:
        md += ["## Figures", ""]
        body.append("<h2>Figures</h2>")
    used, copies = set(), []
    for k, (caption, path, ref) in enumerate(figures, 1):
        if not os.path.isfile(path):
            raise InputError(path, 0, "figure not found")
        base = os.path.basename(path)
        target = base
        while target in used:  # two figures of one name from two folders
            target = f"{k}-{target}"
        used.add(target)
        copies.append((path, target))
        label = f"Figure {k}. {caption}"
        md += [f"![{caption}](figures/{target})", "", f"*{label}*" + (f" ({ref})" if ref else ""), ""]
        body.append(f'<figure><img src="figures/{html.escape(target)}" alt="{html.escape(caption)}">'
                    f"<figcaption>{html.escape(label)}" +
                    (f' <span class="ref">({html.escape(ref)})</span>' if ref else "") + "</figcaption></figure>")
    page = ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(args.title)}</title>\n<style>\n{CSS}\n</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")
    fig_dir = os.path.join(args.out_dir, "figures")  # written only once every input has been read
    os.makedirs(fig_dir, exist_ok=True)
    for path, target in copies:
        copy_atomically(path, os.path.join(fig_dir, target))
    write_atomically(os.path.join(args.out_dir, "index.md"), "\n".join(md).rstrip("\n") + "\n")
    write_atomically(os.path.join(args.out_dir, "index.html"), page)


if __name__ == "__main__":
    run(main)
