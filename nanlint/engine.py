"""The pure core: ``lint_source(text, path, options) -> findings``.

One parse, one traversal that runs every enabled rule, positions computed only when there is
something to report. The CLI, the tests and every other entry point are thin wrappers.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import errno
import functools
import gc
import itertools
import os
import re
import signal
import stat
import sys
import threading
import time
import tokenize
import traceback
from dataclasses import dataclass, field
from typing import (Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set,
                    Tuple, Type)

import libcst as cst

from nanlint import notebook, suppression, wrapping
from nanlint.finding import Finding
from nanlint.positions import Positions, report_nodes
from nanlint.optable import TF_MODULE_ROOTS
from nanlint.rule import Fix, Report, Rule
from nanlint.analysis import CONFIDENCE_ORDER, Analysis, Settings, render
from nanlint.analysis.tree import children, generated

PARSE_ERROR = ("NAN000", "parse-error")
INTERNAL_ERROR = ("NAN000", "internal-error")
TIMEOUT = ("NAN000", "timeout")
BAD_SUPPRESSION = ("NAN001", "invalid-suppression")


@dataclass
class LintOptions:
    rules: Sequence[Type[Rule]] = ()
    # Rules switched off that supersede an enabled code: they run, and their reports only
    # hide what they supersede (ignoring NAN103 must not bring its expressions back as NAN102).
    silent_rules: Sequence[Type[Rule]] = ()
    rule_settings: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)
    min_confidence: str = "low"
    known_codes: FrozenSet[str] = frozenset()
    engine_codes: FrozenSet[str] = frozenset({"NAN000", "NAN001"})  # enabled engine codes
    check_all_files: bool = False  # also analyse files that never mention TensorFlow/Keras
    file_timeout: float = 0.0  # seconds one file may take (lint_bytes, lint_file); 0: no limit
    # `nanlint suspects`: every hazard ranked (nanlint.suspects) instead of the findings
    suspects: bool = False


# -- reading ---------------------------------------------------------------------------------
class SourceError(Exception):
    """A file that cannot be read as Python source: message, and line/column if known."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.column = column

    def finding(self, path: str, lines: Sequence[str] = ()) -> "Finding":
        return _engine_finding(PARSE_ERROR, "error", path, self.line, self.column, str(self),
                               list(lines))


_NOT_REGULAR = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                (stat.S_ISBLK, "a block device"))  # how to name what is not a regular file


_BINARY = "binary file (contains NUL bytes), not Python source"


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
        raise SourceError(_BINARY)
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
        raise SourceError(_BINARY) from None
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
    return _parse_checked(source)


def _parse_checked(source: str) -> cst.Module:
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


# -- traversal -------------------------------------------------------------------------------
Handler = Callable[[cst.CSTNode], None]


class RuleCrash(Exception):
    """A handler raised: which one, and what."""

    def __init__(self, handler: Handler, error: BaseException) -> None:
        super().__init__(str(error))
        self.handler = handler
        self.error = error

    @property
    def code(self) -> str:
        owner = getattr(self.handler, "__self__", None)
        return getattr(owner, "code", "") or "the engine"


Boundary = Tuple[Callable[[], None], Callable[[], None]]


def _raise_crash(handler: Handler, error: Exception, node: cst.CSTNode) -> None:
    raise RuleCrash(handler, error) from error


def walk(module: cst.Module, visit: Dict[type, List[Handler]],
         leave: Dict[type, List[Handler]], boundaries: Optional[Dict[int, Boundary]] = None,
         on_crash: Callable[[Handler, Exception, cst.CSTNode], None] = _raise_crash
         ) -> None:
    """Pre-order traversal with leave events, iterative (deep nesting is no problem).

    ``boundaries`` maps ``id(node)`` to (enter, exit) callbacks run around that one node: a
    function's scope starts at its body, after its decorators and default values.
    A handler that raises is passed to ``on_crash`` with the error and the node it was
    visiting; ``on_crash`` may raise or let the walk go on
    (``visit`` is looked up afresh for every node, so handlers can be taken out of it).
    """
    stack: List[Any] = [module]
    boundaries = boundaries if boundaries is not None else {}
    while stack:
        item = stack.pop()
        if item.__class__ is tuple:
            node = item[0]
            if node.__class__ is _Exit:
                node.exit()
                continue
            for handler in leave[node.__class__]:
                handler(node)
            continue
        boundary = boundaries.get(id(item)) if boundaries else None
        if boundary is not None:
            boundary[0]()
            stack.append((_Exit(boundary[1]),))
        node_type = item.__class__
        handlers = visit.get(node_type)
        if handlers:
            for handler in handlers:
                try:
                    handler(item)
                except RecursionError:
                    raise
                except Exception as error:
                    on_crash(handler, error, item)
        if node_type in leave:
            stack.append((item,))
        below = children(item)
        below.reverse()
        stack.extend(below)


