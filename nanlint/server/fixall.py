"""Fix all: the safe fixes of a document or notebook as ``nanlint check --fix`` applies them,
computed in the worker within the time budget, as one edit per text it changes."""

from __future__ import annotations

import asyncio
import functools
import json
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified

from nanlint.budget import FileTimeout, within_budget
from nanlint.fixing import SAFETIES, fix_notebook, fix_source
from nanlint.server import lsp
from nanlint.server.documents import Documents

FIX_ALL = "source.fixAll.nanlint"
# What VS Code asks a notebook for on save (`notebook.codeActionsOnSave`): the same edit.
NOTEBOOK_FIX_ALL = "notebook.source.fixAll.nanlint"


@dataclass
class Run:
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


class FixAll:
    """The fix-all runs that requests wait for, one per document or notebook."""

    def __init__(self, documents: Documents) -> None:
        self.documents = documents
        self.fixing: Dict[str, Run] = {}  # worker key → the fix-all run it waits for

    async def edit(self, uri: str) -> Optional[types.WorkspaceEdit]:
        """The safe fixes of the document, as ``nanlint check --fix`` applies them: one edit
        that replaces the whole text (computed in the worker, within the time budget). In a
        notebook cell, the fixes of the whole notebook: one such edit per cell they change.

        A second request for the same texts shares the first one's run. A request whose
        texts changed before its answer was ready (an edit, or a newer request that
        superseded its run) is answered with ContentModified: its whole-text edit would undo
        the change."""
        documents = self.documents
        linted = documents.current(uri)
        if linted is None or documents.loop is None:
            return None
        notebook = documents.workspace.get_notebook_document(cell_uri=uri)
        path = lsp.path_of(notebook.uri if notebook is not None else uri)
        config = documents.settings.config_for(path)
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
            cells, texts, data, display = documents.notebook_snapshot(notebook)

            def fix() -> Optional[List[str]]:
                outcome = fix_notebook(data, display, options, safe)
                return _cell_sources(outcome.text) if outcome.changed else None

        key = f"fix-all {notebook.uri if notebook is not None else uri}"
        run = self.fixing.get(key)
        if run is None or (run.cells, run.texts) != (cells, texts) or run.options is not options:
            run = self.fixing[key] = Run(cells, texts, options, documents.loop.create_future())
            self._in_worker(key, run, fix)
        fixed = await asyncio.shield(run.answer)  # a cancelled request leaves it to the others
        if documents.cell_texts(cells) != texts:
            raise JsonRpcContentModified("nanlint: the document changed while its fixes were "
                                         "computed")
        if fixed is None:
            return None  # nothing to fix
        codec = documents.workspace.position_codec
        changes = {cell: [types.TextEdit(range=lsp.whole(text, codec), new_text=new)]
                   for cell, text, new in zip(cells, texts, fixed) if new != text}
        return types.WorkspaceEdit(changes=changes) if changes else None

    def _in_worker(self, key: str, run: Run, fix: Callable[[], Optional[List[str]]]) -> None:
        """Compute ``fix()`` in the worker as ``run``'s answer: None past the time budget, the
        error if it fails, ContentModified if a newer run supersedes it."""
        answer = run.answer
        documents = self.documents

        def job() -> None:
            try:
                fixed = within_budget(run.options.file_timeout, fix)
            except FileTimeout:
                fixed = None
            except Exception as error:  # noqa: BLE001 — the request's answer is the error
                documents.deliver(functools.partial(_settle, answer, error=error))
                return
            documents.deliver(lambda: _settle(answer, fixed))

        def dropped() -> None:
            documents.deliver(lambda: _settle(answer, error=JsonRpcContentModified(
                "nanlint: a newer fix-all request for changed text superseded this one")))

        def forget(_: asyncio.Future) -> None:
            if self.fixing.get(key) is run:
                del self.fixing[key]

        answer.add_done_callback(forget)
        documents.worker.submit(key, job, dropped=dropped)



def _cell_sources(notebook_text: str) -> List[str]:
    """The source of each cell of an nbformat 4 notebook."""
    return ["".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            for cell in json.loads(notebook_text)["cells"]]
