"""``nanlint server``: a Language Server Protocol server over stdio (pygls, lsprotocol).

It is a thin wrapper around the engine: a document's diagnostics are the findings of
``lint_text`` / ``lint_bytes`` for its text under the configuration the CLI would use, and its
fixes are the findings' fixes and ``fix_source``. Linting runs in the main thread (where the
``file-timeout`` alarm can interrupt it) while the protocol runs in a second thread; a newer
edit of the same document interrupts a stale run. The server never writes a file: every edit
goes to the client as a ``WorkspaceEdit``.
"""

from __future__ import annotations

import asyncio
import functools
import io
import json
import os
import logging
import re
import signal
import sys
import threading
import time
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from nanlint import __version__, documentation, registry, suppression
from nanlint import config as configuration
from nanlint import lookup
from nanlint.budget import FileTimeout, within_budget
from nanlint.engine import lint_bytes, lint_text
from nanlint.finding import Finding
from nanlint.fixing import SAFETIES, fix_notebook, fix_source, fixable
from nanlint.source import source_lines

SOURCE = "nanlint"
FIX_ALL = "source.fixAll.nanlint"
# What VS Code asks a notebook for on save (`notebook.codeActionsOnSave`): the same edit.
NOTEBOOK_FIX_ALL = "notebook.source.fixAll.nanlint"
SHOW_DOCUMENTATION = "nanlint.showDocumentation"
DEBOUNCE = 0.3  # seconds of quiet after an edit before it is linted
INTERRUPT_REPEAT = 0.05  # seconds between the signals that interrupt a stale run
UNSAFE = "unsafe: changes values near 0"
CONFIG_NAMES = (configuration.CONFIG_FILE, "pyproject.toml")
PYTHON_SUFFIXES = (".py", ".pyi")
_SEVERITY = {"error": types.DiagnosticSeverity.Error,
             "warning": types.DiagnosticSeverity.Warning,
             "info": types.DiagnosticSeverity.Information}
_CONFIG_LINE = re.compile(r"\(line (\d+)\)")
logger = logging.getLogger("nanlint.server")


# -- the lint worker -------------------------------------------------------------------------
class Cancelled(BaseException):
    """A newer edit made this run stale (a BaseException, like the engine's FileTimeout, so
    that no ``except Exception`` on the way swallows it)."""


class Worker:
    """Runs jobs one at a time in the main thread, the earliest due first.

    A job waits ``delay`` seconds (the debounce); a job submitted under the key of a waiting
    one replaces it, and under the key of the running one interrupts it (a signal raises
    Cancelled in the main thread, as the file-timeout alarm raises FileTimeout). Either way
    the superseded job's ``dropped`` is called (in the thread that submits the newer one, or
    in the main thread), so that a request that waits on it can still be answered.
    """

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._pending: Dict[str, Tuple[float, Callable[[], None], Optional[Callable]]] = {}
        self._running: Optional[str] = None
        self._dropped: Optional[Callable[[], None]] = None  # of the running job
        self._serial = 0  # of the running job
        self._cancel = -1  # the serial of the job to interrupt
        self._armed = False
        self._stopped = False
        self._interrupt = getattr(signal, "SIGUSR1", None)

    def submit(self, key: str, job: Callable[[], None], delay: float = 0.0,
               dropped: Optional[Callable[[], None]] = None) -> None:
        with self._condition:
            waiting = self._pending.pop(key, None)
            if waiting is not None and waiting[2] is not None:
                waiting[2]()
            self._pending[key] = (time.monotonic() + delay, job, dropped)
            if (key == self._running and self._interrupt is not None
                    and self._cancel != self._serial):
                self._cancel = self._serial
                threading.Thread(target=self._interrupt_job, args=(self._serial,),
                                 name="nanlint-interrupt", daemon=True).start()
            self._condition.notify()

    def _interrupt_job(self, serial: int) -> None:
        """Signal the main thread until the job ``serial`` has stopped: a signal that lands
        where exceptions are swallowed (a gc callback, a ``__del__``) is followed by another,
        as the file-timeout alarm repeats."""
        while True:
            with self._condition:
                if self._running is None or self._serial != serial:
                    return
            signal.pthread_kill(threading.main_thread().ident, self._interrupt)
            time.sleep(INTERRUPT_REPEAT)

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._condition.notify()

    def _raise_cancelled(self, signum: int, frame: Any) -> None:
        if self._armed and self._cancel == self._serial:
            raise Cancelled()

    def _next(self) -> Optional[Callable[[], None]]:
        with self._condition:
            while not self._stopped:
                if self._pending:
                    key, (due, job, dropped) = min(self._pending.items(),
                                                   key=lambda item: item[1][0])
                    wait = due - time.monotonic()
                    if wait <= 0:
                        del self._pending[key]
                        self._running, self._dropped = key, dropped
                        self._serial += 1
                        return job
                    self._condition.wait(wait)
                else:
                    self._condition.wait()
            return None

    def run(self) -> None:
        """The loop of the main thread, until ``stop``."""
        if self._interrupt is not None:
            signal.signal(self._interrupt, self._raise_cancelled)
        while True:
            job = self._next()
            if job is None:
                return
            try:
                try:
                    self._armed = True
                    job()
                finally:
                    self._armed = False
            except Cancelled:
                self._armed = False
                if self._dropped is not None:
                    self._dropped()
            except Exception:  # noqa: BLE001 — one failed job must not stop the server
                logger.exception("nanlint: a job failed")
            with self._condition:
                self._running, self._dropped = None, None


