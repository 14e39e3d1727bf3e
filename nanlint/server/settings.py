"""What governs each document: the configuration the CLI would use for its path, with the
client's settings (``initializationOptions``, ``workspace/didChangeConfiguration``,
``workspace/configuration``) over it. A broken configuration file gets one error diagnostic
until it is fixed."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from nanlint import config as configuration
from nanlint import lookup
from nanlint.server.lsp import SOURCE

CONFIG_NAMES = (configuration.CONFIG_FILE, "pyproject.toml")
_CONFIG_LINE = re.compile(r"\(line (\d+)\)")


@dataclass
class Overrides:
    """initializationOptions / workspace/didChangeConfiguration / workspace/configuration
    settings."""

    select: Optional[List[str]] = None
    ignore: List[str] = field(default_factory=list)
    min_confidence: Optional[str] = None
    preview: Optional[bool] = None
    low_confidence_as_hint: bool = False
    suspects: bool = False  # also the file's best `nanlint suspects` entries, as hints



class Settings:
    """The client's overrides and the configuration per folder. ``client`` is the server's
    end of the connection: its ``publish`` and ``show`` tell the user of a broken file."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.overrides = Overrides()
        self.configs: Dict[str, Tuple[Any, Optional[str], Optional[Path]]] = {}
        self.config_problems: Dict[str, str] = {}  # configuration file URI → its problem
        self.nearest: Dict[Path, lookup.Found] = {}  # folder → its configuration file, root

    def config_for(self, path: Optional[Path]) -> Optional[configuration.Config]:
        """The configuration the CLI uses for the document: the one in force in its folder
        (``configuration.nearest``; for a document without a file, the server's folder),
        with the client's overrides; None while that configuration is broken."""
        start = (path.parent if path is not None else Path.cwd()).resolve()
        try:
            found, root = lookup.nearest(start, self.nearest)
        except configuration.ConfigError as error:  # a pyproject.toml that is not TOML
            self.report_config(str(error), error.path)
            return None
        key = str(found or root or Path.cwd())
        if key not in self.configs:
            try:
                config = (configuration.load(found) if found is not None
                          else configuration.Config(root=root or Path.cwd()))
                self.configs[key] = (self.apply_overrides(config), None, found)
            except configuration.ConfigError as error:
                self.configs[key] = (None, str(error), found)
            self.report_config(*self.configs[key][1:])
        return self.configs[key][0]

    def apply_overrides(self, config: configuration.Config) -> configuration.Config:
        if self.overrides.select is not None:
            config.select = list(self.overrides.select)
        config.ignore = config.ignore + self.overrides.ignore
        if self.overrides.min_confidence is not None:
            config.min_confidence = self.overrides.min_confidence
        if self.overrides.preview is not None:
            config.preview = self.overrides.preview
        return config

    def set_overrides(self, settings: Any) -> None:
        """Settings from the client (select, ignore, min-confidence, preview,
        low-confidence-as-hint, suspects), checked as the configuration file's keys; a bad
        one is shown and not used."""
        if not isinstance(settings, dict):
            return
        settings = settings.get("nanlint", settings)
        if not isinstance(settings, dict):
            return
        overrides = Overrides()
        try:
            for key, value in settings.items():
                name = key.replace("_", "-")
                if name == "select":
                    overrides.select = configuration.split_codes(_joined(value), "select")
                elif name == "ignore":
                    overrides.ignore = configuration.split_codes(_joined(value), "ignore")
                elif name == "min-confidence":
                    if value not in ("high", "medium", "low"):
                        raise configuration.ConfigError(
                            f"`min-confidence` must be one of high, medium, low, got {value!r}")
                    overrides.min_confidence = value
                elif name == "preview":
                    overrides.preview = bool(value)
                elif name == "low-confidence-as-hint":
                    overrides.low_confidence_as_hint = bool(value)
                elif name == "suspects":
                    overrides.suspects = bool(value)
        except configuration.ConfigError as error:
            self.client.show(f"nanlint: settings not applied: {error}", types.MessageType.Error)
            return
        self.overrides = overrides
        self.configs.clear()

    def report_config(self, problem: Optional[str], path: Optional[Path]) -> None:
        """One error diagnostic on a broken configuration file (and a message); none once it
        is fixed."""
        if path is None:
            return
        uri = from_fs_path(str(path))
        if problem is None:
            if self.config_problems.pop(uri, None) is not None:
                self.client.publish(uri, [])
            return
        message = problem[len(f"{path}: "):] if problem.startswith(f"{path}: ") else problem
        line = int(_CONFIG_LINE.search(message).group(1)) - 1 if _CONFIG_LINE.search(
            message) else 0
        diagnostic = types.Diagnostic(
            range=types.Range(start=types.Position(line=line, character=0),
                              end=types.Position(line=line + 1, character=0)),
            message=message, severity=types.DiagnosticSeverity.Error, source=SOURCE)
        self.client.publish(uri, [diagnostic])
        if self.config_problems.get(uri) != message:
            self.client.show(f"nanlint: {problem}", types.MessageType.Error)
        self.config_problems[uri] = message

    def configuration_changed(self) -> None:
        """A configuration file changed: read them again when next asked, and say whether
        the broken ones are fixed (the documents are to be linted again)."""
        self.configs.clear()
        self.nearest.clear()
        for uri in list(self.config_problems):  # a file that was broken: fixed, or gone?
            path = Path(to_fs_path(uri) or "")
            try:
                if path.is_file():
                    configuration.load(path)
                self.report_config(None, path)
            except configuration.ConfigError as error:
                self.report_config(str(error), path)


def _joined(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    if isinstance(value, str):
        return value
    raise configuration.ConfigError("expected a list of codes such as NAN101 or prefixes "
                                    f"such as NAN1, got {value!r}")
