"""The "file:line: message" error every synmt tool prints, for the plots and the analysis scripts
(a module of its own, without matplotlib, so that a script that only reads files need not load it)."""


class InputError(Exception):
    """Bad input, reported as the C++ tools report it: "file:line: message" (line 0: the whole file)."""

    def __init__(self, path, line, message):
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")
