"""The pure core: ``lint_source(text, path, options) -> findings``, and the order of the
steps a file goes through. Each step is a module of its own, and each imports only the ones
before it:

1. source (``nanlint.source``): the file's bytes, its text, its lines;
2. parse (``nanlint.parsing``): Python's parser decides what is valid, then libcst's tree;
   within the file's time budget (``nanlint.budget``), in a child process the budget can
   kill when a statement is long enough for the native parse to take seconds;
3. analysis and rules (``nanlint.dispatch``): one walk that runs every enabled rule;
4. findings (``nanlint.findings_of``): reports placed, suppressed or kept, with their
   evidence and their fixes as text edits (``nanlint.fix_edits``);
5. fixes (``nanlint.fixing``): applying them, a stage above this one.

A notebook goes through the same steps as one program (``nanlint.cells``). The CLI, the
language server, the tests and every other entry point are thin wrappers.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import os
import re
import sys
from typing import Callable, Iterator, List, Optional, Tuple

from nanlint import budget, notebook, suppression
from nanlint.analysis import Analysis
from nanlint.budget import FileTimeout, within_budget
from nanlint.cells import cell_lines, in_cells, notebook_program
from nanlint.dispatch import RuleCrash, run_rules
from nanlint.finding import Finding
from nanlint.findings_of import (crash_findings, findings_of, in_file, internal_error,
                                 suppression_problems)
from nanlint.optable import TF_MODULE_ROOTS
from nanlint.options import LintOptions
from nanlint.parsing import (BIG_SOURCE, Readable, give_back_freed_memory, parse_checked,
                             python_tree, readable, slow_to_parse, tabs_counted)
from nanlint.rule import Report
from nanlint.source import (PARSE_ERROR, TIMEOUT, SourceError, decode, engine_finding,
                            read_bytes, source_lines)

# libcst's visitors (positions, code generation) recurse about three frames per level of
# nesting: Python's default limit of 1,000 stops at chains of ~300 (`a.b.c...`, `x + y + ...`),
# which real generated code exceeds. The C stack holds this many comfortably.
RECURSION_ROOM = 5000


# -- entry points ----------------------------------------------------------------------------
def lint_file(file_path: str, display_path: str, options: LintOptions) -> List[Finding]:
    data, error = read_bytes(file_path)
    if error is not None:
        return [error.finding(display_path)] if "NAN000" in options.engine_codes else []
    return lint_bytes(data, display_path, options)


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
    return [engine_finding(TIMEOUT, "error", path, 1, 1,
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


# -- one module ------------------------------------------------------------------------------
def concerns_tensorflow(source: str) -> bool:
    """The cheap text test: every finding needs an op resolved through a TF/Keras import,
    a package's own module under a conventional alias (`from .. import backend as K`), or
    a conventional alias the file uses without binding it (`tf.log` after a star import);
    numpy's are the hunt's (``Rule._on_arrays``)."""
    return any(root in source for root in TF_MODULE_ROOTS) or (
        _ALIASED.search(source) is not None)


# The hunt reads any array library's code: numpy's, JAX's, PyTorch's, Theano's, MLX's,
# CuPy's, MXNet's, Chainer's, Paddle's; their functions are taken at their names
# (``Sites``).
_ARRAYS = re.compile(r"\b(numpy|torch|theano|jax|mlx|cupy|mxnet|chainer|paddle)\b")
_BACKEND = re.compile(r"^\s*(from [\w.]+ import ([\w, ]*\b)?backend\b|import [\w.]+\.backend\b)",
                      re.MULTILINE)
_ALIASED = re.compile(r"^\s*from \.+\w* import [\w, ]*\bas (K|tf)\b|\b(K|tf)\.[a-z_]",
                      re.MULTILINE)


def lint_source(source: str, path: str, options: LintOptions,
                describe_line: Optional[Callable[[int], str]] = None) -> List[Finding]:
    """Every finding of the enabled rules in ``source`` (already decoded text).

    ``describe_line`` names a line in a message (a notebook names the cell too).
    """
    describe_line = describe_line or _line_number
    lines = source_lines(source)
    if not options.check_all_files and not concerns_tensorflow(source) and not (
            options.suspects and (_ARRAYS.search(source) or _BACKEND.search(source))):
        # The hunt reads data preparation and other array libraries' code too, and code
        # written against a project's own backend module (`from package import backend`:
        # TensorFlow's, numpy's or JAX's).
        return _syntax_only(source, path, options, lines)
    with _recursion_room(), _cyclic_gc_paused():
        return _lint_module(source, path, options, lines, describe_line)


def _line_number(line: int) -> str:
    return f"line {line}"


def _syntax_only(source: str, path: str, options: LintOptions, lines: List[str]
                 ) -> List[Finding]:
    """A file that cannot concern TF: Python's own (fast) parser still reports NAN000."""
    try:
        read, _ = readable(source, path)
    except SourceError as error:
        return [error.finding(path, lines)] if "NAN000" in options.engine_codes else []
    text = read.text
    text_lines = lines if read.problem is None else source_lines(text)
    found = suppression_problems(text, path, options, text_lines,
                                 suppression.parse(text, options.known_codes))
    return in_file(found, read, path, options, lines)


