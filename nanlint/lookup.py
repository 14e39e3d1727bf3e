"""Which configuration governs a path, as in ruff: the nearest ``.nanlint.yaml``, or
``pyproject.toml`` with ``[tool.nanlint]``, from the path's folder up to the repository
root; its folder is the project root (relative patterns and the result cache). The command
line, ``nanlint suspects`` and the language server all ask here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from nanlint.config import CONFIG_FILE, Config, load, read_toml

# (the configuration file in force, the project root); either may be None
Found = Tuple[Optional[Path], Optional[Path]]


def nearest(folder: Path, memo: Optional[Dict[Path, Found]] = None) -> Found:
    """The configuration file in force in ``folder`` (an absolute, resolved path) and its
    project root: the nearest .nanlint.yaml, or pyproject.toml with [tool.nanlint], from
    ``folder`` up to the repository root, and that file's folder; without one, (None, the
    repository root), or (None, None) outside a repository. ``memo`` remembers the answer per
    folder; a pyproject.toml that is not valid TOML is a ConfigError."""
    memo = {} if memo is None else memo
    passed: List[Path] = []
    answer: Found = (None, None)
    for current in (folder, *folder.parents):
        if current in memo:
            answer = memo[current]
            break
        passed.append(current)
        candidate = current / CONFIG_FILE
        if candidate.is_file():
            answer = (candidate, current)
            break
        pyproject = current / "pyproject.toml"
        if pyproject.is_file() and "nanlint" in read_toml(pyproject).get("tool", {}):
            answer = (pyproject, current)
            break
        if (current / ".git").exists():
            answer = (None, current)
            break
    for current in passed:
        memo[current] = answer
    return answer


@dataclass
class Changes:
    """What the command line changes in every configuration it uses."""

    select: Optional[List[str]] = None
    extend_select: List[str] = field(default_factory=list)
    ignore: List[str] = field(default_factory=list)
    preview: bool = False
    suspects: bool = False
    pending: bool = False  # `check` of folders: see LintOptions.pending

    def applied(self, config: Config) -> Config:
        if self.select is not None:
            config.select = list(self.select)
        config.select = config.select + self.extend_select
        config.ignore = config.ignore + self.ignore
        config.preview = config.preview or self.preview
        config.pending = self.pending
        return config.for_suspects() if self.suspects else config


class Configurations:
    """The configuration for each path, as ruff finds it: the one in force in the path's
    folder (see ``nearest``), or one file for every path (``--config``); with the command
    line's changes. Each file is read once."""

    def __init__(self, config_file: Optional[Path] = None,
                 changes: Optional[Changes] = None) -> None:
        self.changes = changes or Changes()
        self.fixed = (self.changes.applied(load(config_file))
                      if config_file is not None else None)
        self._nearest: Dict[Path, Found] = {}
        self._loaded: Dict[Path, Config] = {}  # by configuration file, or by default root

    def for_path(self, path: Path) -> Config:
        absolute = Path(os.path.abspath(path))
        return self.for_folder(absolute if absolute.is_dir() else absolute.parent)

    def for_folder(self, folder: Path) -> Config:
        if self.fixed is not None:
            return self.fixed
        answer = self._nearest.get(folder)  # the walk asks with resolved folders
        found, root = answer or nearest(Path(folder).resolve(), self._nearest)
        key = found or root or Path.cwd()
        config = self._loaded.get(key)
        if config is None:
            config = load(found) if found is not None else Config(root=key)
            config = self._loaded[key] = self.changes.applied(config)
        return config
