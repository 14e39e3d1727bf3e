"""Which files to check: walk folders for ``*.py`` and ``*.ipynb`` (notebooks), honouring
.gitignore files and excludes.

Folders are walked without following symbolic links to folders (no loops); ``.git``,
virtualenvs, ``build``, ``dist`` and caches are skipped. A file named explicitly is always
checked, whatever its name or the ignore files say.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple

if TYPE_CHECKING:  # imported where a pattern is compiled: a run with none never loads it
    import pathspec

    from nanlint.lookup import Configurations

SKIPPED_FOLDERS = frozenset({
    ".git", ".hg", ".svn", "__pycache__", "build", "dist", ".venv", "venv", ".tox", ".nox",
    ".eggs", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".nanlint_cache", "node_modules",
    "site-packages", ".ipynb_checkpoints",
})
SUFFIXES = (".py", ".ipynb")


class _Ignore:
    """The .gitignore rules in force in one folder: its own and its parents'."""

    def __init__(self, parent: Optional["_Ignore"], folder: Path,
                 spec: Optional[pathspec.PathSpec]) -> None:
        self.parent = parent
        self.folder = folder
        self.spec = spec

    def ignored(self, path: Path, is_dir: bool) -> bool:
        node: Optional[_Ignore] = self
        while node is not None:
            if node.spec is not None:
                relative = path.relative_to(node.folder).as_posix()
                if is_dir:
                    relative += "/"
                if node.spec.match_file(relative):
                    return True
            node = node.parent
        return False


def _gitignore(folder: Path) -> Optional[pathspec.PathSpec]:
    candidate = folder / ".gitignore"
    try:
        lines = candidate.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return _spec(lines)


def _spec(lines: Sequence[str]) -> pathspec.PathSpec:
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


def is_virtualenv(folder: Path) -> bool:
    return (folder / "pyvenv.cfg").is_file()


def discover(paths: Sequence[Path], configs: "Configurations",
             force_exclude: bool = False) -> Tuple[List[Path], List[Path], List[Path]]:
    """The files to check, sorted; the paths given that do not exist; and the folders given
    that hold no file to check (a CI gate must not pass on nothing).

    ``configs.for_folder(folder)`` is the configuration in force in a folder: its ``exclude``
    (relative to its root) decides what the walk skips there, and the one of a folder given
    decides whether .gitignore files count. With ``force_exclude``, ``exclude`` also applies
    to the paths given (pre-commit names every changed file)."""
    excluder = _Excluder(configs)
    files: List[Path] = []
    missing: List[Path] = []
    empty: List[Path] = []
    seen = set()
    for given in paths:
        if not os.path.lexists(given):
            missing.append(given)
        elif force_exclude and excluder.given(given):  # skipped silently, as in ruff
            continue
        elif given.is_dir():
            found_any = False
            gitignore = configs.for_folder(given).respect_gitignore
            excluder.top = given.resolve()
            for found in _walk(given, excluder, gitignore):
                found_any = True
                _add(files, seen, found)
            if not found_any:
                empty.append(given)
        else:  # a file, or a broken link, a FIFO...: NAN000 says which
            _add(files, seen, given)
    return files, missing, empty


def _add(files: List[Path], seen: set, path: Path) -> None:
    key = os.path.abspath(path)
    if key not in seen:
        seen.add(key)
        files.append(path)


def force_excluded(path: Path, configs: "Configurations") -> bool:
    """Does the ``exclude`` in force for ``path`` match it or a folder above it?"""
    return _Excluder(configs).given(path)


class _Excluder:
    """Is a path excluded by the configuration in force in its parent folder?"""

    def __init__(self, configs: "Configurations") -> None:
        self.configs = configs
        self.specs: Dict[int, Tuple[Any, Any, Path]] = {}
        # The folder being walked: the root of a path outside its configuration's (no
        # configuration file and no repository above it, scanned from another folder).
        self.top: Optional[Path] = None

    def __call__(self, resolved: Path, is_dir: bool) -> bool:
        config = self.configs.for_folder(resolved.parent)
        patterns = config.excluded
        if not patterns:
            return False
        held, spec, root = self.specs.get(id(config), (None, None, Path()))
        if held is not config:  # compiled once per configuration
            spec, root = _spec(patterns), config.root.resolve()
            self.specs[id(config)] = (config, spec, root)
        try:
            relative = resolved.relative_to(root).as_posix()
        except ValueError:
            if self.top is None or self.top not in resolved.parents:
                return False
            relative = resolved.relative_to(self.top).as_posix()
        return spec.match_file(relative + "/" if is_dir else relative)

    def given(self, path: Path) -> bool:
        """A path given, or a folder above it, is excluded."""
        resolved = path.resolve()
        if self(resolved, resolved.is_dir()):
            return True
        return any(self(folder, True) for folder in resolved.parents
                   if folder.parent != folder)


def _walk(top: Path, excluded: _Excluder, respect_gitignore: bool) -> Iterator[Path]:
    parent_rules: Optional[_Ignore] = None
    if respect_gitignore:
        # .gitignore files above the starting folder, up to the repository root, apply too.
        chain = []
        for folder in (top.resolve(), *top.resolve().parents):
            chain.append(folder)
            if (folder / ".git").exists():
                break
        else:
            chain = [top.resolve()]
        for folder in reversed(chain[1:]):
            spec = _gitignore(folder)
            if spec is not None:
                parent_rules = _Ignore(parent_rules, folder, spec)
    stack: List[Tuple[Path, Path, Optional[_Ignore]]] = [(top, top.resolve(), parent_rules)]
    while stack:
        folder, resolved, rules = stack.pop()
        if respect_gitignore:
            spec = _gitignore(resolved)
            if spec is not None:
                rules = _Ignore(rules, resolved, spec)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        subfolders = []
        for entry in entries:
            path = Path(entry.path)
            resolved_path = resolved / entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if entry.name in SKIPPED_FOLDERS or is_virtualenv(path):
                    continue
                if rules is not None and rules.ignored(resolved_path, True):
                    continue
                if excluded(resolved_path, True):
                    continue
                subfolders.append((path, resolved_path, rules))
            elif entry.name.endswith(SUFFIXES):
                if rules is not None and rules.ignored(resolved_path, False):
                    continue
                if excluded(resolved_path, False):
                    continue
                yield path
        stack.extend(reversed(subfolders))