# -- documents and positions -----------------------------------------------------------------
@dataclass
class Linted:
    """What was linted for one text document (a file, or a notebook cell), and its findings."""

    text: str
    findings: List[Finding] = field(default_factory=list)


@dataclass
class FixAll:
    """One fix-all run in the worker: the texts it fixes (of ``cells``, the document or the
    notebook's cells), under which options, and its answer, a future that every request for
    those same texts awaits."""

    cells: List[str]
    texts: List[str]
    options: Any
    answer: asyncio.Future


def _settle(future: asyncio.Future, result: Any = None,
            error: Optional[BaseException] = None) -> None:
    """Give ``future`` its result or error, unless it has one already."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _position(lines: Sequence[str], line: int, column: int, codec: Any) -> types.Position:
    """1-based line and column (code points) → an LSP position in the client's units."""
    row = max(line - 1, 0)
    if row >= len(lines):
        return types.Position(line=row, character=0)
    text = lines[row]
    return types.Position(line=row, character=codec.client_num_units(text[:max(column - 1, 0)]))


def _range(lines: Sequence[str], line: int, column: int, end_line: int, end_column: int,
           codec: Any) -> types.Range:
    return types.Range(start=_position(lines, line, column, codec),
                       end=_position(lines, end_line, end_column, codec))


def _code_point(lines: Sequence[str], position: types.Position, codec: Any) -> Tuple[int, int]:
    """An LSP position → (1-based line, 1-based column in code points)."""
    text = lines[position.line] if position.line < len(lines) else ""
    units, column = 0, 0
    for character in text:
        if units >= position.character:
            break
        units += codec.client_num_units(character)
        column += 1
    return position.line + 1, column + 1


def _touches(finding: Finding, start: Tuple[int, int], end: Tuple[int, int]) -> bool:
    return ((finding.line, finding.column) <= end
            and start <= (finding.end_line, finding.end_column))


def _rule(code: str) -> Any:
    return registry.ENGINE.get(code) or registry.rule_class(code)


def documentation_url(code: str) -> Optional[str]:
    """The link to the rule's documentation (see nanlint.documentation)."""
    return documentation.documentation_url(_rule(code))


def rule_summary_markdown(code: str) -> str:
    """The hover text: the rule's "What it does" and "Why is this bad?" sections and a link
    to its documentation."""
    rule = _rule(code)
    if rule is None:
        return f"**{code}**"
    parts = [f"**{rule.code} {rule.name}**"]
    for title in ("What it does", "Why is this bad?"):
        text = rule.section(title)
        if text:
            parts.append(f"### {title}\n{text}")
    url = documentation_url(code)
    if url:
        parts.append(f"[Open documentation]({url})")
    return "\n\n".join(parts)