class _Exit:
    __slots__ = ("exit",)

    def __init__(self, exit_: Callable[[], None]) -> None:
        self.exit = exit_


_COMPOUND = (cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.FunctionDef,
             cst.ClassDef, cst.Match)
_SMALL = (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr, cst.Return, cst.Raise, cst.Assert,
          cst.Del, cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal, cst.Pass, cst.Break,
          cst.Continue)
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _tracker(analysis: Analysis) -> Tuple[Dict[type, List[Handler]], Dict[type, List[Handler]],
                                          Dict[int, Boundary]]:
    """Handlers that keep the analysis informed of the current scope and statement."""
    visit: Dict[type, List[Handler]] = {}
    leave: Dict[type, List[Handler]] = {}
    boundaries: Dict[int, Boundary] = {}

    def on(types, enter: Handler, exit_: Callable[[], None]) -> None:
        for node_type in types:
            visit.setdefault(node_type, []).append(enter)
            leave.setdefault(node_type, []).append(lambda _node: exit_())

    on(_COMPOUND + _SMALL, analysis.enter_statement, analysis.leave_statement)

    def scope_at_body(node: cst.CSTNode) -> None:
        # Decorators, default values and annotations belong to the enclosing scope.
        boundaries[id(node.body)] = (lambda: analysis.enter_scope(node), analysis.leave_scope)

    for node_type in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
        visit.setdefault(node_type, []).append(scope_at_body)

    def enter_comprehension(node: cst.CSTNode) -> None:
        names = set()
        comp_for = node.for_in
        while comp_for is not None:
            names.update(_target_names(comp_for.target))
            comp_for = comp_for.inner_for_in
        analysis.enter_comprehension(frozenset(names))
        # The outermost iterable is evaluated in the enclosing scope.
        boundaries[id(node.for_in.iter)] = (lambda: analysis.enter_comprehension(None),
                                            analysis.leave_comprehension)

    on(_COMPREHENSIONS, enter_comprehension, analysis.leave_comprehension)
    return visit, leave, boundaries


def _target_names(target: cst.BaseExpression) -> List[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for element in target.elements for n in _target_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


# -- linting ---------------------------------------------------------------------------------
def concerns_tensorflow(source: str) -> bool:
    """The cheap text test: every finding needs an op resolved through a TF/Keras import."""
    return any(root in source for root in TF_MODULE_ROOTS)


def _syntax_only(source: str, path: str, options: LintOptions, lines: List[str]
                 ) -> List[Finding]:
    """A file that cannot concern TF: Python's own (fast) parser still reports NAN000."""
    try:
        check_syntax(source, path)
    except SourceError as error:
        return [error.finding(path, lines)] if "NAN000" in options.engine_codes else []
    return _suppression_problems(source, path, options, lines,
                                 suppression.parse(source, options.known_codes))


def _suppression_problems(source: str, path: str, options: LintOptions, lines: List[str],
                          comments: suppression.Suppressions) -> List[Finding]:
    """Malformed comments, and (once every finding has been matched) unused ones."""
    if "NAN001" not in options.engine_codes:
        return []
    enabled = frozenset(rule.code for rule in options.rules) | (
        options.engine_codes & {"NAN000"})
    return [_engine_finding(BAD_SUPPRESSION, "warning", path, problem.line, problem.column + 1,
                            problem.message, lines, end_column=problem.end_column + 1)
            for problem in comments.problems + comments.unused(enabled)]


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def source_lines(source: str) -> List[str]:
    """The lines as Python counts them: str.splitlines would also split at form feeds,
    \\x1c-\\x1e, \\x85 and \\u2028, and shift every line number after them."""
    lines = _LINE_BREAK.split(source)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# libcst's visitors (positions, code generation) recurse about three frames per level of
# nesting: Python's default limit of 1,000 stops at chains of ~300 (`a.b.c...`, `x + y + ...`),
# which real generated code exceeds. The C stack holds this many comfortably.
RECURSION_ROOM = 5000
PYTHON_RECURSION_LIMIT = 1000  # the interpreter's default, under which a file really runs


@contextlib.contextmanager
def _recursion_room() -> Iterator[None]:
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, RECURSION_ROOM))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


