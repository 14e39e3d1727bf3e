"""Code that nothing in the checked folders calls: a gate finding there is not reported.

A scan of a folder that holds a program (a ``__main__`` block or module, absl's
``app.run``, a notebook, a script that trains at module level) sees what runs. A top-level
function or class whose name appears nowhere in the folder's Python files and notebooks
but in its own definitions (a call, an import or a string anywhere counts as a use; tests
count, skipped or not; a comment or a docstring does not) never runs when the project
trains, and neither does one that only dead definitions name, so a hazard in it
cannot make that training NaN: research code keeps many such leftovers (an unused metric,
a loss no script selects, a class never built). Nor can a value kept as an attribute
(``self.nll = ...``) that nothing in the folder reads: every place that names it assigns it.

What stays reported: every finding of a folder of definitions alone (a library, a
snippet: its callers are elsewhere), files named on the command line (a pre-commit run and
an editor see only part of a project), decorated definitions (a framework may call them by
registration), and the public names of an installable package (a ``setup.py``,
``setup.cfg`` or a ``pyproject.toml`` with a ``[project]`` or Poetry table beside the
folder's configuration, or in the folder; a ``setup.py`` that builds only extensions
installs no Python file): they are its users' API. So are the public names of a folder
that imports a module by a name it computes (``importlib.import_module("models." +
name)``): any of them may be what a configuration selects. ``include-uncalled:
true`` keeps everything. ``nanlint suspects`` lists all of it, as the hunt must.

The definition enclosing a finding is read from the text: the nearest line above it at
column 0 that starts a ``def`` or ``class``, with only indented, blank or comment lines in
between; anything else (module-level code, a string continued at column 0) is not judged.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from nanlint.discovery import SKIPPED_FOLDERS, is_virtualenv
from nanlint.finding import Finding

_DEFINITION = re.compile(r"(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_]\w*)")
# A program: a `__main__` block or module, absl's `app.run`, a notebook's cells, a script
# (a `with`, `for` or `while` at module level, or a model trained or run there).
_RUNS = re.compile(r"__main__|\bapp\.run\(|\"cell_type\"|^(?:with|for|while)\b"
                   r"|^[\w.]+\.(?:fit|fit_generator|train|run|minimize)\(", re.MULTILINE)
# `self.x = value` (or `self.x: T = value`) at the start of a line.
_ATTRIBUTE_SET = re.compile(r"[ \t]*self\.([A-Za-z_]\w*)[ \t]*(?::[^=]*)?=(?!=)")
# A module imported by a name computed at run time (not a literal string).
_BY_NAME = re.compile(
    r"\b(?:import_module|__import__)\([ \t]*(?![ \t]*['\"][^'\"]*['\"][ \t]*\))")
_PACKAGED = re.compile(r"^\[(?:project|tool\.poetry)\]", re.MULTILINE)
# A setup.py that builds extensions (`ext_modules`) and names no Python package or module
# installs none of the project's Python files: setuptools discovers packages only where
# neither is given.
_MODULES_NAMED = re.compile(r"\b(?:packages|py_modules|find_packages|find_namespace_packages)\b")


# What marks a project's top folder: its folders given together are one project.
_PROJECT_MARKERS = (".git", ".hg", "setup.py", "setup.cfg", "pyproject.toml", ".nanlint.yaml")


def drop_uncalled(findings: List[Finding], folders: Sequence[Path], configs) -> List[Finding]:
    """``findings`` without those in a definition that nothing under ``folders`` (the
    folders given on the command line) calls. Findings of files outside them are kept.
    Folders of different projects (`nanlint check a/ b/` of two repositories) are judged
    apart: one's uses, programs and packaging say nothing of the other's code."""
    if not folders or not findings:
        return findings
    projects: Dict[Path, List[Path]] = {}
    for folder in folders:
        projects.setdefault(_project_of(Path(os.path.abspath(folder))), []).append(folder)
    if len(projects) < 2:
        return _drop_uncalled(findings, folders, configs)
    dropped: Set[int] = set()
    for group in projects.values():
        roots = [os.path.abspath(folder) for folder in group]
        mine = [finding for finding in findings if any(
            os.path.abspath(finding.path).startswith(root + os.sep) for root in roots)]
        left = {id(finding) for finding in _drop_uncalled(mine, group, configs)}
        dropped |= {id(finding) for finding in mine if id(finding) not in left}
    return [finding for finding in findings if id(finding) not in dropped]


def _project_of(folder: Path) -> Path:
    """The nearest folder at or above ``folder`` that marks a project's top (a repository,
    a package's setup, a nanlint configuration); ``folder`` itself where none does."""
    for place in (folder, *folder.parents):
        if any((place / marker).exists() for marker in _PROJECT_MARKERS):
            return place
    return folder


