"""What the plots, the analysis scripts and the report page share, without matplotlib (a script that
only reads and writes files need not load it): the "file:line: message" error every synmt tool
prints, the exit on it, and atomic writes."""
import os
import sys


class InputError(Exception):
    """Bad input, reported as the C++ tools report it: "file:line: message" (line 0: the whole file)."""

    def __init__(self, path, line, message):
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


def run(main):
    """Call main(); an InputError (or a missing/unreadable file) ends the process with one clear line
    on stderr and exit status 1."""
    prog = os.path.basename(sys.argv[0])
    try:
        main()
    except InputError as e:
        sys.exit(f"{prog}: error: {e}")
    except OSError as e:
        sys.exit(f"{prog}: error: {e.filename or ''}: {e.strerror or e}")


def replace_atomically(path, write, mode="w"):
    """write(f) into a temporary file beside path, then rename it over path (no partial file is
    left behind, at path or beside it, when write fails)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = f"{path}.tmp.{os.getpid()}"
    try:
        with open(tmp, mode, **({"newline": ""} if "b" not in mode else {})) as f:
            write(f)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
