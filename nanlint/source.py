"""The first stage: a file's bytes, its text, its lines; and the engine's own findings
(NAN000, NAN001), which every later stage may report.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tokenize
from typing import List, Optional, Sequence, Tuple

from nanlint.finding import Finding

PARSE_ERROR = ("NAN000", "parse-error")
INTERNAL_ERROR = ("NAN000", "internal-error")
TIMEOUT = ("NAN000", "timeout")
BAD_SUPPRESSION = ("NAN001", "invalid-suppression")


def engine_finding(kind: Tuple[str, str], severity: str, path: str, line: int, column: int,
                   message: str, lines: List[str], end_column: Optional[int] = None
                   ) -> Finding:
    """A finding of the engine's own (``kind``: one of the pairs above)."""
    code, name = kind
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return Finding(code=code, name=name, severity=severity, confidence="high", path=path,
                   line=line, column=column, end_line=line,
                   end_column=end_column or max(column + 1, len(text) + 1), message=message,
                   source_lines=(text,) if text else ())


class SourceError(Exception):
    """A file that cannot be read as Python source: message, and line/column if known."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.column = column

    def finding(self, path: str, lines: Sequence[str] = ()) -> "Finding":
        return engine_finding(PARSE_ERROR, "error", path, self.line, self.column, str(self),
                              list(lines), self._end_column(lines))

    def _end_column(self, lines: Sequence[str]) -> Optional[int]:
        """Where the code frame's underline ends: the indentation an error at a line's
        start is about (tabs and spaces mixed), or the word (`print`) or the one character
        at the error; not the rest of the line."""
        if not 0 < self.line <= len(lines):
            return None
        text = lines[self.line - 1]
        start = self.column - 1
        if start >= len(text):
            return None
        if start == 0 and text[:1] in (" ", "\t"):
            return len(text) - len(text.lstrip(" \t")) + 1
        end = start
        while end < len(text) and (text[end].isalnum() or text[end] == "_"):
            end += 1
        return max(end, start + 1) + 1


_NOT_REGULAR = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                (stat.S_ISBLK, "a block device"))  # how to name what is not a regular file


BINARY = "binary file (contains NUL bytes), not Python source"


def read_bytes(path: str) -> Tuple[Optional[bytes], Optional[SourceError]]:
    """The file's bytes, or why it cannot be read. Never blocks: a FIFO or a device named
    ``*.py`` is opened without waiting and refused, since only a regular file is source."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                             | getattr(os, "O_BINARY", 0))
    except OSError as error:
        return None, SourceError(_open_problem(path, error))
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _NOT_REGULAR if test(mode)), "a special file")
            return None, SourceError(f"not a regular file but {kind}, not Python source")
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            return handle.read(), None
    except OSError as error:
        return None, SourceError(f"cannot read file: {error.strerror or error}")
    finally:
        os.close(descriptor)


def _open_problem(path: str, error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "cannot read file: symbolic link loop"
    if error.errno == errno.ENOENT and os.path.islink(path):
        return f"cannot read file: broken symbolic link (to `{os.readlink(path)}`)"
    return f"cannot read file: {error.strerror or error}"


def decode(data: bytes) -> str:
    """Bytes → text, honouring a BOM and a coding declaration, as Python itself does."""
    return decode_with_encoding(data)[0]


def decode_with_encoding(data: bytes) -> Tuple[str, str]:
    """The text and the encoding that turns it back into the same bytes (``utf-8-sig``
    for a file with a BOM)."""
    if b"\x00" in data:
        raise SourceError(BINARY)
    try:
        encoding, _ = tokenize.detect_encoding(iter(data.splitlines(keepends=True)).__next__)
    except SyntaxError as error:
        if "invalid or missing encoding declaration" not in str(error):
            raise SourceError(f"bad encoding declaration: {error}") from None
        encoding = "utf-8"  # no declaration, and the first lines are not UTF-8: say where
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise SourceError(f"not valid {encoding} (byte 0x{data[error.start]:02x} at "
                          f"line {line}); declare the encoding or convert the file",
                          line, column) from None
    except LookupError:
        raise SourceError(f"unknown encoding `{encoding}`") from None
    if text.startswith("\ufeff"):
        text = text[1:]
        encoding = "utf-8-sig"
    return text, encoding


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def source_lines(source: str) -> List[str]:
    """The lines as Python counts them: str.splitlines would also split at form feeds,
    \\x1c-\\x1e, \\x85 and \\u2028, and shift every line number after them."""
    lines = _LINE_BREAK.split(source)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class StatementScanner:
    """Just enough of Python's tokenizer to know whether a line starts a statement: not
    inside brackets (black puts `% value` and `!= b` at the start of continuation lines),
    a triple-quoted string, or after a backslash."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote = ""  # the open string's quote, "" outside strings
        self.continued = False

    def at_statement_start(self) -> bool:
        return self.depth == 0 and not self.quote and not self.continued

    def scan(self, line: str) -> None:
        index, length = 0, len(line)
        comment = False
        while index < length:
            char = line[index]
            if self.quote:
                if char == "\\":
                    index += 2
                    continue
                if line.startswith(self.quote, index):
                    index += len(self.quote)
                    self.quote = ""
                    continue
            elif char == "#":
                comment = True
                break
            elif char in "'\"":
                self.quote = char * 3 if line.startswith(char * 3, index) else char
                index += len(self.quote)
                continue
            elif char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            index += 1
        self.continued = not comment and not self.quote and line.endswith("\\")
        if len(self.quote) == 1 and not line.endswith("\\"):
            self.quote = ""  # a one-line string cannot run on: the parser reports it