def _drop_uncalled(findings: List[Finding], folders: Sequence[Path], configs
                   ) -> List[Finding]:
    if not folders or not findings:
        return findings
    roots = [os.path.abspath(folder) for folder in folders]
    enclosing: Dict[int, List[str]] = {}
    attributes: Dict[int, str] = {}  # the attribute a finding's value is assigned to
    lines: Dict[str, List[str]] = {}
    packages: Dict[Optional[Path], bool] = {}  # configuration root -> an installable package
    for index, finding in enumerate(findings):
        path = os.path.abspath(finding.path)
        if (finding.cell is not None or finding.code.startswith("NAN0")
                or not any(path.startswith(root + os.sep) for root in roots)):
            continue  # a notebook's cells are not judged, nor the engine's own findings
        config = configs.for_path(Path(finding.path))
        if getattr(config, "include_uncalled", False):
            continue
        if path not in lines:
            lines[path] = read_text(path).splitlines()
        # The folder of the configuration file; with none, the folders given (not the
        # current folder, which may be another project's).
        root = getattr(config, "root", None) if getattr(config, "path", None) else None
        if root not in packages:
            packages[root] = _packaged(root, folders)
        packaged = packages[root]
        names = [name for name in definitions_at(lines[path], finding.line)
                 if not (packaged and not name.startswith("_"))]
        if names:
            enclosing[index] = names
        if not packaged:
            attribute = _assigned_attribute(lines[path], finding)
            if attribute is not None:
                attributes[index] = attribute
    if not enclosing and not attributes:
        return findings
    uses = _Uses(list(_texts(roots)), any(packages.values()))
    if not uses.runs():
        return findings  # definitions alone (a library, a snippet): their callers are elsewhere
    if uses.imports_by_name():  # as for a package: a public name may be what is imported
        uses.packaged = True
        enclosing = {index: kept for index, names in enclosing.items()
                     if (kept := [name for name in names if name.startswith("_")])}
    return [finding for index, finding in enumerate(findings)
            if not any(uses.dead(name) for name in enclosing.get(index, ()))
            and not (index in attributes and uses.unread(attributes[index]))]


def _assigned_attribute(lines: Sequence[str], finding: Finding) -> Optional[str]:
    """``x`` where the finding is in the value of ``self.x = ...`` written on its line (a
    graph's tensor kept on the model), else None."""
    if not 1 <= finding.line <= len(lines):
        return None
    match = _ATTRIBUTE_SET.match(lines[finding.line - 1])
    if match is None or finding.column <= match.end():
        return None
    return match.group(1)


