"""The parse stage: Python's own parser decides what is valid (``check_syntax``), then
libcst makes the tree the rules walk (``parse_checked``). What the time budget needs to know
of a file before its parse is here too: whether a statement is long enough for libcst's
native parser to take seconds (``slow_to_parse``), whether the file is big enough to have
its memory, not its time, as the limit (``BIG_SOURCE``).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import itertools
import re
import sys
import warnings
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from nanlint.python2 import as_python3, forms_of_old_pythons
from nanlint.source import BINARY, SourceError, StatementScanner, source_lines

PYTHON_RECURSION_LIMIT = 1000  # the interpreter's default, under which a file really runs


def check_syntax(source: str, path: str = "<source>") -> ast.Module:
    """Python's own parser first: it defines what is valid Python, its messages are the
    clearest, and it refuses absurd nesting safely (libcst's native parser can overflow the C
    stack and kill the process on ~1,500 nested brackets, which Python rejects beyond 200)."""
    try:
        tree = python_tree(source, path)
    except SyntaxError as error:
        line = error.lineno or 1
        raise SyntaxProblem(error.msg, _python2(source, line), line, error.offset or 1
                            ) from None
    except (RecursionError, MemoryError):
        raise SourceError("cannot parse: expressions nested too deeply") from None
    except ValueError:  # source code string cannot contain null bytes
        raise SourceError(BINARY) from None
    if len(source) >= LONG_STATEMENT:
        _check_compiles(tree, source, path, source_lines(source))
    return tree


def python_tree(source: str, path: str = "<source>") -> ast.Module:
    """``ast.parse`` without its warnings: a file's ``x is 'a'`` or ``"\\d"`` is the user's
    business (Python warns when it runs), not a line on nanlint's standard error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)  # invalid escapes before 3.12
        return ast.parse(source, filename=path)


def _check_compiles(tree: ast.Module, source: str, path: str, lines: List[str]) -> None:
    """Python's parser accepts expressions that its compiler refuses: about 3,000 terms
    deep (``a + a + ... + a``, ``- - ... - a``) raise RecursionError in ``compile`` under
    Python's default recursion limit, on every Python nanlint supports. Such a statement is
    longer than ``LONG_STATEMENT`` characters, so only a file that has one is compiled,
    under the limit ``python`` runs it with."""
    long = _long_statements(tree, lines)
    if not long or _compiles(source, path):
        return
    where = next((statement for statement, leaf in long
                  if leaf and not _compiles(_statement_text(statement, lines), path)),
                 long[0][0])
    raise SourceError("cannot compile: expressions nested too deeply for Python itself",
                      where.lineno, where.col_offset + 1)


def _statement_text(statement: ast.stmt, lines: List[str]) -> str:
    """A simple statement's text, from its first character (its indentation left out)."""
    text = lines[statement.lineno - 1:statement.end_lineno]
    text[-1] = text[-1][:statement.end_col_offset]
    text[0] = text[0][statement.col_offset:]
    return "\n".join(text)


def _compiles(source: str, path: str) -> bool:
    """Whether Python, under its default recursion limit, compiles ``source`` (the
    compiler's other errors, such as ``return`` outside a function, are not ours)."""
    frame, depth = sys._getframe(), 0  # the frames below this one: python has none
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(PYTHON_RECURSION_LIMIT + depth)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, path, "exec", dont_inherit=True)
    except (RecursionError, MemoryError):
        return False
    except (SyntaxError, ValueError):
        pass
    finally:
        sys.setrecursionlimit(previous)
    return True


def parse(source: str, path: str = "<source>") -> cst.Module:
    check_syntax(source, path)
    return parse_checked(source)


def parse_checked(source: str) -> cst.Module:
    """libcst's tree of source that Python's parser has accepted."""
    try:
        with _unvalidated():
            return cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        message = " ".join(str(error.message).split())
        line, column = error.raw_line, error.raw_column + 1
        raise SourceError(f"syntax error: {message}", line, column) from None
    except RecursionError:
        raise SourceError("cannot parse: expressions nested too deeply") from None


