# scripts/check_results_docs.py: paper numbers on a results page come from the paper's YAML only
import importlib.util
import os

from conftest import ROOT

spec = importlib.util.spec_from_file_location("check_results_docs", os.path.join(ROOT, "scripts", "check_results_docs.py"))
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)

PAPER = """tables:
  table1:
    rows:
      SEQ: {bleu: {value: 15.37, sd: 1.18}}
      LGP: {bleu: {value: 14.31, sd: 1.49}}
"""


def errors_of(tmp_path, page_text):
    (tmp_path / "papers").mkdir(exist_ok=True)
    (tmp_path / "papers" / "toy.yaml").write_text(PAPER)
    (tmp_path / "docs").mkdir(exist_ok=True)
    page = tmp_path / "docs" / "toy.mini.md"
    page.write_text(page_text)
    errors = []
    check.check_page(str(page), str(tmp_path / "papers"), errors)
    return errors


def test_a_paper_sentence_may_quote_the_papers_values_but_not_a_difference_or_our_numbers(tmp_path):
    assert errors_of(tmp_path, "The paper has LGP at 14.31 ± 1.49 and SEQ at 15.37.\n") == []
    errors = errors_of(tmp_path, "The paper has LGP below SEQ by 1.06, here above by 0.74.\n")
    assert [e.split("'")[1] for e in errors] == ["1.06", "0.74"]
    # a sentence that does not attribute anything to the paper is the page's own
    assert errors_of(tmp_path, "Here LGP is above SEQ by 0.74.\n") == []


def test_section_numbers_and_p_values_are_no_paper_numbers(tmp_path):
    assert errors_of(tmp_path, "Paper column: Section 6.2 (text) of the paper, p = 0.25.\n") == []
    assert errors_of(tmp_path, "The paper's §6.2 has 14.31.\n") == []
    assert len(errors_of(tmp_path, "The paper's Section 6.2 has 14.32.\n")) == 1