@contextlib.contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while one file is analysed. Its tree and analysis are
    millions of objects that all live until the file is done, and the collector, started by
    allocation counts, would walk them again and again (its full passes over everything
    alive were about 14% of the lint time on the keras source). The few reference cycles the
    analysis leaves are collected by the first collection after the file."""
    if not gc.isenabled():
        yield  # paused already (a notebook's cells, an embedding program's choice)
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _line_number(line: int) -> str:
    return f"line {line}"


def lint_source(source: str, path: str, options: LintOptions,
                describe_line: Optional[Callable[[int], str]] = None) -> List[Finding]:
    """Every finding of the enabled rules in ``source`` (already decoded text).

    ``describe_line`` names a line in a message (a notebook names the cell too).
    """
    describe_line = describe_line or _line_number
    if options.suspects:
        from nanlint.suspects import tabs_as_python2

        source = tabs_as_python2(source)
    lines = source_lines(source)
    if not options.check_all_files and not concerns_tensorflow(source) and not (
            options.suspects and "numpy" in source):  # the hunt reads data preparation too
        return _syntax_only(source, path, options, lines)
    with _recursion_room(), _cyclic_gc_paused():
        return _lint_module(source, path, options, lines, describe_line)


def _lint_module(source: str, path: str, options: LintOptions, lines: List[str],
                 describe_line: Callable[[int], str]) -> List[Finding]:
    try:
        tree = check_syntax(source, path)
    except SourceError as error:
        return [error.finding(path, lines)] if "NAN000" in options.engine_codes else []
    child = _alarm_armed[0] and hasattr(os, "fork") and _slow_to_parse(tree, lines)
    if len(source) >= BIG_SOURCE:
        del tree  # not held through libcst's parse: made again after it (see _analyse)
        tree = None
    if child:
        return _in_child(lambda: _analyse(source, tree, path, options, lines, describe_line),
                         path, lines)
    return _analyse(source, tree, path, options, lines, describe_line)


# A file this long (in characters; about 12,000 lines) has the memory of its parse, not its
# time, as the limit: Python's tree of it is a quarter of libcst's parse at its peak, so it
# is dropped before that parse and made again after it, and libcst's freed native memory is
# given back to the system before the analysis allocates its own (glibc keeps it otherwise,
# and Python's small objects cannot reuse it). The peak is then the parse's own.
BIG_SOURCE = 500_000


def _give_back_freed_memory() -> None:
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


def _slow_to_parse(tree: ast.Module, lines: List[str]) -> bool:
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


def _in_child(work: Callable[[], List[Finding]], path: str, lines: List[str]
              ) -> List[Finding]:
    """``work()`` in a forked child process, its findings sent back through a pipe. The
    parent waits in Python, so the budget's alarm interrupts it, and the child is killed."""
    import pickle

    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 0
        try:
            os.close(reader)
            payload = pickle.dumps(work())
            with os.fdopen(writer, "wb") as out:
                out.write(payload)
        except BaseException:  # noqa: BLE001 — the parent reports a child that sent nothing
            status = 1
        finally:
            os._exit(status)
    os.close(writer)
    chunks: List[bytes] = []
    reaped = False
    try:
        while True:
            chunk = os.read(reader, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        reaped = True
    finally:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            os.close(reader)
            if not reaped:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    if status == 0 and chunks:
        return pickle.loads(b"".join(chunks))
    error = RuntimeError(f"the process that parsed the file ended with status {status}")
    return [_internal_error(path, "the engine", error, lines)]


def _analyse(source: str, tree: Optional[ast.Module], path: str, options: LintOptions,
             lines: List[str], describe_line: Callable[[int], str]) -> List[Finding]:
    """``tree`` is Python's tree of the source, or None for a big file (``BIG_SOURCE``)."""
    try:
        module = _parse_checked(source)
    except SourceError as error:
        return [error.finding(path, lines)] if "NAN000" in options.engine_codes else []
    if tree is None:
        _give_back_freed_memory()
        tree = ast.parse(source, filename=path)  # accepted before: it parses
    analysis = Analysis(module, options.settings, source)
    reports: List[Report] = []
    silent: List[Report] = []
    try:
        return _run_rules(analysis, reports, silent, (source, tree), path, options, lines,
                          describe_line)
    finally:
        # Rules and their reports, and the analysis and its helpers, refer to each other:
        # without these cycles the tree is freed at once, by reference counting.
        reports.clear()
        silent.clear()
        analysis.close()


def _run_rules(analysis: Analysis, reports: List[Report], silent: List[Report],
               text: Tuple[str, ast.Module], path: str, options: LintOptions, lines: List[str],
               describe_line: Callable[[int], str]) -> List[Finding]:
    """The rules' walk over the module, and their reports as findings. ``reports`` and
    ``silent`` are the lists the rules fill (shown ones, and those of silent rules);
    ``text``: the source and Python's tree of it."""
    module, source = analysis.module, text[0]
    visit, leave, boundaries = _tracker(analysis)
    threshold = CONFIDENCE_ORDER[options.min_confidence]
    replaced: Set[Tuple[int, str]] = set()  # filled as superseding rules report
    # Superseding rules first at each node, so that a rule can skip a finding already
    # replaced (``Rule.superseded``); otherwise in their order.
    for rule_class in sorted((*options.rules, *options.silent_rules),
                             key=lambda rule_class: not rule_class.supersedes):
        rule = rule_class(analysis, silent if rule_class in options.silent_rules else reports,
                          options.rule_settings.get(rule_class.code))
        rule._superseded, rule._superseding_confidence = replaced, threshold
        rule.keep_unreached = options.suspects
        for node_type, method in rule_class.handlers():
            visit.setdefault(node_type, []).append(getattr(rule, method))
    sites = None
    if options.suspects:
        from nanlint import suspects

        sites = suspects.Sites(analysis)
        for node_type, handler in sites.handlers():
            visit.setdefault(node_type, []).append(handler)
    too_deep = _engine_finding(PARSE_ERROR, "error", path, 1, 1,
                               "cannot analyse: expressions nested too deeply", lines)
    crashes: List[Tuple[str, Exception, cst.CSTNode]] = []

    def switch_off(handler: Handler, error: Exception, node: cst.CSTNode) -> None:
        """A rule that raises is a bug: report it, and let the other rules finish the file."""
        rule = getattr(handler, "__self__", None)
        if not isinstance(rule, Rule):
            raise RuleCrash(handler, error) from error  # the engine's own bookkeeping
        for node_type, handlers in visit.items():
            visit[node_type] = [h for h in handlers if getattr(h, "__self__", None) is not rule]
        crashes.append((rule.code, error, node))

    try:
        walk(module, visit, leave, boundaries, on_crash=switch_off)
    except RecursionError:
        return [too_deep]
    except RuleCrash as crash:
        return [_internal_error(path, crash.code, crash.error, lines)]
    superseded = set(replaced)  # (Rule.report filled it, for the reports of every rule)
    # A finding that covers inner nodes (one binary cross-entropy over two logs, also when
    # the logs were assigned to variables lines before) replaces its own code's there.
    superseded |= {(id(node), r.rule.code) for r in reports for node in r.covers
                   if CONFIDENCE_ORDER[r.confidence] >= threshold}
    if superseded:
        reports[:] = [r for r in reports if (id(r.node), r.rule.code) not in superseded]
    comments = suppression.parse(source, options.known_codes)
    if sites is not None:
        return suspects.ranked(analysis, text, reports, sites, path, lines, comments,
                               describe_line)
    shown = [CONFIDENCE_ORDER[r.confidence] >= threshold for r in reports]
    # A report below min-confidence is not shown, but still uses its suppression: the
    # comment is needed again as soon as the threshold is lowered.
    needed = any(shown) or bool(reports and (comments.by_line or comments.whole_file))
    try:
        findings = (_findings(analysis, text, reports, shown, path, lines, comments,
                              describe_line) if needed else [])
    except RecursionError:
        return [too_deep]
    findings.extend(_suppression_problems(source, path, options, lines, comments))
    if crashes:
        findings.extend(_crash_findings(analysis, text, crashes, path, lines))
    findings.sort(key=lambda f: f.sort_key)
    return findings


def _crash_findings(analysis: Analysis, text: Tuple[str, ast.Module],
                    crashes: List[Tuple[str, Exception, cst.CSTNode]], path: str,
                    lines: List[str]) -> List[Finding]:
    """Each rule crash reported where the rule was: at the node it was visiting."""
    positions = Positions(analysis.module, (node for _, _, node in crashes), *text,
                          analysis.parent)
    findings = []
    for code, error, node in crashes:
        where = positions.get(node)
        line, column, end = ((where.start.line, where.start.column + 1,
                              where.end.column + 1 if where.end.line == where.start.line
                              else None) if where else (1, 1, None))
        findings.append(_internal_error(path, code, error, lines, line, column, end))
    return findings


def _internal_error(path: str, code: str, error: BaseException, lines: List[str],
                    line: int = 1, column: int = 1, end_column: Optional[int] = None
                    ) -> Finding:
    """One line for the report; the traceback rides along for ``--verbose``."""
    finding = _engine_finding(INTERNAL_ERROR, "error", path, line, column,
                              f"internal error in {code}: {type(error).__name__}: "
                              f"{' '.join(str(error).split())}", lines, end_column)
    finding.detail = "".join(traceback.format_exception(type(error), error,
                                                        error.__traceback__))
    return finding


def _findings(analysis: Analysis, text: Tuple[str, ast.Module], reports: List[Report],
              shown: List[bool], path: str, lines: List[str],
              comments: suppression.Suppressions, describe_line: Callable[[int], str]
              ) -> List[Finding]:
    """``text``: the source and Python's tree of it."""
    positions = Positions(analysis.module,
                          (node for report in reports for node in report_nodes(report)),
                          *text, analysis.parent)
    kept = []
    for report, show in zip(reports, shown):
        # Asked first even for a report not shown: it marks the comment as used.
        if not suppressed(report, positions, comments) and show:
            kept.append(report)
    return as_findings(analysis, positions, kept, path, lines, describe_line)


def suppressed(report: Report, positions: Any, comments: suppression.Suppressions) -> bool:
    """Whether a comment suppresses the report: on any line of its node or statement."""
    position = positions[report.node]
    span_start, span_end = position.start.line, position.end.line
    statement = positions.get(report.statement) if report.statement is not None else None
    if statement is not None:
        span_start = min(span_start, statement.start.line)
        if not isinstance(report.statement, _COMPOUND):
            span_end = max(span_end, statement.end.line)
    return comments.suppresses(report.rule.code, range(span_start, span_end + 1))


def as_findings(analysis: Analysis, positions: Any, kept: List[Report], path: str,
                lines: List[str], describe_line: Callable[[int], str], with_fixes: bool = True
                ) -> List[Finding]:
    """The reports as findings: positions, evidence rendered into messages, and fixes (one
    per hazard) unless ``with_fixes`` is off."""
    module = analysis.module

    def where_is(node: cst.CSTNode) -> Optional[str]:
        position = positions.get(node)
        return describe_line(position.start.line) if position is not None else None

    def code(node: cst.CSTNode) -> str:
        text = positions.line_text(node, lines)
        return text if text is not None else analysis.code(node)

    deferred = _one_fix_per_hazard(kept, positions) if with_fixes else {}
    findings = []
    seen = set()
    for report in kept:
        position = positions[report.node]
        start, end = position.start, position.end
        rule = report.rule
        key = (rule.code, start.line, start.column, end.line, end.column)
        if key in seen:
            continue
        seen.add(key)
        message = report.message
        evidence = None
        if "{evidence}" in message:
            detail = render(report.evidence, code, where_is) if report.evidence else ""
            message = message.replace("{evidence}", detail)
            evidence = _evidence(report, positions, code)
        fix, suggestion = report.fix, report.suggestion
        keeper = deferred.get(id(report))
        if keeper is not None:
            fix = None
            line = positions[keeper.node].start.line
            suggestion = (f"{suggestion or ''} (the fix of {keeper.rule.code} at "
                          f"{describe_line(line)} removes this hazard too)").lstrip()
        findings.append(Finding(
            code=rule.code, name=rule.name, severity=rule.severity,
            confidence=report.confidence, path=path, line=start.line, column=start.column + 1,
            end_line=end.line, end_column=end.column + 1, message=message,
            suggestion=suggestion,
            fix=_fix(module, fix, positions, lines, analysis, notebook.is_notebook(path))
            if with_fixes else None,
            evidence=evidence, gradient=report.gradient,
            score=report.score if report.why else None, why=report.why or None,
            source_lines=tuple(lines[start.line - 1:end.line])))
    return findings


def _evidence(report: Report, positions: Any, code: Callable[[cst.CSTNode], str]
              ) -> Optional[Dict[str, Any]]:
    """The place of the evidence the message names, with what it says about it."""
    place = positions.get(report.evidence.node) if report.evidence is not None else None
    if place is None:
        return None
    return {"line": place.start.line, "column": place.start.column + 1,
            "end_line": place.end.line, "end_column": place.end.column + 1,
            "message": render(report.evidence, code, lambda node: None)}


def _one_fix_per_hazard(reports: List[Report], positions: Any) -> Dict[int, Report]:
    """One epsilon per hazard: reports whose evidence is the same producer (`d = norm(a -
    b); 1.0 / d`: both come from `a - b`) keep only the fix nearest that producer, the
    innermost report that contains it (the norm's). Fixing the value where it is made removes
    the hazard downstream too; if it does not, the other finding is still there after the
    fix, with its own fix, for the next round. A safe fix is never deferred to an unsafe
    one (`--fix` would then fix neither). Returns id(deferred report) → the one kept."""
    groups: Dict[int, List[Report]] = {}
    for report in reports:
        if report.fix is not None and report.evidence is not None:
            groups.setdefault(id(report.evidence.node), []).append(report)
    deferred: Dict[int, Report] = {}
    for group in groups.values():
        source = positions.get(group[0].evidence.node) if len(group) > 1 else None
        if source is None:
            continue

        def span(report: Report) -> Optional[Tuple[Tuple[int, int], Tuple[int, int]]]:
            where = positions.get(report.node)
            if where is None:
                return None
            return ((where.start.line, where.start.column), (where.end.line, where.end.column))

        around = [r for r in group if (s := span(r)) is not None
                  and s[0] <= (source.start.line, source.start.column)
                  and (source.end.line, source.end.column) <= s[1]]
        if not around:
            continue
        # The innermost: it starts last, or ends first.
        keeper = max(around, key=lambda r: (span(r)[0], [-x for x in span(r)[1]]))
        for report in group:
            if report is not keeper and (keeper.fix.safety == "safe"
                                         or report.fix.safety != "safe"):
                deferred[id(report)] = keeper
    return deferred


def _fix(module: cst.Module, fix: Optional[Fix], positions: Any, lines: List[str],
         analysis: Analysis, in_notebook: bool = False) -> Optional[Dict[str, Any]]:
    """A rule's libcst edit as text edits at the replaced nodes' positions, within the
    project's line length (wrapping.py; not in a notebook, whose cells keep their lines)."""
    if fix is None:
        return None
    edits = []
    for old, new in fix.replacements:
        if len(fix.replacements) == 1:
            old, new = wrapping.fit(module, old, new, lines, positions.get, analysis.parent,
                                    None if in_notebook else analysis.settings.line_length)
        position = positions.get(old)
        if position is None:
            return None  # a node outside this module: the rule's fix cannot be placed
        start, end = position.start, position.end
        if new is cst.RemovalSentinel.REMOVE:
            # A whole statement line goes, newline and all; only where it stands alone on
            # its lines (else the rest of the fix still applies, and the line stays).
            if (lines[start.line - 1][:start.column].strip() or end.line >= len(lines)
                    or lines[end.line - 1][end.column:].strip()):
                continue
            edits.append({"line": start.line, "column": 1, "end_line": end.line + 1,
                          "end_column": 1, "replacement": ""})
            continue
        original = "\n".join(lines[start.line - 1:end.line])
        original = original[start.column:len(original) - len(lines[end.line - 1]) + end.column]
        indent = _block_indent(module, old, original, lines, start.line)
        if indent is None:
            return None  # cannot render the node as it is written: no fix rather than a wrong one
        edits.append({"line": start.line, "column": start.column + 1, "end_line": end.line,
                      "end_column": end.column + 1,
                      "replacement": generated(new, module, indent)})
    return {"safety": fix.safety, "description": fix.description, "edits": edits}


def _block_indent(module: cst.Module, node: cst.CSTNode, original: str, lines: List[str],
                  line: int) -> Optional[str]:
    """The indentation under which ``node`` renders as ``original``: found by trying the
    leading whitespace of its line and of the lines above."""
    if "\n" not in original:
        return ""
    tried = set()
    for number in range(line, max(0, line - 200), -1):
        text = lines[number - 1]
        candidate = text[:len(text) - len(text.lstrip())]
        if candidate in tried:
            continue
        tried.add(candidate)
        if generated(node, module, candidate).replace("\r\n", "\n") == original:
            return candidate
    return None


def _engine_finding(kind: Tuple[str, str], severity: str, path: str, line: int, column: int,
                    message: str, lines: List[str], end_column: Optional[int] = None
                    ) -> Finding:
    code, name = kind
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return Finding(code=code, name=name, severity=severity, confidence="high", path=path,
                   line=line, column=column, end_line=line,
                   end_column=end_column or max(column + 1, len(text) + 1), message=message,
                   source_lines=(text,) if text else ())


def lint_bytes(data: bytes, path: str, options: LintOptions) -> List[Finding]:
    """Decode and lint, within the file's time budget."""
    try:
        return within_budget(options.file_timeout, lambda: _decode_and_lint(data, path, options))
    except FileTimeout:
        return timed_out(path, options)


def lint_text(source: str, path: str, options: LintOptions) -> List[Finding]:
    """Lint text that is already decoded (an editor's buffer), within the file's time budget."""
    try:
        return within_budget(options.file_timeout, lambda: lint_source(source, path, options))
    except FileTimeout:
        return timed_out(path, options)


def timed_out(path: str, options: LintOptions) -> List[Finding]:
    """The finding of a file that ran out of its time budget."""
    if "NAN000" not in options.engine_codes:
        return []
    return [_engine_finding(TIMEOUT, "error", path, 1, 1,
                            f"took longer than {options.file_timeout:g} s; not checked "
                            "(raise `file-timeout` in the configuration, or exclude the "
                            "file)", [])]


def _decode_and_lint(data: bytes, path: str, options: LintOptions) -> List[Finding]:
    if notebook.is_notebook(path):
        return lint_notebook(data, path, options)
    try:
        source = decode(data)
    except SourceError as error:
        return [error.finding(path)] if "NAN000" in options.engine_codes else []
    return lint_source(source, path, options)


def lint_notebook(data: bytes, path: str, options: LintOptions) -> List[Finding]:
    """The code cells linted as one program; each finding points at its cell and line.
    A cell that does not parse is one NAN000 and is left out: the other cells are checked."""
    try:
        document = notebook.read(data)
    except notebook.NotebookError as error:
        if "NAN000" not in options.engine_codes:
            return []
        return [SourceError(str(error)).finding(path)]
    document, broken = notebook_program(document, path, options)
    findings = lint_source(document.source, path, options, cell_lines(document))
    return sorted(broken + in_cells(document, findings, document.source),
                  key=lambda f: f.sort_key)


def cell_lines(document: notebook.Notebook) -> Callable[[int], str]:
    """How a message names a line of the notebook's program: by cell and line."""
    def describe_line(line: int) -> str:
        cell, row = document.place(line)
        return f"cell {cell}, line {row}"
    return describe_line


def notebook_program(document: notebook.Notebook, path: str, options: LintOptions
                     ) -> Tuple[notebook.Notebook, List[Finding]]:
    """The notebook without the cells that do not parse, and one NAN000 for each of them
    (Jupyter compiles cell by cell, so one broken cell does not stop the others)."""
    try:
        check_syntax(document.source, path)
        return document, []
    except SourceError:
        pass
    lines = document.source.split("\n")
    broken: Dict[int, SourceError] = {}
    for cell, (first, last) in document.cells().items():
        try:
            check_syntax("\n".join(lines[first - 1:last]) + "\n", path)
        except SourceError as error:
            error.line += first - 1
            broken[cell] = error
    document_left = document.without(list(broken))
    findings = []
    if "NAN000" in options.engine_codes:
        for cell, error in broken.items():
            error.args = (f"{error} (cell {cell} is not checked; the other cells are)",)
            findings.append(error.finding(path, lines))
    return document_left, in_cells(document, findings, document.source)


def in_cells(document: notebook.Notebook, findings: List[Finding], program: str
             ) -> List[Finding]:
    """Findings on the notebook's ``program`` (its source, maybe fixed) at their cell, line
    and column as written in the cell, with fixes whose edits are in those coordinates too."""
    lines = source_lines(program)
    result = []
    for finding in findings:
        cell, line = document.place(finding.line)
        end_cell, end_line = document.place(finding.end_line)
        column = finding.column + len(document.prefix(finding.line) or "")
        end_column = finding.end_column + len(document.prefix(finding.end_line) or "")
        if end_cell != cell:  # a statement cannot run on into the next cell; be safe
            end_line, end_column = line, column + 1
        shown = tuple(document.shown(number, lines[number - 1] if number <= len(lines) else "")
                      for number in range(finding.line, finding.line + end_line - line + 1))
        result.append(dataclasses.replace(
            finding, cell=cell, line=line, column=column, end_line=end_line,
            end_column=end_column, source_lines=shown,
            fix=_fix_in_cell(document, finding.fix, cell),
            evidence=_evidence_in_cell(document, finding.evidence)))
    return result


def _evidence_in_cell(document: notebook.Notebook, evidence: Optional[Dict[str, Any]]
                      ) -> Optional[Dict[str, Any]]:
    """The evidence place in the cell's coordinates."""
    if evidence is None:
        return None
    place = dict(evidence)
    place["cell"], place["line"] = document.place(evidence["line"])
    end_cell, place["end_line"] = document.place(evidence["end_line"])
    place["column"] = evidence["column"] + len(document.prefix(evidence["line"]) or "")
    place["end_column"] = evidence["end_column"] + len(
        document.prefix(evidence["end_line"]) or "")
    if end_cell != place["cell"]:
        place["end_line"], place["end_column"] = place["line"], place["column"] + 1
    return place


def _fix_in_cell(document: notebook.Notebook, fix: Optional[Dict[str, Any]], cell: int
                 ) -> Optional[Dict[str, Any]]:
    """A fix's edits in the cell's coordinates; none for a fix that would touch a line that
    is not Python as written (a magic), or another cell."""
    if not fix or not notebook_editable(document, fix):
        return None
    edits = []
    for edit in fix["edits"]:
        places = {document.place(edit["line"])[0], document.place(edit["end_line"])[0]}
        if places != {cell}:
            return None
        prefix = document.prefix(edit["line"]) or ""
        edits.append(dict(edit, line=document.place(edit["line"])[1],
                          end_line=document.place(edit["end_line"])[1],
                          column=edit["column"] + len(prefix),
                          end_column=edit["end_column"] + len(
                              document.prefix(edit["end_line"]) or ""),
                          replacement=edit["replacement"].replace("\n", "\n" + prefix)))
    return dict(fix, edits=edits)


def notebook_editable(document: notebook.Notebook, fix: Dict[str, Any]) -> bool:
    """Whether every line the fix edits is Python as written in its cell."""
    return all(document.prefix(line) is not None for edit in fix["edits"]
               for line in range(edit["line"], edit["end_line"] + 1))


# -- the time budget -------------------------------------------------------------------------
class FileTimeout(BaseException):
    """The file's time budget ran out. Not an Exception, so that no ``except Exception``
    between the alarm and the budget (a rule's, the engine's) can swallow it."""


_alarm_armed = [False]
_expired = [False]  # an alarm fired while the budget was armed: the work is late
_ALARM_REPEAT = 0.05  # seconds between alarms once the budget is spent


def _expire(signum: int, frame: Any) -> None:
    if _alarm_armed[0]:  # a late alarm, after the budget was closed, is ignored
        _expired[0] = True
        raise FileTimeout()


def _quiet_timeouts(previous: Callable[[Any], None]) -> Callable[[Any], None]:
    """A ``sys.unraisablehook`` for the budget: a FileTimeout that Python swallowed (the
    alarm landed in a gc callback or a ``__del__``) is not printed; ``_expired`` keeps it."""
    def hook(unraisable: Any) -> None:
        if unraisable.exc_type is not FileTimeout:
            previous(unraisable)
    return hook


def within_budget(seconds: float, work: Callable[[], Any]) -> Any:
    """``work()``, or FileTimeout once it has run ``seconds`` (SIGALRM, so it interrupts
    Python code, and native code as soon as it returns). Signals belong to the main thread;
    elsewhere, and where there is no setitimer (Windows), there is no budget. The previous
    handler and any timer already running are restored afterwards."""
    if (not seconds or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        return work()
    previous_handler = signal.signal(signal.SIGALRM, _expire)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _quiet_timeouts(previous_hook)
    started = time.monotonic()
    _expired[0] = False
    _alarm_armed[0] = True
    # The alarm repeats until the budget is closed: one that lands where exceptions are
    # swallowed (a gc callback, a __del__) is followed by another a moment later, and if
    # every one is swallowed, the work that comes back late is a timeout all the same.
    previous_delay, previous_interval = signal.setitimer(signal.ITIMER_REAL, seconds,
                                                         _ALARM_REPEAT)
    try:
        result = work()
        if _expired[0]:
            raise FileTimeout()
        return result
    except FileTimeout:
        raise
    except Exception as error:
        # An alarm that lands inside native code (ast's constructor, say) can come out as
        # another error (SystemError): past the deadline, it is the timeout all the same.
        if time.monotonic() - started >= seconds:
            raise FileTimeout() from error
        raise
    finally:
        # A late alarm can land here, before the budget is closed, and its FileTimeout would
        # leave with the timer still repeating (to fire in the caller's code): close again.
        while True:
            try:
                _close_budget(previous_handler, previous_delay, previous_interval, started)
                sys.unraisablehook = previous_hook
                break
            except FileTimeout:
                continue


def _close_budget(previous_handler: Any, previous_delay: float, previous_interval: float,
                  started: float) -> None:
    _alarm_armed[0] = False  # first: from here on an alarm is a no-op
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous_handler)
    if previous_delay:  # someone else's timer was running: give back what is left of it
        left = previous_delay - (time.monotonic() - started)
        signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), previous_interval)


def lint_file(file_path: str, display_path: str, options: LintOptions) -> List[Finding]:
    data, error = read_bytes(file_path)
    if error is not None:
        return [error.finding(display_path)] if "NAN000" in options.engine_codes else []
    return lint_bytes(data, display_path, options)