# -- suppression comments ----------------------------------------------------------------------
def ignore_edit(text: str, line: int, last_line: int, code: str,
                known: frozenset) -> Optional[Tuple[int, int, int, str]]:
    """Where to put ``# nanlint: ignore[CODE]`` for a finding on lines ``line..last_line``:
    (line, start column, end column (0-based code points), new text), or None if no line of
    it can take a comment (all end inside a string or after a backslash). An existing
    ``ignore[...]`` or ``noqa:`` comment on the line gets the code added instead."""
    lines = source_lines(text)
    closed_inside: set = set()  # lines whose end is inside a string that goes on
    comments: Dict[int, Tuple[int, str]] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] < token.end[0] and token.type != tokenize.NL:
                closed_inside.update(range(token.start[0], token.end[0]))
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = (token.start[1], token.string)
    except (tokenize.TokenError, SyntaxError):
        pass
    for number in range(line, last_line + 1):
        if number > len(lines) or number in closed_inside:
            continue
        content = lines[number - 1]
        if content.rstrip().endswith("\\"):
            continue
        if number in comments:
            column, comment = comments[number]
            existing = suppression.parse(comment + "\n", known).by_line.get(1, [])
            directive = next((d for d in existing if not d.whole_file), None)
            if directive is not None:
                if code in directive.codes:
                    return None
                bracket = re.search(r"nanlint\s*:\s*ignore\s*\[[^\]]*?(?=\s*\])", comment,
                                    re.IGNORECASE)
                noqa = re.search(r"noqa\s*:\s*[A-Za-z0-9_, ]*?[A-Za-z0-9_](?=[\s,]*($|#))",
                                 comment, re.IGNORECASE)
                found = bracket or noqa
                if found is not None:
                    at = column + found.end()
                    return number, at, at, f", {code}"
        end = len(content.rstrip())
        return number, end, len(content), f"  # nanlint: ignore[{code}]"
    return None


# -- the server ------------------------------------------------------------------------------
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


class NanlintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "nanlint", __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[types.NotebookDocumentFilterWithCells(
                    notebook="*", cells=[types.NotebookCellLanguage(language="python")])],
                save=True))
        self.worker = Worker()
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.overrides = Overrides()
        self.linted: Dict[str, Linted] = {}  # text document (or cell) URI → last result
        self.cells_of: Dict[str, List[str]] = {}  # notebook URI → its cells' URIs
        self.configs: Dict[str, Tuple[Any, Optional[str], Optional[Path]]] = {}
        self.config_problems: Dict[str, str] = {}  # configuration file URI → its problem
        self.nearest: Dict[Path, lookup.Found] = {}  # folder → its configuration file, root
        self.fixing: Dict[str, FixAll] = {}  # worker key → the fix-all run it waits for
        self.exit_code = 1

    # -- configuration -----------------------------------------------------------------------
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
            self.show(f"nanlint: settings not applied: {error}", types.MessageType.Error)
            return
        self.overrides = overrides
        self.configs.clear()

    async def pull_settings(self) -> bool:
        """Ask the client for its "nanlint" settings (``workspace/configuration``), if it can
        answer; True if it has some: they replace the earlier ones."""
        workspace = getattr(self.client_capabilities, "workspace", None)
        if not getattr(workspace, "configuration", None):
            return False
        try:
            answer = await self.workspace_configuration_async(types.ConfigurationParams(
                items=[types.ConfigurationItem(section=SOURCE)]))
        except Exception:  # noqa: BLE001 — a client that cannot answer keeps what it sent
            logger.info("nanlint: the client did not answer workspace/configuration")
            return False
        settings = answer[0] if answer else None
        if not isinstance(settings, dict):
            return False
        self.set_overrides(settings)
        return True

    def report_config(self, problem: Optional[str], path: Optional[Path]) -> None:
        """One error diagnostic on a broken configuration file (and a message); none once it
        is fixed."""
        if path is None:
            return
        uri = from_fs_path(str(path))
        if problem is None:
            if self.config_problems.pop(uri, None) is not None:
                self.publish(uri, [])
            return
        message = problem[len(f"{path}: "):] if problem.startswith(f"{path}: ") else problem
        line = int(_CONFIG_LINE.search(message).group(1)) - 1 if _CONFIG_LINE.search(
            message) else 0
        diagnostic = types.Diagnostic(
            range=types.Range(start=types.Position(line=line, character=0),
                              end=types.Position(line=line + 1, character=0)),
            message=message, severity=types.DiagnosticSeverity.Error, source=SOURCE)
        self.publish(uri, [diagnostic])
        if self.config_problems.get(uri) != message:
            self.show(f"nanlint: {problem}", types.MessageType.Error)
        self.config_problems[uri] = message

    def configuration_changed(self) -> None:
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
        self.lint_all()

    # -- messages ----------------------------------------------------------------------------
    def show(self, message: str, kind: types.MessageType) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def publish(self, uri: str, diagnostics: List[types.Diagnostic],
                version: Optional[int] = None) -> None:
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=diagnostics, version=version))

    # -- linting -----------------------------------------------------------------------------
    def lint_all(self) -> None:
        for notebook_uri in list(self.cells_of):
            self.schedule_notebook(notebook_uri, 0.0)
        in_notebooks = {cell for cells in self.cells_of.values() for cell in cells}
        for uri in list(self.workspace.text_documents):
            if uri not in in_notebooks:
                self.schedule(uri, 0.0)

    def schedule(self, uri: str, delay: float) -> None:
        """Lint the text document ``uri`` after ``delay`` seconds (in the worker)."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is not None:
            self.schedule_notebook(notebook.uri, delay)
            return
        document = self.workspace.text_documents.get(uri)
        if document is None or not _is_python(uri, document.language_id):
            return
        path = _path(uri)
        config = self.config_for(path)
        if config is None:
            self.linted.pop(uri, None)
            self.publish(uri, [], document.version)
            return
        options = config.options_for(path)
        hunt = config.for_suspects().options_for(path) if self.overrides.suspects else None
        text, version = document.source, document.version
        display = str(path) if path is not None else "-"

        def job() -> None:
            findings = lint_text(text, display, options)
            if hunt is not None:
                findings += best_suspects(findings, lint_text(text, display, hunt))
            self.deliver(lambda: self.done(uri, version, text, findings))

        self.worker.submit(uri, job, delay)

    def cell_texts(self, cells: List[str]) -> List[str]:
        """The current text of each of the documents ``cells`` ("" for one not open)."""
        return [self.workspace.text_documents[cell].source
                if cell in self.workspace.text_documents else "" for cell in cells]

    def notebook_snapshot(self, notebook: types.NotebookDocument
                          ) -> Tuple[List[str], List[str], bytes, str]:
        """The notebook's cells (URIs), their texts, the notebook as a file, and its name."""
        cells = [cell.document for cell in notebook.cells]
        texts = self.cell_texts(cells)
        path = _path(notebook.uri)
        display = str(path) if path is not None else "notebook.ipynb"
        if not display.lower().endswith(".ipynb"):
            display += ".ipynb"
        return cells, texts, _notebook_bytes(notebook, texts,
                                             self.workspace.text_documents), display

    def schedule_notebook(self, uri: str, delay: float) -> None:
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is None:
            return
        cells, texts, data, display = self.notebook_snapshot(notebook)
        self.cells_of[uri] = cells
        path = _path(uri)
        config = self.config_for(path)
        if config is None:
            for cell in cells:
                self.linted.pop(cell, None)
                self.publish(cell, [])
            return
        options = config.options_for(path)
        hunt = config.for_suspects().options_for(path) if self.overrides.suspects else None
        version = notebook.version

        def job() -> None:
            findings = lint_bytes(data, display, options)
            if hunt is not None:
                findings += best_suspects(findings, lint_bytes(data, display, hunt))
            self.deliver(lambda: self.done_notebook(uri, version, cells, texts, findings))

        self.worker.submit(uri, job, delay)

    def deliver(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` in the protocol thread."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(callback)

    def done(self, uri: str, version: Optional[int], text: str,
             findings: List[Finding]) -> None:
        document = self.workspace.text_documents.get(uri)
        if document is None or document.source != text:
            return  # closed, or edited since: a newer run is on its way
        self.linted[uri] = Linted(text, findings)
        self.publish(uri, self.diagnostics(uri, text, findings), version)

    def done_notebook(self, uri: str, version: int, cells: List[str], texts: List[str],
                      findings: List[Finding]) -> None:
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is None or notebook.version != version:
            return
        if self.cell_texts(cells) != texts:
            return
        by_cell: Dict[str, List[Finding]] = {cell: [] for cell in cells}
        for finding in findings:
            number = min(max(finding.cell or 1, 1), len(cells))
            by_cell[cells[number - 1]].append(finding)
        for cell, text in zip(cells, texts):
            self.linted[cell] = Linted(text, by_cell[cell])
            self.publish(cell, self.diagnostics(cell, text, by_cell[cell], cells))

    def diagnostics(self, uri: str, text: str, findings: List[Finding],
                    cells: Optional[List[str]] = None) -> List[types.Diagnostic]:
        codec = self.workspace.position_codec
        lines = source_lines(text)
        result = []
        for finding in findings:
            severity = _SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning)
            if finding.score is not None or (
                    self.overrides.low_confidence_as_hint and finding.confidence == "low"):
                severity = types.DiagnosticSeverity.Hint
            url = documentation_url(finding.code)
            related = None
            if finding.evidence is not None:
                related = [self.related(uri, lines, finding.evidence, cells, codec)]
            result.append(types.Diagnostic(
                range=_range(lines, finding.line, finding.column, finding.end_line,
                             finding.end_column, codec),
                message=finding.message, severity=severity, code=finding.code,
                code_description=types.CodeDescription(href=url) if url else None,
                source=SOURCE, related_information=related,
                data={"confidence": finding.confidence, "name": finding.name}))
        return result

    def related(self, uri: str, lines: Sequence[str], evidence: Dict[str, Any],
                cells: Optional[List[str]], codec: Any) -> types.DiagnosticRelatedInformation:
        where_uri, where_lines = uri, lines
        if cells is not None and evidence.get("cell"):
            where_uri = cells[min(evidence["cell"], len(cells)) - 1]
            document = self.workspace.text_documents.get(where_uri)
            where_lines = source_lines(document.source) if document is not None else []
        return types.DiagnosticRelatedInformation(
            location=types.Location(uri=where_uri, range=_range(
                where_lines, evidence["line"], evidence["column"], evidence["end_line"],
                evidence["end_column"], codec)),
            message=evidence["message"])

    def forget(self, uri: str) -> None:
        self.linted.pop(uri, None)
        self.publish(uri, [])

    # -- code actions ------------------------------------------------------------------------
    def current(self, uri: str) -> Optional[Linted]:
        """The last result for ``uri`` if it is for the document's current text."""
        linted = self.linted.get(uri)
        document = self.workspace.text_documents.get(uri)
        if linted is None or document is None or document.source != linted.text:
            return None
        return linted

    def code_actions(self, params: types.CodeActionParams) -> List[types.CodeAction]:
        uri = params.text_document.uri
        linted = self.current(uri)
        if linted is None:
            return []
        wanted = params.context.only
        codec = self.workspace.position_codec
        lines = source_lines(linted.text)
        start = _code_point(lines, params.range.start, codec)
        end = _code_point(lines, params.range.end, codec)
        actions: List[types.CodeAction] = []
        if _wants(wanted, types.CodeActionKind.QuickFix):
            known = frozenset(registry.all_codes())
            diagnostics = self.diagnostics(uri, linted.text, linted.findings)
            for finding, diagnostic in zip(linted.findings, diagnostics):
                if not _touches(finding, start, end):
                    continue
                actions.extend(self.finding_actions(uri, linted.text, lines, finding,
                                                    diagnostic, known))
        if _wants(wanted, FIX_ALL) and any(
                fixable(f, SAFETIES["safe"]) for f in linted.findings):
            actions.append(types.CodeAction(
                title="nanlint: fix all safe findings", kind=FIX_ALL,
                data={"uri": uri, "fixAll": True}))
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if wanted and _wants(wanted, NOTEBOOK_FIX_ALL) and notebook is not None and any(
                fixable(f, SAFETIES["safe"]) for cell in notebook.cells
                for f in getattr(self.current(cell.document), "findings", ())):
            actions.append(types.CodeAction(
                title="nanlint: fix all safe findings of the notebook", kind=NOTEBOOK_FIX_ALL,
                data={"uri": uri, "fixAll": True}))
        return actions

    def finding_actions(self, uri: str, text: str, lines: Sequence[str], finding: Finding,
                        diagnostic: types.Diagnostic, known: frozenset
                        ) -> List[types.CodeAction]:
        codec = self.workspace.position_codec
        actions = []
        fix = finding.fix
        if fix and fix.get("edits"):
            safe = fix.get("safety") == "safe"
            title = f"Fix {finding.code}: {fix.get('description', 'apply the fix')}"
            if not safe:
                title += f" ({UNSAFE})"
            edits = [types.TextEdit(range=_range(lines, e["line"], e["column"], e["end_line"],
                                                 e["end_column"], codec),
                                    new_text=e["replacement"]) for e in fix["edits"]]
            actions.append(types.CodeAction(
                title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                is_preferred=safe, edit=types.WorkspaceEdit(changes={uri: edits})))
        if finding.code != "NAN000":
            place = ignore_edit(text, finding.line, finding.end_line, finding.code, known)
            if place is not None:
                line, begin, stop, new_text = place
                edit = types.TextEdit(range=_range(lines, line, begin + 1, line, stop + 1, codec),
                                      new_text=new_text)
                actions.append(types.CodeAction(
                    title=f"Ignore {finding.code} on this line",
                    kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                    edit=types.WorkspaceEdit(changes={uri: [edit]})))
        actions.append(types.CodeAction(
            title=f"Show documentation for {finding.code}", kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            command=types.Command(title=f"Show documentation for {finding.code}",
                                  command=SHOW_DOCUMENTATION, arguments=[finding.code])))
        return actions

    async def fix_all_edit(self, uri: str) -> Optional[types.WorkspaceEdit]:
        """The safe fixes of the document, as ``nanlint check --fix`` applies them: one edit
        that replaces the whole text (computed in the worker, within the time budget). In a
        notebook cell, the fixes of the whole notebook: one such edit per cell they change.

        A second request for the same texts shares the first one's run. A request whose
        texts changed before its answer was ready (an edit, or a newer request that
        superseded its run) is answered with ContentModified: its whole-text edit would undo
        the change."""
        linted = self.current(uri)
        if linted is None or self.loop is None:
            return None
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        path = _path(notebook.uri if notebook is not None else uri)
        config = self.config_for(path)
        if config is None:
            return None
        options = config.options_for(path)
        safe = SAFETIES["safe"]
        if notebook is None:
            cells, texts = [uri], [linted.text]
            display = str(path) if path is not None else "-"

            def fix() -> Optional[List[str]]:
                outcome = fix_source(linted.text, display, options, safe)
                return [outcome.text] if outcome.changed else None
        else:
            cells, texts, data, display = self.notebook_snapshot(notebook)

            def fix() -> Optional[List[str]]:
                outcome = fix_notebook(data, display, options, safe)
                return _cell_sources(outcome.text) if outcome.changed else None

        key = f"fix-all {notebook.uri if notebook is not None else uri}"
        run = self.fixing.get(key)
        if run is None or (run.cells, run.texts) != (cells, texts) or run.options is not options:
            run = self.fixing[key] = FixAll(cells, texts, options, self.loop.create_future())
            self.fix_in_worker(key, run, fix)
        fixed = await asyncio.shield(run.answer)  # a cancelled request leaves it to the others
        if self.cell_texts(cells) != texts:
            raise JsonRpcContentModified("nanlint: the document changed while its fixes were "
                                         "computed")
        if fixed is None:
            return None  # nothing to fix
        codec = self.workspace.position_codec
        changes = {cell: [types.TextEdit(range=_whole(text, codec), new_text=new)]
                   for cell, text, new in zip(cells, texts, fixed) if new != text}
        return types.WorkspaceEdit(changes=changes) if changes else None

    def fix_in_worker(self, key: str, run: FixAll, fix: Callable[[], Optional[List[str]]]
                      ) -> None:
        """Compute ``fix()`` in the worker as ``run``'s answer: None past the time budget, the
        error if it fails, ContentModified if a newer run supersedes it."""
        answer = run.answer

        def job() -> None:
            try:
                fixed = within_budget(run.options.file_timeout, fix)
            except FileTimeout:
                fixed = None
            except Exception as error:  # noqa: BLE001 — the request's answer is the error
                self.deliver(functools.partial(_settle, answer, error=error))
                return
            self.deliver(lambda: _settle(answer, fixed))

        def dropped() -> None:
            self.deliver(lambda: _settle(answer, error=JsonRpcContentModified(
                "nanlint: a newer fix-all request for changed text superseded this one")))

        def forget(_: asyncio.Future) -> None:
            if self.fixing.get(key) is run:
                del self.fixing[key]

        answer.add_done_callback(forget)
        self.worker.submit(key, job, dropped=dropped)

    def hover(self, params: types.HoverParams) -> Optional[types.Hover]:
        linted = self.current(params.text_document.uri)
        if linted is None:
            return None
        lines = source_lines(linted.text)
        at = _code_point(lines, params.position, self.workspace.position_codec)
        found = [f for f in linted.findings if _touches(f, at, at)]
        if not found:
            return None
        parts = []
        for code in dict.fromkeys(f.code for f in found):
            parts.append(rule_summary_markdown(code))
        return types.Hover(contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))

    def show_documentation(self, code: str) -> None:
        url = documentation_url(code)
        window = getattr(self.client_capabilities, "window", None)
        if url is not None and getattr(window, "show_document", None) is not None:
            self.window_show_document(types.ShowDocumentParams(
                uri=url, external=not url.startswith("file:")))
            return
        rule = _rule(code)
        text = rule.section("What it does") if rule is not None else ""
        self.show(f"{code}: {text or 'unknown rule'}" + (f" ({url})" if url else ""),
                  types.MessageType.Info)


SUSPECT_HINTS = 5  # the file's best suspects shown as hints, with the `suspects` setting


def best_suspects(findings: List[Finding], suspects: List[Finding]) -> List[Finding]:
    """The best suspects (``nanlint suspects``) on lines no finding is on, as hints that say
    their rank and why."""
    taken = {(f.cell, f.line) for f in findings}
    ranked = sorted((s for s in suspects if s.score is not None),
                    key=lambda s: (-s.score, s.cell or 0, s.line, s.column))
    best = []
    for rank, suspect in enumerate(ranked, 1):
        if len(best) == SUSPECT_HINTS:
            break
        if (suspect.cell, suspect.line) not in taken:
            suspect.message = f"suspect {rank}: {suspect.message} (why: {suspect.why})"
            best.append(suspect)
    return best


def _joined(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    if isinstance(value, str):
        return value
    raise configuration.ConfigError("expected a list of codes such as NAN101 or prefixes "
                                    f"such as NAN1, got {value!r}")


def _whole(text: str, codec: Any) -> types.Range:
    """The range of all of ``text``."""
    lines = source_lines(text)
    if not lines or text.endswith(("\n", "\r")):
        end = types.Position(line=len(lines), character=0)
    else:
        end = _position(lines, len(lines), len(lines[-1]) + 1, codec)
    return types.Range(start=types.Position(line=0, character=0), end=end)


def _cell_sources(notebook_text: str) -> List[str]:
    """The source of each cell of an nbformat 4 notebook."""
    return ["".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            for cell in json.loads(notebook_text)["cells"]]


def _wants(only: Optional[Sequence[str]], kind: str) -> bool:
    """Is a code action of ``kind`` asked for (``only`` lists kinds and their parents)?"""
    if not only:
        return True
    kind = getattr(kind, "value", kind)  # lsprotocol's kinds are str enums
    return any(kind == getattr(wanted, "value", wanted)
               or kind.startswith(f"{getattr(wanted, 'value', wanted)}.") for wanted in only)


def _path(uri: str) -> Optional[Path]:
    path = to_fs_path(uri)
    return Path(path) if path and uri.startswith("file:") else None


def _is_python(uri: str, language_id: Optional[str]) -> bool:
    return language_id == "python" or uri.lower().endswith(PYTHON_SUFFIXES)


def _notebook_bytes(notebook: types.NotebookDocument, texts: List[str],
                    documents: Dict[str, Any]) -> bytes:
    """The notebook as an nbformat 4 file, as the CLI reads it from disk: every cell in its
    place (so cell numbers agree), code cells of another language as raw cells."""
    cells = []
    for cell, text in zip(notebook.cells, texts):
        document = documents.get(cell.document)
        language = getattr(document, "language_id", None) or "python"
        code = cell.kind == types.NotebookCellKind.Code and language == "python"
        cells.append({"cell_type": "code" if code else (
            "markdown" if cell.kind == types.NotebookCellKind.Markup else "raw"),
            "metadata": {}, "source": text, **({"outputs": [], "execution_count": None}
                                                if code else {})})
    metadata = notebook.metadata if isinstance(notebook.metadata, dict) else {}
    return json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4,
                       "nbformat_minor": 5}).encode()


def build() -> NanlintServer:
    server = NanlintServer()

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        server.loop = asyncio.get_running_loop()
        server.set_overrides(params.initialization_options)

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        if await server.pull_settings():
            server.lint_all()
        watched = getattr(getattr(server.client_capabilities, "workspace", None),
                          "did_change_watched_files", None)
        if watched is None or not watched.dynamic_registration:
            return
        watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_NAMES]
        try:
            await server.client_register_capability_async(types.RegistrationParams(
                registrations=[types.Registration(
                    id="nanlint-configuration",
                    method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(
                        watchers=watchers))]))
        except Exception:  # noqa: BLE001 — without watching, a save still re-reads it
            logger.info("nanlint: the client does not watch the configuration files")

    @server.feature(types.SHUTDOWN)
    def shutdown(params: None) -> None:
        server.exit_code = 0

    @server.feature(types.EXIT)
    def exit_(params: None) -> None:
        server.worker.stop()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        server.schedule(params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.schedule(params.text_document.uri, DEBOUNCE)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.rsplit("/", 1)[-1] in CONFIG_NAMES:
            server.configuration_changed()
        else:
            server.schedule(uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.forget(params.text_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_open(params: types.DidOpenNotebookDocumentParams) -> None:
        server.schedule_notebook(params.notebook_document.uri, 0.0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_change(params: types.DidChangeNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        for cell in set(server.cells_of.get(uri, [])) - {
                c.document for c in server.workspace.get_notebook_document(
                    notebook_uri=uri).cells}:
            server.forget(cell)  # a deleted cell keeps no diagnostics
        server.schedule_notebook(uri, DEBOUNCE)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_save(params: types.DidSaveNotebookDocumentParams) -> None:
        server.schedule_notebook(params.notebook_document.uri, 0.0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_close(params: types.DidCloseNotebookDocumentParams) -> None:
        for cell in server.cells_of.pop(params.notebook_document.uri, []):
            server.forget(cell)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(params: types.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.rsplit("/", 1)[-1] in CONFIG_NAMES for change in params.changes):
            server.configuration_changed()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def settings_changed(params: types.DidChangeConfigurationParams) -> None:
        server.set_overrides(params.settings)  # pushed, or None (the client is to be asked)
        await server.pull_settings()
        server.lint_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders_changed(params: types.DidChangeWorkspaceFoldersParams) -> None:
        server.configuration_changed()

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL, NOTEBOOK_FIX_ALL],
        resolve_provider=True))
    async def code_action(params: types.CodeActionParams) -> List[types.CodeAction]:
        actions = server.code_actions(params)
        resolve = getattr(getattr(getattr(server.client_capabilities, "text_document", None),
                                  "code_action", None), "resolve_support", None)
        if resolve is None or "edit" not in (resolve.properties or []):
            for action in actions:
                if action.kind in (FIX_ALL, NOTEBOOK_FIX_ALL):
                    try:
                        action.edit = await server.fix_all_edit(action.data["uri"])
                    except JsonRpcContentModified:  # stale: the quick fixes go without it
                        action.edit = None
            actions = [a for a in actions
                       if a.kind not in (FIX_ALL, NOTEBOOK_FIX_ALL) or a.edit is not None]
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve(action: types.CodeAction) -> types.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        if data.get("fixAll") and action.edit is None:
            action.edit = await server.fix_all_edit(data["uri"])
        return action

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> Optional[types.Hover]:
        return server.hover(params)

    @server.command(SHOW_DOCUMENTATION)
    def show_documentation(code: str) -> None:
        server.show_documentation(str(code))

    return server


def serve() -> int:
    """Speak LSP on stdin/stdout until the client says exit (or goes away)."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the protocol stream
    server = build()

    def protocol() -> None:
        try:
            server.start_io(stdin, stdout)
        finally:
            server.worker.stop()

    thread = threading.Thread(target=protocol, name="nanlint-lsp", daemon=True)
    thread.start()
    server.worker.run()
    thread.join(timeout=0.2)  # after `exit` nothing is left to send
    # The protocol thread's stdin reader may still wait for input that never comes: end the
    # process here rather than wait for it at interpreter exit.
    sys.stderr.flush()
    os._exit(server.exit_code)