@contextlib.contextmanager
def _unvalidated() -> Iterator[None]:
    """libcst nodes check their fields when they are made (``CSTNode.__post_init__`` calls
    ``_validate``), which a tree the parser makes from accepted source never fails: about a
    fifth of the parse time (libcst's own comment there says the parser could skip it).
    Skipped while the parser builds the tree; nodes made afterwards, such as a rule's fix,
    are checked as before. (The switch is the class's: the language server's protocol thread,
    which runs beside a lint, makes no libcst nodes.)"""
    original = cst.CSTNode.__dict__.get("__post_init__")
    if original is None:  # a libcst that validates elsewhere: nothing to skip
        yield
        return
    cst.CSTNode.__post_init__ = _trusted
    try:
        yield
    finally:
        cst.CSTNode.__post_init__ = original


def _trusted(node: cst.CSTNode) -> None:
    """A parsed node's check: none."""


class SyntaxProblem(SourceError):
    """Python's parser refuses the text: ``reason`` is its message, ``python2`` the Python 2
    construct the line looks like ("" if none)."""

    def __init__(self, reason: str, python2: str, line: int, column: int) -> None:
        hint = " (this looks like Python 2, in a form nanlint does not read)" if python2 else ""
        super().__init__(f"syntax error: {reason}{hint}", line, column)
        self.reason = reason
        self.python2 = python2


def _python2(source: str, line: int) -> str:
    """The Python 2 construct that line ``line`` of ``source`` looks like, or ""."""
    lines = source_lines(source)
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    if text.startswith("print ") and not text.startswith("print ("):
        return "a Python 2 print statement"
    if text.startswith("exec "):
        return "a Python 2 exec statement"
    if text.startswith("except ") and "," in text and " as " not in text:
        return "a Python 2 except clause"
    if "<>" in text:
        return "Python 2's <>"
    if "`" in text:
        return "Python 2's backquotes"
    return ""


# A file this long (in characters; about 12,000 lines) has the memory of its parse, not its
# time, as the limit: Python's tree of it is a quarter of libcst's parse at its peak, so it
# is dropped before that parse and made again after it, and libcst's freed native memory is
# given back to the system before the analysis allocates its own (glibc keeps it otherwise,
# and Python's small objects cannot reuse it). The peak is then the parse's own.
BIG_SOURCE = 500_000


def give_back_freed_memory() -> None:
    """``malloc_trim(0)`` where the C library has it (glibc); elsewhere nothing."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.lru_cache(maxsize=None)
def _malloc_trim() -> Optional[Callable[[int], int]]:
    try:
        import ctypes

        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None


# libcst's native parser takes time that grows faster than linearly with the length of one
# statement (a one-line expression of 3,000 terms: minutes), and a native call cannot be
# interrupted by the budget's alarm. A file with a statement this long (in characters;
# about 1 s on such an expression) is analysed in a child process that the budget can kill.
LONG_STATEMENT = 2_000


def slow_to_parse(tree: ast.Module, lines: List[str]) -> bool:
    """Whether a statement of the file (the header of a compound one) is long enough for
    libcst's parse to take seconds."""
    return bool(_long_statements(tree, lines))


def _long_statements(tree: ast.Module, lines: List[str]) -> List[Tuple[ast.stmt, bool]]:
    """The statements of ``LONG_STATEMENT`` characters or more (of a compound statement, its
    header), in the order of the file, each with whether it is a simple statement: measured
    on Python's own tree (once: the parse asks, then the engine; kept on the tree)."""
    if len(lines) and sum(map(len, lines)) < LONG_STATEMENT:
        return []
    known = getattr(tree, "_nanlint_long_statements", None)
    if known is not None:
        return known
    offsets = [0]
    offsets.extend(itertools.accumulate(len(line) + 1 for line in lines))
    statements = list(tree.body)
    found = []
    while statements:
        statement = statements.pop()
        inner = []
        fields = statement._fields
        if "body" in fields or "cases" in fields:  # (a compound statement: most are not)
            inner = [child for name in ("body", "orelse", "finalbody", "handlers")
                     for child in getattr(statement, name, ()) if isinstance(child, ast.AST)]
            inner.extend(child for case in getattr(statement, "cases", ())
                         for child in case.body)
        start = offsets[statement.lineno - 1] + statement.col_offset
        if inner:
            statements.extend(inner)
            first = min(child.lineno for child in inner)
            end = offsets[max(first - 1, statement.lineno)]
        elif isinstance(getattr(statement, "value", None), ast.Constant):
            continue  # a docstring or a long string: one token
        else:
            end = offsets[statement.end_lineno - 1] + statement.end_col_offset
        if end - start >= LONG_STATEMENT:
            found.append((start, statement, not inner))
    long = [(statement, leaf) for _, statement, leaf in sorted(found, key=lambda f: f[0])]
    tree._nanlint_long_statements = long  # type: ignore[attr-defined]
    return long


