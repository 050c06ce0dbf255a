# docs_tables.py: a page's generated blocks are replaced by the DAG's tables, the page's prose kept.
import pytest

import docs_tables

GENERATED = """# SA-NMT Table 3 (mini): attachment

Experiment `sa_nmt.mini`, scale **mini**: new header.
Training reached (epochs / updates per run): sa_shared 20 / 18140.

| system | EN(→DE) DA |
|---|---|
| SA-NMT shared | 14.20 |

Seed groups: mean ± sample standard deviation (n − 1) over the runs.
Reproduction tally: 1 comparison with a paper difference: 1 agrees.
"""

PAGE = """# SA-NMT, mini

## Table 3

Experiment `sa_nmt.mini`, scale **mini**: old header.
Training reached (epochs / updates per run): sa_shared 10 / 9070.

<!-- table: sa_nmt_table3_en_de -->
| system | EN(→DE) DA |
|---|---|
| SA-NMT shared | 13.61 |

An old note.
<!-- /table -->

Our reading stays.
"""


def setup(tmp_path, page=PAGE):
    (tmp_path / "results" / "sa_nmt.mini" / "tables").mkdir(parents=True)
    (tmp_path / "results" / "sa_nmt.mini" / "tables" / "sa_nmt_table3_en_de.md").write_text(GENERATED)
    path = tmp_path / "sa_nmt.mini.md"
    path.write_text(page)
    return str(path), str(tmp_path / "results")


def test_the_block_becomes_the_generated_table_and_the_prose_stays(tmp_path):
    page, results = setup(tmp_path)
    text, skipped = docs_tables.process(page, results)
    assert skipped == []
    assert "old header" not in text and "13.61" not in text and "An old note." not in text
    assert ("## Table 3\n\nExperiment `sa_nmt.mini`, scale **mini**: new header.\nTraining reached (epochs / updates per run): "
            "sa_shared 20 / 18140.\n\n<!-- table: sa_nmt_table3_en_de -->\n| system | EN(→DE) DA |\n|---|---|\n"
            "| SA-NMT shared | 14.20 |\n\nSeed groups: mean ± sample standard deviation (n − 1) over the runs.\n"
            "<!-- /table -->\n\nOur reading stays.\n") in text
    assert "Reproduction tally" not in text  # docs_verdicts writes it under the table
    kept, skipped = docs_tables.process(page, str(tmp_path / "elsewhere"))  # no runs here: the page as it was
    assert skipped == ["sa_nmt_table3_en_de"] and kept == PAGE


def test_a_block_without_its_end_marker_is_refused(tmp_path):
    page, results = setup(tmp_path, PAGE.replace("<!-- /table -->\n", ""))
    with pytest.raises(SystemExit, match="has no '<!-- /table -->' line"):
        docs_tables.process(page, results)