def _lint_module(source: str, path: str, options: LintOptions, lines: List[str],
                 describe_line: Callable[[int], str]) -> List[Finding]:
    """Parse: Python's parser first (what of the file it reads); then libcst's, in a child
    process when it could take longer than the budget can interrupt."""
    try:
        read, tree = readable(source, path)
    except SourceError as error:
        return [error.finding(path, lines)] if "NAN000" in options.engine_codes else []
    text_lines = lines if read.problem is None else source_lines(read.text)
    child = budget.armed() and hasattr(os, "fork") and slow_to_parse(tree, text_lines)
    if len(source) >= BIG_SOURCE:
        del tree  # not held through libcst's parse: made again after it (see _analyse)
        tree = None
    if not child:
        return _analyse(read, tree, path, options, lines, describe_line)
    findings, status = budget.in_child(
        lambda: _analyse(read, tree, path, options, lines, describe_line))
    if findings is not None:
        return findings
    error = RuntimeError(f"the process that parsed the file ended with status {status}")
    return [internal_error(path, "the engine", error, lines)]


def _analyse(read: Readable, tree: Optional[ast.Module], path: str, options: LintOptions,
             lines: List[str], describe_line: Callable[[int], str]) -> List[Finding]:
    """libcst's parse, the analysis and the rules, the findings, placed in the file as
    written (``lines``). ``tree`` is Python's tree of ``read.text``, or None for a big file
    (``BIG_SOURCE``)."""
    source = read.text
    text_lines = lines if read.problem is None else source_lines(source)
    try:
        module = parse_checked(source)
    except SourceError as error:
        # libcst's tokenizer refuses some indentations of tabs and spaces that Python reads
        # (a tab, then spaces, inside a block): read them with the tabs counted as Python does.
        counted = tabs_counted(read)
        try:
            module = parse_checked(counted.text) if counted is not None else None
        except SourceError:
            module = None
        if module is None:
            return [error.finding(path, lines)] if "NAN000" in options.engine_codes else []
        read, source, tree = counted, counted.text, None
        text_lines = source_lines(source)
    if tree is None:
        give_back_freed_memory()
        tree = python_tree(source, path)  # accepted before: it parses
    analysis = Analysis(module, options.settings, source, path)
    reports: List[Report] = []
    silent: List[Report] = []
    try:
        return in_file(_run_rules(analysis, reports, silent, (source, tree), path, options,
                                  text_lines, describe_line,
                                  read.problem is None and not read.indents),
                       read, path, options, lines)
    finally:
        # Rules and their reports, and the analysis and its helpers, refer to each other:
        # without these cycles the tree is freed at once, by reference counting.
        reports.clear()
        silent.clear()
        analysis.close()


def _run_rules(analysis: Analysis, reports: List[Report], silent: List[Report],
               text: Tuple[str, ast.Module], path: str, options: LintOptions, lines: List[str],
               describe_line: Callable[[int], str], with_fixes: bool) -> List[Finding]:
    """The rules' walk over the module, and their reports as findings (or, for `nanlint
    suspects`, ranked). ``reports`` and ``silent`` are the lists the rules fill;
    ``text``: the source and Python's tree of it."""
    too_deep = engine_finding(PARSE_ERROR, "error", path, 1, 1,
                              "cannot analyse: expressions nested too deeply", lines)
    try:
        crashes, sites = run_rules(analysis, reports, silent, options)
    except RecursionError:
        return [too_deep]
    except RuleCrash as crash:
        return [internal_error(path, crash.code, crash.error, lines)]
    comments = suppression.parse(text[0], options.known_codes)
    if sites is not None:
        from nanlint import suspects

        # A rule that crashed is said, as `check` says it: its suspects are missing.
        return suspects.ranked(analysis, text, reports, sites, path, lines, comments,
                               describe_line) + crash_findings(analysis, text, crashes,
                                                               path, lines)
    try:
        return findings_of(analysis, text, reports, crashes, comments, path, options, lines,
                           describe_line, with_fixes)
    except RecursionError:
        return [too_deep]


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
