"""Code actions: a finding's fix, a comment that ignores it, its documentation, and the
fix-all of a document or notebook (``nanlint check --fix``'s safe fixes, computed in the
worker). The server never writes a file: every edit goes to the client as a
``WorkspaceEdit``."""

from __future__ import annotations

import asyncio
import functools
import io
import json
import re
import tokenize
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified

from nanlint import registry, suppression
from nanlint.engine import FileTimeout, source_lines, within_budget
from nanlint.finding import Finding
from nanlint.fixing import SAFETIES, fix_notebook, fix_source, fixable
from nanlint.server import lsp
from nanlint.server.documents import Documents

FIX_ALL = "source.fixAll.nanlint"
# What VS Code asks a notebook for on save (`notebook.codeActionsOnSave`): the same edit.
NOTEBOOK_FIX_ALL = "notebook.source.fixAll.nanlint"
SHOW_DOCUMENTATION = "nanlint.showDocumentation"
UNSAFE = "unsafe: changes values near 0"


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



class Actions:
    """The code actions on the documents' last results; ``fixing`` holds the fix-all runs
    that requests wait for."""

    def __init__(self, documents: Documents) -> None:
        self.documents = documents
        self.fixing: Dict[str, FixAll] = {}  # worker key → the fix-all run it waits for

    def code_actions(self, params: types.CodeActionParams) -> List[types.CodeAction]:
        uri = params.text_document.uri
        documents = self.documents
        linted = documents.current(uri)
        if linted is None:
            return []
        wanted = params.context.only
        codec = documents.workspace.position_codec
        lines = source_lines(linted.text)
        start = lsp.code_point(lines, params.range.start, codec)
        end = lsp.code_point(lines, params.range.end, codec)
        actions: List[types.CodeAction] = []
        if _wants(wanted, types.CodeActionKind.QuickFix):
            known = frozenset(registry.all_codes())
            diagnostics = documents.diagnostics(uri, linted.text, linted.findings)
            for finding, diagnostic in zip(linted.findings, diagnostics):
                if not lsp.touches(finding, start, end):
                    continue
                actions.extend(self.finding_actions(uri, linted.text, lines, finding,
                                                    diagnostic, known))
        if _wants(wanted, FIX_ALL) and any(
                fixable(f, SAFETIES["safe"]) for f in linted.findings):
            actions.append(types.CodeAction(
                title="nanlint: fix all safe findings", kind=FIX_ALL,
                data={"uri": uri, "fixAll": True}))
        notebook = documents.workspace.get_notebook_document(cell_uri=uri)
        if wanted and _wants(wanted, NOTEBOOK_FIX_ALL) and notebook is not None and any(
                fixable(f, SAFETIES["safe"]) for cell in notebook.cells
                for f in getattr(documents.current(cell.document), "findings", ())):
            actions.append(types.CodeAction(
                title="nanlint: fix all safe findings of the notebook", kind=NOTEBOOK_FIX_ALL,
                data={"uri": uri, "fixAll": True}))
        return actions

    def finding_actions(self, uri: str, text: str, lines: Sequence[str], finding: Finding,
                        diagnostic: types.Diagnostic, known: frozenset
                        ) -> List[types.CodeAction]:
        codec = self.documents.workspace.position_codec
        actions = []
        fix = finding.fix
        if fix and fix.get("edits"):
            safe = fix.get("safety") == "safe"
            title = f"Fix {finding.code}: {fix.get('description', 'apply the fix')}"
            if not safe:
                title += f" ({UNSAFE})"
            edits = [types.TextEdit(range=lsp.span(lines, e["line"], e["column"],
                                                   e["end_line"], e["end_column"], codec),
                                    new_text=e["replacement"]) for e in fix["edits"]]
            actions.append(types.CodeAction(
                title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                is_preferred=safe, edit=types.WorkspaceEdit(changes={uri: edits})))
        if finding.code != "NAN000":
            place = ignore_edit(text, finding.line, finding.end_line, finding.code, known)
            if place is not None:
                line, begin, stop, new_text = place
                edit = types.TextEdit(
                    range=lsp.span(lines, line, begin + 1, line, stop + 1, codec),
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
            run = self.fixing[key] = FixAll(cells, texts, options, documents.loop.create_future())
            self.fix_in_worker(key, run, fix)
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

    def fix_in_worker(self, key: str, run: FixAll, fix: Callable[[], Optional[List[str]]]
                      ) -> None:
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

