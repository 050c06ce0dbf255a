"""Reading a run's training record (metrics.jsonl: one JSON object per line, written by synmt-train),
shared by the scripts that read it: the table generator (when a run halved its rate), the
campaign's progress report and the training-curves figure. A line that is not a JSON object is an
error naming the file and the line; blank lines are skipped. The scripts import this module from
this folder (sys.path), as they import table_io."""
import json


class RecordError(ValueError):
    """A metrics.jsonl line that is not a JSON object (or a record a reader cannot use): "file:line: message"."""

    def __init__(self, path, line, message):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


def records(path):
    """(line number, record) for every non-blank line of the file, in file order. A resumed run
    repeats the records since its last training state: readers decide which of them stands."""
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                raise RecordError(path, line_no, f"not a JSON object: {e.msg} (column {e.colno})") from None
            if not isinstance(record, dict):
                raise RecordError(path, line_no, f"not a JSON object: {line.strip()[:40]}")
            yield line_no, record
