# metrics_io.records: the one reader of a run's metrics.jsonl (table generator, campaign progress,
# curves figure): every record in file order with its line number, blank lines skipped, a line that
# is not a JSON object refused with the file and the line.
import pytest

import metrics_io


def test_records_in_file_order_with_their_line_numbers(tmp_path):
    path = tmp_path / "metrics.jsonl"
    path.write_text('{"type": "train", "step": 1}\n\n{"type": "valid", "step": 2, "valid_ppl": 9.5}\n')
    assert list(metrics_io.records(str(path))) == [
        (1, {"type": "train", "step": 1}), (3, {"type": "valid", "step": 2, "valid_ppl": 9.5})]


@pytest.mark.parametrize("bad, message", [('{"type": "train", "step":', "not a JSON object: Expecting value"),
                                          ("[1, 2]", "not a JSON object: [1, 2]")])
def test_a_line_that_is_not_an_object_names_file_and_line(tmp_path, bad, message):
    path = tmp_path / "metrics.jsonl"
    path.write_text('{"type": "train", "step": 1}\n' + bad + "\n")
    with pytest.raises(metrics_io.RecordError) as error:
        list(metrics_io.records(str(path)))
    assert str(error.value).startswith(f"{path}:2: {message}")
    assert (error.value.path, error.value.line) == (str(path), 2)


def test_the_campaign_and_the_table_generator_stop_on_a_bad_record(tmp_path):
    import campaign
    import make_table
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.jsonl").write_text('{"epoch": 1, "valid_ppl": 30.0, "type": "valid", "step": 5, "lr": 1}\nnot json\n')
    (run / "config.json").write_text('{"train": {"halve_lr_on_plateau": true}}')
    for read in (lambda: campaign.run_state(str(run), 10), lambda: make_table.lr_halvings(str(run))):
        with pytest.raises(SystemExit) as stop:
            read()
        assert str(stop.value).startswith(f"{run}/metrics.jsonl:2: not a JSON object")
