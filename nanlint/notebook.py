"""Jupyter notebooks: the code cells as one Python program, and the way back to cell and line.

The code cells are concatenated in order, so an import in cell 1 is known in cell 3 (the
notebook runs top to bottom, and ruff reads it the same way). A cell is read as IPython's
input transformers read it (IPython.core.inputtransformer2; no IPython at run time): the
common leading indent and pasted prompts are removed; line magics (``%time``), shell lines
(``!pip``, with their backslash continuation lines), ``x = !ls``, help (``?obj``,
``obj?``, ``obj??``) and automagics that are not Python (``cd dir``, ``pip install x``)
become ``pass`` at the same indentation (only where a statement starts: not inside
brackets or a string); a cell magic (``%%bash``) or a cell in another language blanks its
whole cell, except the magics that run their body as Python (``%%time``), which blank
their own line only. So every line keeps its number, and its column only shifts by what was removed
from its front. Cells are numbered as ruff does: 1-based among all
cells, markdown included, so the number is the cell's place in the notebook.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from nanlint.source import StatementScanner

SUFFIX = ".ipynb"
# IPython's escapes at the start of a statement (IPython.core.inputtransformer2): %magic,
# !shell, !!shell, ?help, ??help, and the autocall escapes , ; /. Also `x = !cmd`, `x = %magic`.
_ESCAPED = re.compile(r"^\s*(?:[%!?,;/]|[\w.\[\], *()]+=\s*[%!])")
# The cell magics whose body IPython runs as a cell of Python (`%%time`), after the
# magic's own line.
_PYTHON_BODY = re.compile(r"\s*%%(?:time|timeit|capture)(?:\s|$)")
# A trailing help (`tf.keras.Input?`, `obj.attr??`, `%magic?`): IPython's `_help_end_re`.
_HELP_END = re.compile(r"^\s*%{0,2}(?!\d)[\w*]+(?:\.(?!\d)[\w*]+|\[-?\d+\])*\?\??\s*$")
_INDENT = re.compile(r"^[ \t]+")
# The prompts IPython strips from pasted sessions (classic `>>> `, IPython's `In [1]: `).
_PROMPTS = ((re.compile(r"^>>>( |$)"), re.compile(r"^(>>>|\.\.\.)( |$)")),
            (re.compile(r"^In \[\d+\]: "), re.compile(r"^(In \[\d+\]: |\s*\.\.\.+: ?)")))
_AUTOMAGIC = re.compile(r"^(\s*)([A-Za-z_][\w.]*)(\s.*)?$")
# IPython's line magics and shell aliases that automagic runs without `%` (plus the
# notebook favourites that extensions add).
MAGICS = frozenset("""
alias alias_magic autoawait autocall automagic autosave bookmark cat cd clear colors conda
config connect_info cp debug dhist dirs doctest_mode ed edit env gui hist history
killbgscripts ldir less lf lk ll load load_ext loadpy logoff logon logstart logstate logstop
ls lsmagic lx macro magic mamba man matplotlib micromamba mkdir more mv notebook page
pastebin pdb pdef pdoc pfile pinfo pinfo2 pip popd pprint precision prun psearch psource
pushd pwd pycat pylab qtconsole quickref recall rehashx reload_ext rep rerun reset
reset_selective rm rmdir run save sc set_env store sx system tb time timeit unalias
unload_ext who who_ls whos xdel xmode tensorboard autoreload aimport
""".split())
# Names a notebook or a cell gives its language by, for Python.
_PYTHON = frozenset({"python", "python2", "python3", "ipython", "ipython2", "ipython3",
                     "py", "pyspark"})


class NotebookError(Exception):
    """Not a notebook nanlint can read, phrased for the user."""


@dataclass
class Notebook:
    """The code cells as one program. Every line of a cell is one line of ``source``: as
    IPython reads it (its common indent and any prompt removed), or, where it is no Python
    (a magic, a shell line, a cell in another language), replaced by ``pass`` or a blank."""

    source: str = ""
    # For each line of ``source`` (index 0 is line 1): (cell number, line in that cell).
    places: List[Tuple[int, int]] = field(default_factory=list)
    # For each line: the text IPython removes from its front (indent, prompt), or None for
    # a line that was replaced; and the line as it is written in the cell.
    prefixes: List[Optional[str]] = field(default_factory=list)
    originals: List[str] = field(default_factory=list)
    text: str = ""  # the file's JSON as read: whether fixes can be written back to it
    _writable: Optional[bool] = field(default=None, repr=False)

    @property
    def writable(self) -> bool:
        """Whether a fix can be written back into the file: its JSON layout is one nanlint
        reproduces byte for byte (``with_fixed_code``). Asked only for a finding with a fix,
        so a notebook without one never pays for the re-encoding."""
        if self._writable is None:
            try:  # a notebook read as empty (another kernel's language) has no text
                self._writable = _layout(json.loads(self.text), self.text) is not None
            except ValueError:
                self._writable = False
        return self._writable

    def place(self, line: int) -> Tuple[int, int]:
        """(cell, line in cell) of a line of the concatenated source."""
        if not self.places:
            return 1, line
        return self.places[min(max(line, 1), len(self.places)) - 1]

    def prefix(self, line: int) -> Optional[str]:
        """What was removed from the front of ``line`` (1-based); None: a replaced line."""
        return self.prefixes[line - 1] if 0 < line <= len(self.prefixes) else ""

    def shown(self, line: int, text: str) -> str:
        """The cell's line for ``text``, the program's (maybe fixed) ``line``."""
        prefix = self.prefix(line)
        return self.originals[line - 1] if prefix is None else prefix + text

    def cells(self) -> Dict[int, Tuple[int, int]]:
        """Cell number → (first line, last line) of the cell in ``source``, 1-based."""
        spans: Dict[int, Tuple[int, int]] = {}
        for line, (cell, _) in enumerate(self.places, start=1):
            spans[cell] = (spans.get(cell, (line, line))[0], line)
        return spans

    def without(self, cells: Sequence[int]) -> "Notebook":
        """The same notebook with ``cells`` left out (their lines blank): cells that do not
        parse, so that the others can still be checked."""
        lines = self.source.split("\n")
        prefixes = list(self.prefixes)
        for index, (cell, _) in enumerate(self.places):
            if cell in cells:
                lines[index], prefixes[index] = "", None
        return Notebook("\n".join(lines), list(self.places), prefixes, list(self.originals),
                        self.text, self._writable)


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
    notebook = Notebook(text=data.decode("utf-8-sig"))
    lines: List[str] = []
    for number, cell in enumerate(document["cells"], start=1):
        if not isinstance(cell, dict):
            raise NotebookError(f"not a notebook: cell {number} is not a mapping")
        if cell.get("cell_type") != "code":
            continue
        text = _cell_text(cell, number)
        python = _is_python_cell(cell.get("metadata"))
        for row, (original, code, prefix) in enumerate(_python_lines(text, python), start=1):
            lines.append(code)
            notebook.places.append((number, row))
            notebook.prefixes.append(prefix)
            notebook.originals.append(original)
    notebook.source = "".join(line + "\n" for line in lines)
    return notebook


def _is_python(metadata: Any) -> bool:
    """The notebook's language (``language_info.name``, ``kernelspec.language``)."""
    if not isinstance(metadata, dict):
        return True
    for key, name in (("language_info", "name"), ("kernelspec", "language")):
        section = metadata.get(key)
        language = section.get(name) if isinstance(section, dict) else None
        if isinstance(language, str) and language.lower() not in _PYTHON:
            return False
    return True