# -- files Python 3 refuses ------------------------------------------------------------------
@dataclass
class Readable:
    """What the analysis reads of a file: its text, or, for a file Python 3 refuses, the
    top-level statements that it accepts alone (the others' lines left blank, so every line
    keeps its number) and ``problem``, the file's NAN000 that says so. The indentation of a
    statement that mixes tabs and spaces is read as Python 2 read it (a tab to the next
    multiple of 8), or else as an editor set to 4 columns a tab shows it: ``indents`` maps
    such a line to the lengths of its indentation in the file and in ``text``, so that a
    column of ``text`` can be given back in the file's terms."""

    text: str
    problem: Optional[SourceError] = None
    indents: Dict[int, Tuple[int, int]] = field(default_factory=dict)

    def column(self, line: int, column: int) -> int:
        """The 1-based ``column`` of ``text``'s line ``line`` in the file as written."""
        if line not in self.indents:
            return column
        written, read = self.indents[line]
        return column - read + written if column > read else min(column, written + 1)


def readable(source: str, path: str = "<source>") -> Tuple[Readable, ast.Module]:
    """What of ``source`` can be analysed, and Python's tree of it. Raises SourceError when
    nothing can: a file that is no source, an expression nested too deeply, a file none of
    whose top-level statements parses."""
    try:
        return Readable(source), check_syntax(source, path)
    except SyntaxProblem as error:
        refused_whole = error
    lines = source_lines(source)
    spans = top_level_statements(lines)
    kept = list(lines)
    indents: Dict[int, Tuple[int, int]] = {}
    widths: Set[int] = set()  # the tab widths that made a statement parse
    forms: Set[str] = set()  # the Python 2 forms read as Python 3 reads their like
    refused: List[Tuple[int, int, SourceError]] = []
    for first, last in spans:
        part = lines[first - 1:last]
        error = refusal(part, first, path)
        if error is None:
            continue
        read = _read_otherwise(part, first, path)
        if read is None:
            kept[first - 1:last] = [""] * len(part)
            refused.append((first, last, error))
            continue
        text_lines, width, found = read
        kept[first - 1:last] = text_lines
        indents.update((number, (_indent(written), _indent(text))) for number, written, text
                       in zip(range(first, last + 1), part, text_lines)
                       if written[:_indent(written)] != text[:_indent(text)])
        widths.update({width} - {None})
        forms |= found
    if len(refused) == len(spans) or not (refused or widths or forms):
        raise refused_whole  # nothing parses, or the file's problem is not its statements'
    text = "\n".join(kept) + "\n"
    try:
        tree = check_syntax(text, path)
    except SourceError:
        raise refused_whole from None
    problem = _partly_read(lines, refused, refused_whole, widths, forms)
    return Readable(text, problem, indents), tree


def tabs_counted(read: Readable) -> Optional[Readable]:
    """``read`` with each tab of an indentation counted to the next multiple of 8, as Python
    counts it (the same blocks, in a file Python accepted); None where no indentation holds
    a tab. ``indents`` gives the columns back in the file's terms."""
    lines = read.text.split("\n")
    counted = [_tabs_as(line, 8) for line in lines]
    if counted == lines:
        return None
    indents = dict(read.indents)
    for number, (line, text) in enumerate(zip(lines, counted), 1):
        if line != text:
            indents[number] = (read.indents.get(number, (_indent(line), 0))[0], _indent(text))
    return Readable("\n".join(counted), read.problem, indents)


def _read_otherwise(part: List[str], first: int, path: str
                    ) -> Optional[Tuple[List[str], Optional[int], Set[str]]]:
    """A top-level statement Python 3 refuses, read as it was written for: its tabs counted
    as Python 2 (or an editor) counted them, its Python 2 forms as Python 3 writes them
    (``python2.as_python3``), or both. The lines read, the tab width used (None: the tabs
    as they are), the Python 2 forms found; None if no reading parses."""
    for width in (None, *TAB_WIDTHS):
        retabbed = part if width is None else [_tabs_as(line, width) for line in part]
        if width is not None and retabbed == part:
            continue
        if width is not None and refusal(retabbed, first, path) is None:
            return retabbed, width, set()
        rewritten = as_python3(retabbed)
        if rewritten is not None and refusal(rewritten[0], first, path) is None:
            return rewritten[0], width, rewritten[1]
    return None