class _Uses:
    """Where each name is used in the folder's code (its comments and lone strings left
    out), and whether a definition is dead: nothing names it but its own definitions and
    definitions that are dead themselves (a metric only an unused class calls)."""

    def __init__(self, texts: Sequence[str], packaged: bool) -> None:
        self.raw = texts
        self.packaged = packaged  # an installable package: its public names are its API
        self._dead: Dict[str, bool] = {}
        self._codes: Dict[int, Tuple[str, List[str]]] = {}  # tokenized when first needed

    def code(self, index: int) -> Tuple[str, List[str]]:
        """The text of file ``index`` without comments and lone strings, and its lines."""
        known = self._codes.get(index)
        if known is None:
            text = self.raw[index]
            known = self._codes[index] = (_code(text), text.splitlines())
        return known

    def imports_by_name(self) -> bool:
        """Whether the folder's code imports a module by a name it computes
        (`importlib.import_module("models." + name)`): any public definition may run."""
        return any(_BY_NAME.search(text) and _BY_NAME.search(self.code(index)[0])
                   for index, text in enumerate(self.raw))

    def runs(self) -> bool:
        """Whether a file of the folder is a program (outside comments and docstrings)."""
        return any(_RUNS.search(text) and _RUNS.search(self.code(index)[0])
                   for index, text in enumerate(self.raw))

    def _containing(self, word: str) -> Iterable[Tuple[str, List[str]]]:
        for index, text in enumerate(self.raw):
            if word in text:
                code = self.code(index)
                if word in code[0]:
                    yield code

    def dead(self, name: str, visiting: Optional[Set[str]] = None) -> bool:
        known = self._dead.get(name)
        if known is not None:
            return known
        visiting = visiting or set()
        if name in visiting:
            return True  # definitions that only call each other: dead if nothing else calls
        visiting.add(name)
        found = all(self._dead_use(name, enclosing, visiting)
                    for enclosing in self._uses(name))
        visiting.discard(name)
        if not visiting:  # a verdict that assumed nothing about a definition being visited
            self._dead[name] = found
        return found

    def unread(self, attribute: str) -> bool:
        """Whether nothing in the folder's code reads ``attribute``: every place that names
        it assigns it (``self.x = ...``). A value nothing reads cannot make training NaN,
        in a graph (never run) or eagerly (computed, never used)."""
        word = re.compile(r"\b" + re.escape(attribute) + r"\b")
        assigned = re.compile(r"\.[ \t]*" + re.escape(attribute) + r"[ \t]*(?::[^=\n]*)?=(?!=)")
        for code, _ in self._containing(attribute):
            sets = {match.start() + match.group(0).index(attribute)
                    for match in assigned.finditer(code)}
            if any(match.start() not in sets for match in word.finditer(code)):
                return False
        return True

    def _dead_use(self, name: str, enclosing: List[str], visiting: Set[str]) -> bool:
        """A use of ``name`` inside ``enclosing`` (the definitions whose body holds it) runs
        only if they are called."""
        if name in enclosing:
            return True  # a definition calling itself
        eligible = [outer for outer in enclosing
                    if not (self.packaged and not outer.startswith("_"))]
        return any(self.dead(outer, visiting) for outer in eligible)

    def _uses(self, name: str) -> Iterable[List[str]]:
        """For each use of ``name`` but its own definitions, the definitions that hold it
        (empty for a use at module level, which always runs)."""
        word = re.compile(r"\b" + re.escape(name) + r"\b")
        own = re.compile(r"(?:def|class)[ \t]+" + re.escape(name) + r"\b")
        for code, lines in self._containing(name):
            spans = [match.span() for match in own.finditer(code)]
            for match in word.finditer(code):
                if any(start <= match.start() < end for start, end in spans):
                    continue
                line = code.count("\n", 0, match.start()) + 1
                yield definitions_at(lines, line)


def definitions_at(lines: Sequence[str], line: int) -> List[str]:
    """The names of the definitions whose body holds ``line`` (1-based), where the text
    shows them, such that the line runs only if each is called: the top-level, undecorated
    ``def`` or ``class``, and in a class with no base class (no framework calls its
    methods by a hook's name), the undecorated method, unless it is a dunder."""
    top = _enclosing(lines, line, "")
    if top is None:
        return []
    index, name, kind = top
    names = [name]
    if kind == "class" and re.match(r"class[ \t]+\w+[ \t]*(\([ \t]*(object)?[ \t]*\))?[ \t]*:",
                                    lines[index]):
        body = next((text for text in lines[index + 1:line]
                     if text.strip() and not text.lstrip().startswith("#")), "")
        indent = body[:len(body) - len(body.lstrip())]
        method = _enclosing(lines, line, indent, stop=index) if indent else None
        if method is not None and method[2] == "def" and not method[1].startswith("__"):
            names.append(method[1])
    return names


