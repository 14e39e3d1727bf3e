"""Gradient reach across the files of a folder: where a function's result goes when only
other files call it.

A gradient hazard (a root or a norm at 0, ...) is reported only where a gradient is shown to
flow (docs/gradient-reach.md). In a module of helpers, a top-level function that nothing in
its own file names returns its value to callers in other files. A scan of a folder keeps
such a hazard pending, with the function's name (``Finding.callers``); here the folder's
other Python files that name the function are read, and each call of it through an import
of its module (`from utils import dist`, `utils.dist(...)`, `from .utils import dist`) is
asked where its result goes, by the same gradient reach as in one file. The hazard is
reported where one call's result reaches a differentiated objective (the message names the
call); otherwise (calls that reach only metrics or summaries, or somewhere unknown, or no
call) it is left to `nanlint suspects`, as in a scan of the file alone. A call made in a
function that itself only other files call goes on through their calls, three files at
most. A finding settled so carries its suggestion but no fix: `--fix` reads one file at a
time.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import libcst as cst

from nanlint.analysis import Analysis
from nanlint.analysis.sinks import OBJECTIVE, UNKNOWN
from nanlint.config import relative_display
from nanlint.finding import Finding
from nanlint.parsing import SourceError, parse_checked, readable
from nanlint.positions import Positions
from nanlint.uncalled import read_text

Key = Tuple[str, str]  # (the absolute path of the function's file, its name)


def settle(findings: List[Finding], files: Sequence[Path], configs) -> List[Finding]:
    """``findings`` with each pending one (``Finding.callers``) reported, with the call
    that shows a gradient, or left out. ``files``: the Python files the scan checked (its
    exclusions and test files left out), where the callers are looked for."""
    settled = []
    for finding, shown in _through(findings, files, configs):
        if shown is None:
            settled.append(finding)
        elif shown:
            name, call = shown
            settled.append(replace(finding, callers=(), fix=None, message=(
                f"{finding.message} (a gradient flows: `{name}` is called at {call}, whose "
                f"result reaches a differentiated objective)")))
    return settled


def ranked(suspects: List[Finding], files: Sequence[Path], configs) -> List[Finding]:
    """`nanlint suspects` of a folder: a suspect whose way out is a function only other
    files call reaches the loss where one of their calls sends its result to an objective
    (``suspects.reached_through``)."""
    from nanlint.suspects import reached_through

    return [reached_through(suspect, *shown) if shown else suspect
            for suspect, shown in _through(suspects, files, configs)]


def _through(findings: List[Finding], files: Sequence[Path], configs
             ) -> List[Tuple[Finding, Optional[Tuple[str, str]]]]:
    """Each finding with, if it waits for callers in other files (``Finding.callers``),
    the function and the call (`path:line`) that sends the function's result to a
    differentiated objective, or () where no call does; None where it waits for none."""
    pending = [finding for finding in findings if finding.callers]
    if not pending:
        return [(finding, None) for finding in findings]
    wanted = {(os.path.abspath(finding.path), name)
              for finding in pending for name in finding.callers}
    shown = _objective_calls([os.path.abspath(path) for path in files
                              if str(path).endswith(".py")], wanted, configs)
    through: List[Tuple[Finding, Optional[Tuple[str, str]]]] = []
    for finding in findings:
        path = os.path.abspath(finding.path)
        name = next((name for name in finding.callers if (path, name) in shown), None)
        through.append((finding, None if not finding.callers else (
            (name, shown[path, name]) if name is not None else ())))
    return through


def _objective_calls(paths: Iterable[str], wanted: Set[Key], configs) -> Dict[Key, str]:
    """For each wanted function, a call (`path:line`) in a file of ``paths`` whose result
    reaches a differentiated objective, there or through the callers of the function the
    call is made in (``_STEPS`` files away at most)."""
    paths = list(paths)
    shown: Dict[Key, str] = {}
    waiting: Dict[Key, List[Tuple[Key, str]]] = {}  # a function -> calls whose result it returns
    searched: Set[Key] = set()
    frontier = set(wanted)
    for _ in range(_STEPS):
        searched |= frontier
        onward: Set[Key] = set()
        for key, call, through in _calls_in(paths, frontier, configs):
            if through is None:
                _show(key, call, shown, waiting)
            elif through in shown:
                _show(key, call, shown, waiting)
            elif key not in shown:
                waiting.setdefault(through, []).append((key, call))
                onward.add(through)
        frontier = onward - searched
        if not frontier:
            break
    return shown


_STEPS = 3  # files a result may go through to its objective: a helper, its caller, theirs


def _show(key: Key, call: str, shown: Dict[Key, str],
          waiting: Dict[Key, List[Tuple[Key, str]]]) -> None:
    """``key`` reaches an objective through ``call``; so do the calls waiting on it."""
    stack = [(key, call)]
    while stack:
        key, call = stack.pop()
        if key not in shown:
            shown[key] = call
            stack.extend(waiting.pop(key, ()))


def _calls_in(paths: Sequence[str], wanted: Set[Key], configs
              ) -> List[Tuple[Key, str, Optional[Key]]]:
    """The calls of wanted functions in the files of ``paths`` (`path:line`) whose result
    reaches a differentiated objective (then None) or goes only where a function of that
    file, which the file does not call, returns it (that function)."""
    # a call of one of the names (not its definition): only such a file is parsed
    called = re.compile(r"(?<!def )(?<![\w])(?:" + "|".join(
        sorted({re.escape(n) for _, n in wanted})) + r")[ \t]*\(")
    defining = {path for path, _ in wanted}
    found: List[Tuple[Key, str, Optional[Key]]] = []
    for path in paths:
        text = read_text(path) if path not in defining else ""
        if not called.search(text):
            continue
        where = relative_display(Path(path))
        found.extend((key, f"{where}:{line}", through)
                     for key, line, through in _calls_reaching(path, text, wanted, configs))
    return found


def _calls_reaching(path: str, text: str, wanted: Set[Key], configs
                    ) -> List[Tuple[Key, int, Optional[Key]]]:
    """The wanted functions that the file ``path`` calls, each with the line of a call and
    where its result goes: None for a differentiated objective, a function of the file
    that returns it to callers elsewhere (``Reach.callers``), or the call is left out."""
    names = {name for _, name in wanted}
    try:
        read, tree = readable(text, path)
        if not _may_call(tree, path, wanted):
            return []  # Python's parser and the imports tell, fast
        module = parse_checked(read.text)
    except (SourceError, RecursionError, ValueError):
        return []  # a file the scan reported already: nothing to read here
    settings = configs.for_path(Path(path)).options_for(Path(path)).settings
    analysis = Analysis(module, settings, read.text, path)
    found: Dict[Tuple[Key, Optional[Key]], cst.Call] = {}
    try:
        for call in analysis.calls_named(*sorted(names)):
            key = _called(analysis, call, path, wanted)
            if key is None:
                continue
            reach = analysis.flow.reach(call, analysis.function_of(call) or analysis.module)
            if reach.level == OBJECTIVE:
                found.setdefault((key, None), call)
            elif reach.level == UNKNOWN:
                for function in reach.callers:
                    found.setdefault((key, (os.path.abspath(path), function)), call)
        if not found:
            return []
        positions = Positions(module, list(found.values()))
        return [(key, positions[call].start.line, through)
                for (key, through), call in found.items()]
    finally:
        analysis.close()


def _called(analysis: Analysis, call: cst.Call, path: str, wanted: Set[Key]
            ) -> Optional[Key]:
    """The wanted function a call of the file ``path`` names through an import of its
    module, as Python finds it: `from .utils import dist` in the caller's package,
    `from utils import dist` or `pkg.utils.dist(...)` in the caller's folder or a folder
    above it (where a script is run from); None for anything else."""
    return _resolved(analysis.qualified_at(call.func, analysis.call_place(call)) or "", path,
                     wanted)


def _may_call(tree: ast.Module, path: str, wanted: Set[Key]) -> bool:
    """Whether Python's tree of the file ``path`` calls a wanted function, its imports read
    wherever they are (a first look: the analysis places them in their scopes)."""
    names = {name for _, name in wanted}
    imported: Dict[str, str] = {}
    calls = []
    for node in ast.walk(tree):
        kind = node.__class__
        if kind is ast.Import:
            for alias in node.names:
                if alias.asname:
                    imported[alias.asname] = alias.name
                else:
                    imported[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif kind is ast.ImportFrom:
            for alias in node.names:
                imported[alias.asname or alias.name] = (
                    "." * (node.level or 0) + (node.module + "." if node.module else "")
                    + alias.name)
        elif kind is ast.Call and getattr(node.func, "id", getattr(node.func, "attr", None)
                                          ) in names:
            calls.append(node.func)
    for func in calls:
        parts = []
        while func.__class__ is ast.Attribute:
            parts.append(func.attr)
            func = func.value
        if func.__class__ is ast.Name and func.id in imported:
            qualified = ".".join([imported[func.id], *reversed(parts)])
            if _resolved(qualified, path, wanted) is not None:
                return True
    return False


def _resolved(qualified: str, path: str, wanted: Set[Key]) -> Optional[Key]:
    """The wanted function the dotted name ``qualified``, as the file ``path`` imports it,
    is; None for anything else."""
    level = len(qualified) - len(qualified.lstrip("."))
    parts = qualified[level:].split(".")
    if len(parts) < 2 or not all(parts):
        return None
    for candidate in _module_files(os.path.dirname(os.path.abspath(path)), level, parts[:-1]):
        found = _exported(candidate, parts[-1], wanted, _REEXPORTS)
        if found is not None:
            return found
    return None


_REEXPORTS = 3  # how many modules a name may be imported through (`pkg/__init__.py`'s
# `from pkg.losses import *`, a package's `from .pairwise import distance`)


def _module_files(folder: str, level: int, parts: Sequence[str]) -> List[str]:
    """The files that could be the module ``parts`` imported (``level`` dots) by a file of
    ``folder``: for a relative import, in its package; else in the folder or one above it."""
    bases = [folder]
    if level:
        for _ in range(level - 1):
            bases = [os.path.dirname(bases[0])]
    else:
        while os.path.dirname(bases[-1]) != bases[-1]:
            bases.append(os.path.dirname(bases[-1]))
    module = os.path.join(*parts) if parts else ""
    files = []
    for base in bases:
        if module:
            files.append(os.path.join(base, module + ".py"))
        files.append(os.path.join(base, module, "__init__.py"))
    return files


def _exported(module: str, name: str, wanted: Set[Key], depth: int) -> Optional[Key]:
    """The wanted function that ``name`` of the module file ``module`` is: defined there, or
    imported there from another module (`from .gan import *`, `from pkg.x import name`)."""
    if (module, name) in wanted:
        return module, name
    if depth == 0:
        return None
    for level, parts, names in _imports_from(module):
        if "*" not in names and name not in names:
            continue
        for candidate in _module_files(os.path.dirname(module), level, parts):
            found = _exported(candidate, name, wanted, depth - 1)
            if found is not None:
                return found
    return None


# module file -> ((size, modification time), its `from ... import` statements): a package's
# `__init__.py` is asked for every call through it
_IMPORTS: Dict[str, Tuple[Tuple[int, int], List[Tuple[int, List[str], Set[str]]]]] = {}


def _imports_from(module: str) -> List[Tuple[int, List[str], Set[str]]]:
    """The `from ... import ...` statements of a module file, each as (its dots, the
    module's parts, the names imported); [] where there is no such file. Read once per
    version of the file."""
    try:
        status = os.stat(module)
    except OSError:
        return []
    version = (status.st_size, status.st_mtime_ns)
    known = _IMPORTS.get(module)
    if known is None or known[0] != version:
        try:
            tree = ast.parse(read_text(module))
        except (SyntaxError, ValueError, RecursionError):
            tree = ast.Module(body=[], type_ignores=[])
        known = _IMPORTS[module] = (version, [
            (node.level or 0, (node.module or "").split(".") if node.module else [],
             {alias.name for alias in node.names})
            for node in tree.body if node.__class__ is ast.ImportFrom])
    return known[1]
