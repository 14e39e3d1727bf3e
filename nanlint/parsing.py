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
import sys
from typing import Callable, Iterator, List, Optional, Tuple

import libcst as cst

from nanlint.source import BINARY, SourceError, source_lines

PYTHON_RECURSION_LIMIT = 1000  # the interpreter's default, under which a file really runs


def check_syntax(source: str, path: str = "<source>") -> ast.Module:
    """Python's own parser first: it defines what is valid Python, its messages are the
    clearest, and it refuses absurd nesting safely (libcst's native parser can overflow the C
    stack and kill the process on ~1,500 nested brackets, which Python rejects beyond 200)."""
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as error:
        line = error.lineno or 1
        message = f"syntax error: {error.msg}{_python2_hint(source, line)}"
        raise SourceError(message, line, error.offset or 1) from None
    except (RecursionError, MemoryError):
        raise SourceError("cannot parse: expressions nested too deeply") from None
    except ValueError:  # source code string cannot contain null bytes
        raise SourceError(BINARY) from None
    if len(source) >= LONG_STATEMENT:
        _check_compiles(tree, source, path, source_lines(source))
    return tree


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


def _python2_hint(source: str, line: int) -> str:
    lines = source_lines(source)
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    if (text.startswith("print ") and not text.startswith("print (")) or text.startswith(
            "exec ") or (text.startswith("except ") and "," in text and " as " not in text
                         ) or "<>" in text or "`" in text:
        return " (this looks like Python 2, which nanlint does not read)"
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
    on Python's own tree."""
    if len(lines) and sum(map(len, lines)) < LONG_STATEMENT:
        return []
    offsets = [0]
    offsets.extend(itertools.accumulate(len(line) + 1 for line in lines))
    statements = list(tree.body)
    found = []
    while statements:
        statement = statements.pop()
        inner = [child for name in ("body", "orelse", "finalbody", "handlers")
                 for child in getattr(statement, name, ()) if isinstance(child, ast.AST)]
        inner.extend(child for case in getattr(statement, "cases", ()) for child in case.body)
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
    return [(statement, leaf) for _, statement, leaf in sorted(found, key=lambda f: f[0])]