def _is_python_cell(metadata: Any) -> bool:
    """A cell's own language, as the polyglot front ends record it: VS Code
    (``vscode.languageId``), SoS (``kernel``), .NET Interactive / Polyglot Notebooks."""
    if not isinstance(metadata, dict):
        return True
    names = [metadata.get("kernel"), metadata.get("language")]
    for key, name in (("vscode", "languageId"), ("dotnet_interactive", "language"),
                      ("polyglot_notebook", "kernelName")):
        section = metadata.get(key)
        names.append(section.get(name) if isinstance(section, dict) else None)
    return all(not isinstance(name, str) or name.lower() in _PYTHON for name in names)


def _cell_text(cell: dict, number: int) -> str:
    source = cell.get("source", "")
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        source = "".join(source)
    if not isinstance(source, str):
        raise NotebookError(f"not a notebook: the source of cell {number} is not text")
    return source


def _python_lines(text: str, python: bool = True
                  ) -> List[Tuple[str, str, Optional[str]]]:
    """Each line of a cell: (as written, as Python reads it, prefix removed or None).

    IPython's cleanup first (common leading indent, pasted prompts), then a cell magic
    takes the whole cell (one whose body is Python only its own line), then magics, shell
    lines, help and automagics at the start of a statement, with their backslash
    continuation lines.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return _cell_lines(lines, python)


def _cell_lines(lines: List[str], python: bool) -> List[Tuple[str, str, Optional[str]]]:
    at = next((index for index, line in enumerate(lines) if line.strip()), len(lines))
    first = lines[at] if at < len(lines) else ""
    if python and _PYTHON_BODY.match(first):  # `%%time`: its body is a cell of its own
        return [(line, "", None) for line in lines[:at + 1]] + _cell_lines(lines[at + 1:],
                                                                           python)
    if not python or first.lstrip().startswith("%%"):  # not Python (or a cell magic)
        return [(line, "", None) for line in lines]
    prefixes = [""] * len(lines)
    indent = _INDENT.match(first)
    if indent:
        prefixes = [indent.group() if line.startswith(indent.group()) else ""
                    for line in lines]
    stripped = [line[len(prefix):] for line, prefix in zip(lines, prefixes)]
    body = [line for line in stripped if line.strip()]
    for initial, prompt in _PROMPTS:
        if body and (initial.match(body[0]) or (len(body) > 1 and prompt.match(body[1]))):
            for index, line in enumerate(stripped):
                match = prompt.match(line)
                if match:
                    prefixes[index] += match.group()
                    stripped[index] = line[match.end():]
    result: List[Tuple[str, str, Optional[str]]] = []
    scanner = StatementScanner()
    continued = False  # a replaced line ended with a backslash: this one goes with it
    for line, code, prefix in zip(lines, stripped, prefixes):
        if continued or (scanner.at_statement_start() and _not_python(code)):
            stand_in = "" if continued else _stand_in(code)
            result.append((line, stand_in, None))  # its text is not Python: not scanned
            continued = code.endswith("\\")
            continue
        scanner.scan(code)
        result.append((line, code, prefix))
    return result


def _not_python(line: str) -> bool:
    """IPython syntax at the start of a statement (the line alone, as IPython sees it)."""
    if _ESCAPED.match(line) or _HELP_END.match(line):
        return True
    automagic = _AUTOMAGIC.match(line)
    if automagic is None or automagic.group(2).split(".")[0] not in MAGICS:
        return False
    if not (automagic.group(3) or "").strip():
        return False  # `ls` alone is a name: Python, whatever IPython would do with it
    if any(line.count(opening) > line.count(closing) for opening, closing in ("()", "[]", "{}")):
        return False  # the start of a longer Python statement
    try:
        ast.parse(line.strip())
    except SyntaxError:
        return True  # `ls ./data/`, `cd dir`, `pip install x`: only an automagic
    except (ValueError, RecursionError, MemoryError):
        return False
    return False


def _stand_in(line: str) -> str:
    return line[: len(line) - len(line.lstrip())] + "pass"


# -- writing fixes back ----------------------------------------------------------------------
UNWRITABLE = "the notebook's JSON layout is not one nanlint can write back byte for byte"


def _layouts():
    """The JSON layouts notebook writers use; nbformat's own (indent 1, sorted keys) first,
    then other indents (spaces or tabs), or none."""
    for indent in (1, 2, 4, "\t", None):
        for sort_keys in (True, False):
            for ensure_ascii in (False, True):
                yield {"indent": indent, "sort_keys": sort_keys, "ensure_ascii": ensure_ascii}


def _layout(document: Any, text: str) -> Optional[dict]:
    """The layout that encodes ``document`` as ``text`` byte for byte, if there is one."""
    return next((options for options in _layouts()
                 if _encoded(document, options, text) == text), None)


def cell_starts(notebook: Notebook, source: Optional[str] = None) -> List[int]:
    """Where each code cell with lines starts in ``notebook.source`` (or in ``source``, the
    same lines edited), in the order of ``notebook.cells()``: the anchors that follow the
    cells through the fixes."""
    offsets = [0]
    for line in (notebook.source if source is None else source).split("\n"):
        offsets.append(offsets[-1] + len(line) + 1)
    return [offsets[first - 1] for first, _ in notebook.cells().values()]


def with_fixed_code(data: bytes, notebook: Notebook, fixed_source: str,
                    starts: Sequence[int]) -> bytes:
    """The notebook's bytes with each code cell's code replaced by its part of
    ``fixed_source`` (the fixed version of ``notebook.source``, where the cells start at
    ``starts``); outputs, metadata and every other byte stay. A fix may change the number
    of lines of a cell.

    A line keeps what IPython removes from its front (the cell's common indent, a prompt);
    a new line gets that of the line it replaces, or the cell's. Raises NotebookError when
    that cannot be done exactly: a line that is not Python in the cell (a magic) would
    change, or the JSON layout is one re-encoding would not reproduce byte for byte.
    """
    text = data.decode("utf-8-sig")
    bom = data.startswith(b"\xef\xbb\xbf")
    document = json.loads(text)
    layout = _layout(document, text)
    if layout is None:
        raise NotebookError(UNWRITABLE)
    old_lines = notebook.source.split("\n")
    bounds = [*starts, len(fixed_source)]
    for (number, (first, last)), begin, end in zip(notebook.cells().items(), bounds,
                                                    bounds[1:]):
        new = fixed_source[begin:end].split("\n")
        if new[-1] == "":
            new.pop()
        if new != old_lines[first - 1:last]:
            cell = document["cells"][number - 1]
            rows = _rows(notebook, first, last, new, cell["source"])
            cell["source"] = rows if isinstance(cell["source"], list) else "".join(rows)
    result = _encoded(document, layout, text)
    return (b"\xef\xbb\xbf" if bom else b"") + result.encode("utf-8")


def _rows(notebook: Notebook, first: int, last: int, new: List[str], source: Any) -> List[str]:
    """The cell's lines as written, with endings, for its new code ``new`` (its lines
    ``first`` to ``last`` of the program before the fixes)."""
    written = re.findall(r"[^\n]*\n|[^\n]+$", "".join(source) if isinstance(source, list)
                         else source)
    old = notebook.source.split("\n")[first - 1:last]
    prefixes = notebook.prefixes[first - 1:last]
    usual = next((p for p in prefixes if p is not None), "")
    texts: List[str] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for kind, i1, i2, j1, j2 in matcher.get_opcodes():
        if kind == "equal":
            texts.extend(row.rstrip("\r\n") for row in written[i1:i2])
            continue
        if any(prefix is None for prefix in prefixes[i1:i2]):
            raise NotebookError("the fix would change a line that is not Python (IPython "
                                "syntax or a cell in another language)")
        for j in range(j1, j2):
            prefix = prefixes[i1 + j - j1] if i1 + j - j1 < i2 else usual
            texts.append(prefix + new[j])
    newline = next((row[len(row.rstrip("\r\n")):] for row in written
                    if row.endswith("\n")), "\n")
    last_ending = written[-1][len(written[-1].rstrip("\r\n")):] if written else ""
    return [line + (newline if index < len(texts) - 1 else last_ending)
            for index, line in enumerate(texts)]


def _encoded(document: Any, options: dict, original: str) -> str:
    text = json.dumps(document, **options)
    return text + "\n" if original.endswith("\n") else text