def refusal(lines: Sequence[str], first: int, path: str = "<source>"
            ) -> Optional[SourceError]:
    """Why Python refuses ``lines`` on their own, a part of a text that starts at its line
    ``first`` (a top-level statement, a notebook's cell), placed in that text; None if it
    accepts them."""
    try:
        check_syntax("\n".join(lines) + "\n", path)
    except SourceError as error:
        error.line += first - 1
        return error
    return None


# A line at column 0 that starts one of these starts a statement, whatever an unclosed
# bracket before it says; a clause of a compound statement goes on with it.
_STATEMENT = re.compile(r"(async\s+def|def|class|import|from)\b")
_CLAUSE = re.compile(r"(else|elif|except|finally)\b")


def top_level_statements(lines: Sequence[str]) -> List[Tuple[int, int]]:
    """The first and last line of each top-level statement, read as Python 2 or 3 would
    split them (a compound statement with its clauses, a decorated one with its decorators,
    each with the comments and blank lines after it): a statement starts at a line that
    begins at column 0 outside brackets, strings and continued lines."""
    scanner = StatementScanner()
    spans: List[List[int]] = []
    decorated = False
    for number, line in enumerate(lines, start=1):
        if line[:1] not in ("", " ", "\t", "\f", "#") and not scanner.quote and (
                scanner.at_statement_start() or _STATEMENT.match(line)):
            scanner = StatementScanner()
            if not spans or not (decorated or _CLAUSE.match(line)):
                spans.append([number, number])
            decorated = line.startswith("@")
        if spans:
            spans[-1][1] = number
        scanner.scan(line)
    return [(first, last) for first, last in spans]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


# How a tab in the indentation is counted when Python 3 refuses a mix of tabs and spaces: to
# the next multiple of 8, as Python 2 did; else to the next multiple of 4, as an editor set
# so shows it (code written there never ran as written, but reads as its author saw it).
TAB_WIDTHS = (8, 4)
_TAB_WORDS = {8: "to the next multiple of 8, as Python 2 did",
              4: "as 4 columns, as an editor set so shows it"}


def _tabs_as(line: str, width: int) -> str:
    """``line`` with the tabs of its indentation counted to the next multiple of ``width``."""
    indent = line[:_indent(line)]
    return indent.expandtabs(width) + line[len(indent):] if "\t" in indent else line


def _partly_read(lines: List[str], refused: List[Tuple[int, int, SourceError]],
                 refused_whole: SyntaxProblem, widths: Set[int], forms: Set[str]
                 ) -> SourceError:
    """The NAN000 of a file read in part: the lines skipped, the tabs counted as Python 2
    counted them (or an editor), the Python 2 forms read as Python 3 writes them; at the
    first line that Python 3 refuses."""
    readings = []
    if widths:
        counted = " or ".join(_TAB_WORDS[width] for width in TAB_WIDTHS if width in widths)
        readings.append(f"a tab in the indentation counted {counted}")
    if forms:
        readings.append(f"its {forms_of_old_pythons(forms)} as Python 3 writes them")
    if not refused:
        said = f"syntax error: {refused_whole.reason}" if forms else str(refused_whole)
        return SourceError(
            f"{said}; read with {' and '.join(readings)}: the file was checked so, without "
            "fixes", refused_whole.line, refused_whole.column)
    first = refused[0][2]
    python2 = next((error.python2 for _, _, error in refused
                    if isinstance(error, SyntaxProblem) and error.python2), "")
    ranges = []
    for start, end, _ in refused:
        while end > start and lines[end - 1].strip()[:1] in ("", "#"):
            end -= 1  # the comments and blank lines after a statement are not named
        ranges.append(f"{start}-{end}" if end > start else str(start))
    several = len(refused) > 1 or "-" in ranges[0]
    what = (f"lines {', '.join(ranges)} do not parse" if several
            else f"line {ranges[0]} does not parse")
    hint = f" ({python2}?)" if python2 else ""
    said = f"syntax error: {first.reason}" if isinstance(first, SyntaxProblem) else str(first)
    read = f", read with {' and '.join(readings)}" if readings else ""
    return SourceError(f"{said}; {what}{hint} and {'were' if several else 'was'} skipped: "
                       f"the rest of the file was checked{read}, without fixes", first.line,
                       first.column)
