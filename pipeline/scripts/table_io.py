"""Writing a results table as CSV and Markdown, each atomically (a temporary file renamed), shared
by the make_*_table.py scripts. Snakemake runs those scripts with __file__ set to their real path,
so they import this module from their own folder."""
import csv
import os


def _replace(path, write):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        write(f)
    os.replace(tmp, path)


def write_table(csv_path, md_path, title, cols, rows, notes=(), header=(), csv_cols=None, csv_rows=None):
    """rows: dicts keyed by the column names (missing cells are empty); header: lines between the
    title and the table; notes: lines after it. The CSV holds `rows` under `cols` unless a
    separate (long-format) csv_cols / csv_rows is given."""
    csv_cols = cols if csv_cols is None else csv_cols
    csv_rows = rows if csv_rows is None else csv_rows

    def write_csv(f):
        w = csv.DictWriter(f, fieldnames=csv_cols, restval="", lineterminator="\n")
        w.writeheader()
        w.writerows(csv_rows)

    def cell(x):
        return str(x).replace("|", "\\|")

    lines = [f"# {title}", ""]
    if header:
        lines += [*header, ""]
    lines += ["| " + " | ".join(cell(c) for c in cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(cell(r.get(c, "")) for c in cols) + " |" for r in rows]
    if notes:
        lines += ["", *notes]
    _replace(csv_path, write_csv)
    _replace(md_path, lambda f: f.write("\n".join(lines) + "\n"))
