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


def write_table(csv_path, md_path, title, cols, rows, notes=()):
    """rows: dicts keyed by the column names (missing cells are empty); notes: lines after the table."""
    def write_csv(f):
        w = csv.DictWriter(f, fieldnames=cols, restval="")
        w.writeheader()
        w.writerows(rows)

    lines = [f"# {title}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(r.get(c, "")) for c in cols) + " |" for r in rows]
    lines += ["", *notes]
    _replace(csv_path, write_csv)
    _replace(md_path, lambda f: f.write("\n".join(lines) + "\n"))
