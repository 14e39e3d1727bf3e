"""The documents the client has open: text documents and notebooks, their last lint result,
and the lint runs that the worker does for them after each change."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

from lsprotocol import types

from nanlint.engine import lint_bytes, lint_text
from nanlint.finding import Finding
from nanlint.server import lsp
from nanlint.server.settings import Settings
from nanlint.server.worker import Worker
from nanlint.suspects_report import in_file_order

PYTHON_SUFFIXES = (".py", ".pyi")
SUSPECT_HINTS = 5  # the file's best suspects shown as hints, with the `suspects` setting


@dataclass
class Linted:
    """What was linted for one text document (a file, or a notebook cell), and its findings."""

    text: str
    findings: List[Finding] = field(default_factory=list)


class Documents:
    """What is open and what was linted in it. ``client`` is the server's end of the
    connection: its ``workspace`` holds the documents' texts (pygls keeps them in step with
    the client's edits), its ``publish`` sends their diagnostics."""

    def __init__(self, client: Any, settings: Settings, worker: Worker) -> None:
        self.client = client
        self.settings = settings
        self.worker = worker
        self.loop: Optional[asyncio.AbstractEventLoop] = None  # the protocol thread's
        self.linted: Dict[str, Linted] = {}  # text document (or cell) URI → last result
        self.cells_of: Dict[str, List[str]] = {}  # notebook URI → its cells' URIs

    @property
    def workspace(self) -> Any:
        return self.client.workspace

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
        path = lsp.path_of(uri)
        config = self.settings.config_for(path)
        if config is None:
            self.linted.pop(uri, None)
            self.client.publish(uri, [], document.version)
            return
        options = config.options_for(path)
        suspects = self.settings.overrides.suspects
        hunt = config.for_suspects().options_for(path) if suspects else None
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
        path = lsp.path_of(notebook.uri)
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
        path = lsp.path_of(uri)
        config = self.settings.config_for(path)
        if config is None:
            for cell in cells:
                self.linted.pop(cell, None)
                self.client.publish(cell, [])
            return
        options = config.options_for(path)
        suspects = self.settings.overrides.suspects
        hunt = config.for_suspects().options_for(path) if suspects else None
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
        self.client.publish(uri, self.diagnostics(uri, text, findings), version)

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
            self.client.publish(cell, self.diagnostics(cell, text, by_cell[cell], cells))

    def diagnostics(self, uri: str, text: str, findings: List[Finding],
                    cells: Optional[List[str]] = None) -> List[types.Diagnostic]:
        return lsp.diagnostics(uri, text, findings, self.workspace.position_codec,
                               self.workspace.text_documents,
                               self.settings.overrides.low_confidence_as_hint, cells)

    def forget(self, uri: str) -> None:
        self.linted.pop(uri, None)
        self.client.publish(uri, [])

    def current(self, uri: str) -> Optional[Linted]:
        """The last result for ``uri`` if it is for the document's current text."""
        linted = self.linted.get(uri)
        document = self.workspace.text_documents.get(uri)
        if linted is None or document is None or document.source != linted.text:
            return None
        return linted


def best_suspects(findings: List[Finding], suspects: List[Finding]) -> List[Finding]:
    """The best suspects (``nanlint suspects``) on lines no finding is on, as hints that say
    their rank and why."""
    taken = {(f.cell, f.line) for f in findings}
    ranked = in_file_order([s for s in suspects if s.score is not None])  # as the CLI ranks
    best = []
    for rank, suspect in enumerate(ranked, 1):
        if len(best) == SUSPECT_HINTS:
            break
        if (suspect.cell, suspect.line) not in taken:
            suspect.message = f"suspect {rank}: {suspect.message} (why: {suspect.why})"
            best.append(suspect)
    return best


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