def _enclosing(lines: Sequence[str], line: int, indent: str, stop: int = -1):
    """The nearest ``def``/``class`` above ``line`` written at exactly ``indent``, with only
    deeper, blank or comment lines in between: (its index, name, "def" or "class"), or
    None (something else at that depth, a decorator, the definition's own line)."""
    for index in range(min(line, len(lines)) - 1, stop, -1):
        text = lines[index]
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if text.startswith(indent) and text[len(indent)] in " \t":
            continue
        match = _DEFINITION.match(text, len(indent)) if text.startswith(indent) else None
        if match is None or index + 1 == line:
            return None  # code at that depth, or the definition's own line (a default)
        previous = index - 1
        while previous >= 0 and not lines[previous].strip():
            previous -= 1
        if previous >= 0 and lines[previous].lstrip().startswith("@"):
            return None
        return index, match.group(2), match.group(1)
    return None


def _code(text: str) -> str:
    """``text`` with its comments and lone string statements (docstrings, code quoted out)
    blanked, lines and columns kept; the text itself where it does not tokenize (a
    notebook's JSON, a broken file: read as it is)."""
    try:
        tokens = [token for token in tokenize.generate_tokens(io.StringIO(text).readline)
                  if token.type not in (tokenize.NL, tokenize.ENCODING)]
    except (tokenize.TokenError, SyntaxError):
        return text
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    chars = list(text)
    statement_start = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    significant = [token for token in tokens if token.type != tokenize.COMMENT]
    blanked = [token for token in tokens if token.type == tokenize.COMMENT]
    for index, token in enumerate(significant):
        if token.type == tokenize.STRING and (
                index == 0 or significant[index - 1].type in statement_start) and (
                index + 1 < len(significant) and significant[index + 1].type in (
                    tokenize.NEWLINE, tokenize.ENDMARKER)):
            blanked.append(token)
    for token in blanked:
        (row, column), (end_row, end_column) = token.start, token.end
        for offset in range(starts[row - 1] + column, starts[end_row - 1] + end_column):
            if chars[offset] != "\n":
                chars[offset] = " "
    return "".join(chars)


def _texts(roots: Sequence[str]) -> Iterable[str]:
    """The text of every Python file and notebook under ``roots``, in the folders a scan
    walks (tests included)."""
    seen: Set[str] = set()
    for root in roots:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [sub for sub in subfolders if sub not in SKIPPED_FOLDERS
                             and not is_virtualenv(Path(folder, sub))]
            for file in files:
                path = os.path.join(folder, file)
                if file.endswith((".py", ".pyi", ".ipynb")) and path not in seen:
                    seen.add(path)
                    yield read_text(path)


def read_text(path: str) -> str:
    """A file's text (undecodable bytes replaced), "" for one that cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def _packaged(root: Optional[Path], folders: Sequence[Path]) -> bool:
    """Whether the project is an installable package: its public names are an API."""
    places = {Path(folder) for folder in folders}
    if root is not None:
        places.add(Path(root))
    for place in places:
        if (place / "setup.cfg").is_file():
            return True
        if (place / "setup.py").is_file():
            text = read_text(str(place / "setup.py"))
            if "ext_modules" not in text or _MODULES_NAMED.search(text):
                return True
        try:
            if _PACKAGED.search((place / "pyproject.toml").read_text(encoding="utf-8")):
                return True
        except (OSError, UnicodeDecodeError):
            continue
    return False
