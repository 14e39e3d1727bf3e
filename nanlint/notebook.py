"""Jupyter notebooks: the code cells as one Python program, and the way back to cell and line.

The code cells are concatenated in order, so an import in cell 1 is known in cell 3 (the
notebook runs top to bottom, and ruff reads it the same way). IPython syntax is no Python:
line magics (``%time``), shell lines (``!pip``), ``x = !ls``, help (``?obj``) become
``pass`` at the same indentation (only where a statement starts: not inside brackets or a
string), and a cell magic (``%%bash``) blanks its whole cell, so
that every other line keeps its number. Cells are numbered as ruff does: 1-based among all
cells, markdown included, so the number is the cell's place in the notebook.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, List, Tuple

SUFFIX = ".ipynb"
_IPYTHON_LINE = re.compile(r"^\s*(?:[%!?]|[\w.]+\s*=\s*[%!])")


class NotebookError(Exception):
    """Not a notebook nanlint can read, phrased for the user."""


@dataclass
class Notebook:
    source: str = ""
    # For each line of ``source`` (index 0 is line 1): (cell number, line in that cell).
    places: List[Tuple[int, int]] = field(default_factory=list)

    def place(self, line: int) -> Tuple[int, int]:
        """(cell, line in cell) of a line of the concatenated source."""
        if not self.places:
            return 1, line
        return self.places[min(max(line, 1), len(self.places)) - 1]


def is_notebook(path: str) -> bool:
    return path.lower().endswith(SUFFIX)


def read(data: bytes) -> Notebook:
    """The code of a notebook file (nbformat 4); a non-Python notebook has no code."""
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise NotebookError(f"not a notebook: not valid UTF-8 (byte "
                            f"0x{data[error.start]:02x})") from None
    except ValueError as error:
        message = getattr(error, "msg", str(error))
        where = (f" at line {error.lineno}, column {error.colno}"
                 if isinstance(error, json.JSONDecodeError) else "")
        raise NotebookError(f"not a notebook: invalid JSON{where}: {message}") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        raise NotebookError("not a notebook: no list of `cells` at the top level")
    version = document.get("nbformat")
    if version != 4:
        raise NotebookError(f"unsupported notebook format {version!r}: nanlint reads "
                            "nbformat 4 (convert with `jupyter nbconvert --to notebook`)")
    if not _is_python(document.get("metadata")):
        return Notebook()
    notebook = Notebook()
    lines: List[str] = []
    for number, cell in enumerate(document["cells"], start=1):
        if not isinstance(cell, dict):
            raise NotebookError(f"not a notebook: cell {number} is not a mapping")
        if cell.get("cell_type") != "code":
            continue
        for row, text in enumerate(_python_lines(_cell_text(cell, number)), start=1):
            lines.append(text)
            notebook.places.append((number, row))
    notebook.source = "".join(line + "\n" for line in lines)
    return notebook


def _is_python(metadata: Any) -> bool:
    if not isinstance(metadata, dict):
        return True
    language = metadata.get("language_info")
    name = language.get("name") if isinstance(language, dict) else None
    return not isinstance(name, str) or name.lower() == "python"


def _cell_text(cell: dict, number: int) -> str:
    source = cell.get("source", "")
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        source = "".join(source)
    if not isinstance(source, str):
        raise NotebookError(f"not a notebook: the source of cell {number} is not text")
    return source


def _python_lines(text: str) -> List[str]:
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    first = next((line for line in lines if line.strip()), "")
    if first.lstrip().startswith("%%"):  # a cell magic: the body may not be Python at all
        return ["" for _ in lines]
    result = []
    scanner = _Scanner()
    for line in lines:
        if scanner.at_statement_start() and _IPYTHON_LINE.match(line):
            result.append(_stand_in(line))  # its text is not Python: not scanned
            continue
        scanner.scan(line)
        result.append(line)
    return result


def _stand_in(line: str) -> str:
    return line[: len(line) - len(line.lstrip())] + "pass"


class _Scanner:
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


# -- writing fixes back ----------------------------------------------------------------------
def _layouts():
    """The JSON layouts notebook writers use; nbformat's own (indent 1, sorted keys) first."""
    for indent in (1, 2, 4, None):
        for sort_keys in (True, False):
            for ensure_ascii in (False, True):
                yield {"indent": indent, "sort_keys": sort_keys, "ensure_ascii": ensure_ascii}


def with_fixed_code(data: bytes, notebook: Notebook, fixed_source: str) -> bytes:
    """The notebook's bytes with the code cells' lines replaced by those of ``fixed_source``
    (the fixed version of ``notebook.source``); outputs, metadata and every other byte stay.

    Raises NotebookError when that cannot be done exactly: a fix that changed the number of
    lines, a line that is not Python in the cell (a magic), or a JSON layout that re-encoding
    would not reproduce byte for byte.
    """
    old_lines = notebook.source.split("\n")
    new_lines = fixed_source.split("\n")
    if len(old_lines) != len(new_lines):
        raise NotebookError("the fix changes the number of lines of a cell")
    text = data.decode("utf-8-sig")
    bom = data.startswith(b"\xef\xbb\xbf")
    document = json.loads(text)
    layout = next((options for options in _layouts()
                   if _encoded(document, options, text) == text), None)
    if layout is None:
        raise NotebookError("the notebook's JSON layout is not one nanlint can write back "
                            "byte for byte")
    changed = {}
    for index, (old, new) in enumerate(zip(old_lines, new_lines)):
        if old != new:
            changed.setdefault(notebook.places[index][0], {})[notebook.places[index][1]] = new
    for number, rows in changed.items():
        cell = document["cells"][number - 1]
        source = cell["source"]
        parts = source if isinstance(source, list) else source.splitlines(keepends=True)
        parts = list(parts)
        for row, new in rows.items():
            old = parts[row - 1]
            ending = old[len(old.rstrip("\r\n")):]
            parts[row - 1] = new + ending
        cell["source"] = parts if isinstance(source, list) else "".join(parts)
    result = _encoded(document, layout, text)
    return (b"\xef\xbb\xbf" if bom else b"") + result.encode("utf-8")


def _encoded(document: Any, options: dict, original: str) -> str:
    text = json.dumps(document, **options)
    return text + "\n" if original.endswith("\n") else text
