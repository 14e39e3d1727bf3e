"""The pure core: ``lint_source(text, path, options) -> findings``.

One parse, one traversal that runs every enabled rule, positions computed only when there is
something to report. The CLI, the tests and every other entry point are thin wrappers.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import errno
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
from typing import (Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Tuple,
                    Type)

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import MetadataWrapper, PositionProvider

from nanlint import notebook, suppression
from nanlint.finding import Finding
from nanlint.optable import TF_MODULE_ROOTS
from nanlint.rule import Fix, Report, Rule
from nanlint.analysis import CONFIDENCE_ORDER, Analysis, Settings, render

PARSE_ERROR = ("NAN000", "parse-error")
INTERNAL_ERROR = ("NAN000", "internal-error")
TIMEOUT = ("NAN000", "timeout")
BAD_SUPPRESSION = ("NAN001", "invalid-suppression")


@dataclass
class LintOptions:
    rules: Sequence[Type[Rule]] = ()
    rule_settings: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)
    min_confidence: str = "low"
    known_codes: FrozenSet[str] = frozenset()
    engine_codes: FrozenSet[str] = frozenset({"NAN000", "NAN001"})  # enabled engine codes
    check_all_files: bool = False  # also analyse files that never mention TensorFlow/Keras
    file_timeout: float = 0.0  # seconds one file may take (lint_bytes, lint_file); 0: no limit


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


def check_syntax(source: str, path: str = "<source>") -> None:
    """Python's own parser first: it defines what is valid Python, its messages are the
    clearest, and it refuses absurd nesting safely (libcst's native parser can overflow the C
    stack and kill the process on ~1,500 nested brackets, which Python rejects beyond 200)."""
    try:
        ast.parse(source, filename=path)
    except SyntaxError as error:
        line = error.lineno or 1
        message = f"syntax error: {error.msg}{_python2_hint(source, line)}"
        raise SourceError(message, line, error.offset or 1) from None
    except (RecursionError, MemoryError):
        raise SourceError("cannot parse: expressions nested too deeply") from None
    except ValueError:  # source code string cannot contain null bytes
        raise SourceError(_BINARY) from None


def parse(source: str, path: str = "<source>") -> cst.Module:
    check_syntax(source, path)
    try:
        return cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        message = " ".join(str(error.message).split())
        line, column = error.raw_line, error.raw_column + 1
        raise SourceError(f"syntax error: {message}", line, column) from None
    except RecursionError:
        raise SourceError("cannot parse: expressions nested too deeply") from None


def _python2_hint(source: str, line: int) -> str:
    lines = source_lines(source)
    text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    if (text.startswith("print ") and not text.startswith("print (")) or text.startswith(
            "exec ") or (text.startswith("except ") and "," in text and " as " not in text
                         ) or "<>" in text or "`" in text:
        return " (this looks like Python 2, which nanlint does not read)"
    return ""


# -- traversal -------------------------------------------------------------------------------
_SKIPPED_FIELDS = frozenset({
    "lpar", "rpar", "comma", "semicolon", "leading_lines", "lines_after_decorators", "header",
    "footer", "newline", "equal", "colon", "dot", "star", "arrow", "asynchronous", "operator",
    "trailing_whitespace", "indent", "lbracket", "rbracket", "lbrace", "rbrace", "comment",
})
_CHILD_FIELDS: Dict[type, Tuple[str, ...]] = {}


def _child_fields(node_type: type) -> Tuple[str, ...]:
    fields = _CHILD_FIELDS.get(node_type)
    if fields is None:
        fields = tuple(f.name for f in dataclasses.fields(node_type)
                       if f.name not in _SKIPPED_FIELDS and "whitespace" not in f.name)
        _CHILD_FIELDS[node_type] = fields
    return fields


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


def _raise_crash(handler: Handler, error: Exception) -> None:
    raise RuleCrash(handler, error) from error


def walk(module: cst.Module, visit: Dict[type, List[Handler]],
         leave: Dict[type, List[Handler]], boundaries: Optional[Dict[int, Boundary]] = None,
         on_crash: Callable[[Handler, Exception], None] = _raise_crash) -> None:
    """Pre-order traversal with leave events, iterative (deep nesting is no problem).

    ``boundaries`` maps ``id(node)`` to (enter, exit) callbacks run around that one node: a
    function's scope starts at its body, after its decorators and default values.
    A handler that raises is passed to ``on_crash``, which may raise or let the walk go on
    (``visit`` is looked up afresh for every node, so handlers can be taken out of it).
    """
    stack: List[Any] = [module]
    CSTNode = cst.CSTNode
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
                    on_crash(handler, error)
        if node_type in leave:
            stack.append((item,))
        children: List[Any] = []
        for name in _child_fields(node_type):
            child = getattr(item, name)
            if isinstance(child, CSTNode):
                children.append(child)
            elif child.__class__ in (tuple, list):
                children.extend(c for c in child if isinstance(c, CSTNode))
        children.reverse()
        stack.extend(children)


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


@contextlib.contextmanager
def _recursion_room() -> Iterator[None]:
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, RECURSION_ROOM))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


def _line_number(line: int) -> str:
    return f"line {line}"


def lint_source(source: str, path: str, options: LintOptions,
                describe_line: Callable[[int], str] = _line_number) -> List[Finding]:
    """Every finding of the enabled rules in ``source`` (already decoded text).

    ``describe_line`` names a line in a message (a notebook names the cell too).
    """
    lines = source_lines(source)
    if not options.check_all_files and not concerns_tensorflow(source):
        return _syntax_only(source, path, options, lines)
    with _recursion_room():
        return _lint_module(source, path, options, lines, describe_line)


def _lint_module(source: str, path: str, options: LintOptions, lines: List[str],
                 describe_line: Callable[[int], str]) -> List[Finding]:
    try:
        module = parse(source, path)
    except SourceError as error:
        return [error.finding(path, lines)] if "NAN000" in options.engine_codes else []
    analysis = Analysis(module, options.settings)
    reports: List[Report] = []
    visit, leave, boundaries = _tracker(analysis)
    for rule_class in options.rules:
        rule = rule_class(analysis, reports, options.rule_settings.get(rule_class.code))
        for node_type, method in rule_class.handlers():
            visit.setdefault(node_type, []).append(getattr(rule, method))
    too_deep = _engine_finding(PARSE_ERROR, "error", path, 1, 1,
                               "cannot analyse: expressions nested too deeply", lines)
    crashes: List[Finding] = []

    def switch_off(handler: Handler, error: Exception) -> None:
        """A rule that raises is a bug: report it, and let the other rules finish the file."""
        rule = getattr(handler, "__self__", None)
        if not isinstance(rule, Rule):
            raise RuleCrash(handler, error) from error  # the engine's own bookkeeping
        for node_type, handlers in visit.items():
            visit[node_type] = [h for h in handlers if getattr(h, "__self__", None) is not rule]
        crashes.append(_internal_error(path, rule.code, error, lines))

    try:
        walk(module, visit, leave, boundaries, on_crash=switch_off)
    except RecursionError:
        return [too_deep]
    except RuleCrash as crash:
        return [_internal_error(path, crash.code, crash.error, lines)]
    threshold = CONFIDENCE_ORDER[options.min_confidence]
    superseded = {(id(node), code) for r in reports for code in r.rule.supersedes
                  for node in (r.node, *r.covers)
                  if CONFIDENCE_ORDER[r.confidence] >= threshold}
    if superseded:
        reports = [r for r in reports if (id(r.node), r.rule.code) not in superseded]
    comments = suppression.parse(source, options.known_codes)
    shown = [CONFIDENCE_ORDER[r.confidence] >= threshold for r in reports]
    # A report below min-confidence is not shown, but still uses its suppression: the
    # comment is needed again as soon as the threshold is lowered.
    needed = any(shown) or bool(reports and (comments.by_line or comments.whole_file))
    try:
        findings = (_findings(module, reports, shown, path, lines, comments, describe_line)
                    if needed else [])
    except RecursionError:
        return [too_deep]
    findings.extend(_suppression_problems(source, path, options, lines, comments))
    findings.extend(crashes)
    findings.sort(key=lambda f: f.sort_key)
    return findings


def _internal_error(path: str, code: str, error: BaseException, lines: List[str]) -> Finding:
    """One line for the report; the traceback rides along for ``--verbose``."""
    finding = _engine_finding(INTERNAL_ERROR, "error", path, 1, 1,
                              f"internal error in {code}: {type(error).__name__}: "
                              f"{' '.join(str(error).split())}", lines)
    finding.detail = "".join(traceback.format_exception(type(error), error,
                                                        error.__traceback__))
    return finding


def _findings(module: cst.Module, reports: List[Report], shown: List[bool], path: str,
              lines: List[str], comments: suppression.Suppressions,
              describe_line: Callable[[int], str]) -> List[Finding]:
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)

    def where_is(node: cst.CSTNode) -> Optional[str]:
        position = positions.get(node)
        return describe_line(position.start.line) if position is not None else None

    findings = []
    seen = set()
    for report, show in zip(reports, shown):
        position = positions[report.node]
        start, end = position.start, position.end
        span_start, span_end = start.line, end.line
        statement = positions.get(report.statement) if report.statement is not None else None
        if statement is not None:
            span_start = min(span_start, statement.start.line)
            if not isinstance(report.statement, _COMPOUND):
                span_end = max(span_end, statement.end.line)
        rule = report.rule
        # Asked first even for a report not shown: it marks the comment as used.
        suppressed = comments.suppresses(rule.code, range(span_start, span_end + 1))
        if suppressed or not show:
            continue
        key = (rule.code, start.line, start.column, end.line, end.column)
        if key in seen:
            continue
        seen.add(key)
        message = report.message
        if "{evidence}" in message:
            detail = render(report.evidence, module, where_is) if report.evidence else ""
            message = message.replace("{evidence}", detail)
        findings.append(Finding(
            code=rule.code, name=rule.name, severity=rule.severity,
            confidence=report.confidence, path=path, line=start.line, column=start.column + 1,
            end_line=end.line, end_column=end.column + 1, message=message,
            suggestion=report.suggestion, fix=_fix(module, report.fix, positions, lines),
            source_lines=tuple(lines[start.line - 1:end.line])))
    return findings


def _fix(module: cst.Module, fix: Optional[Fix], positions: Any, lines: List[str]
         ) -> Optional[Dict[str, Any]]:
    """A rule's libcst edit as text edits at the replaced nodes' positions."""
    if fix is None:
        return None
    edits = []
    for old, new in fix.replacements:
        position = positions.get(old)
        if position is None:
            return None  # a node outside this module: the rule's fix cannot be placed
        start, end = position.start, position.end
        original = "\n".join(lines[start.line - 1:end.line])
        original = original[start.column:len(original) - len(lines[end.line - 1]) + end.column]
        indent = _block_indent(module, old, original, lines, start.line)
        if indent is None:
            return None  # cannot render the node as it is written: no fix rather than a wrong one
        edits.append({"line": start.line, "column": start.column + 1, "end_line": end.line,
                      "end_column": end.column + 1,
                      "replacement": _render(module, new, indent)})
    return {"safety": fix.safety, "description": fix.description, "edits": edits}


def _render(module: cst.Module, node: cst.CSTNode, indent: str) -> str:
    """The node's code as it reads inside its block (``code_for_node`` forgets the block's
    indentation on continuation lines)."""
    state = CodegenState(default_indent=module.default_indent,
                         default_newline=module.default_newline,
                         indent_tokens=[indent] if indent else [])
    node._codegen(state)
    return "".join(state.tokens)


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
        if _render(module, node, candidate).replace("\r\n", "\n") == original:
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
    """The code cells linted as one program; each finding points at its cell and line."""
    try:
        document = notebook.read(data)
    except notebook.NotebookError as error:
        if "NAN000" not in options.engine_codes:
            return []
        return [SourceError(str(error)).finding(path)]

    def describe_line(line: int) -> str:
        cell, row = document.place(line)
        return f"cell {cell}, line {row}"

    findings = lint_source(document.source, path, options, describe_line)
    for finding in findings:
        cell, line = document.place(finding.line)
        end_cell, end_line = document.place(finding.end_line)
        if end_cell != cell:  # a statement cannot run on into the next cell; be safe
            end_line, finding.end_column = line, finding.column + 1
        finding.cell, finding.line, finding.end_line = cell, line, end_line
        finding.fix = None  # its edits are in the coordinates of the joined cells
    return findings


# -- the time budget -------------------------------------------------------------------------
class FileTimeout(BaseException):
    """The file's time budget ran out. Not an Exception, so that no ``except Exception``
    between the alarm and the budget (a rule's, the engine's) can swallow it."""


_alarm_armed = [False]
_ALARM_REPEAT = 0.05  # seconds between alarms once the budget is spent


def _expire(signum: int, frame: Any) -> None:
    if _alarm_armed[0]:  # a late alarm, after the budget was closed, is ignored
        raise FileTimeout()


def within_budget(seconds: float, work: Callable[[], Any]) -> Any:
    """``work()``, or FileTimeout once it has run ``seconds`` (SIGALRM, so it interrupts
    Python code, and native code as soon as it returns). Signals belong to the main thread;
    elsewhere, and where there is no setitimer (Windows), there is no budget. The previous
    handler and any timer already running are restored afterwards."""
    if (not seconds or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        return work()
    previous_handler = signal.signal(signal.SIGALRM, _expire)
    started = time.monotonic()
    _alarm_armed[0] = True
    # The alarm repeats until the budget is closed: one that lands where exceptions are
    # swallowed (a gc callback, a __del__) is followed by another a moment later.
    previous_delay, previous_interval = signal.setitimer(signal.ITIMER_REAL, seconds,
                                                         _ALARM_REPEAT)
    try:
        return work()
    except FileTimeout:
        raise
    except Exception as error:
        # An alarm that lands inside native code (ast's constructor, say) can come out as
        # another error (SystemError): past the deadline, it is the timeout all the same.
        if time.monotonic() - started >= seconds:
            raise FileTimeout() from error
        raise
    finally:
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
