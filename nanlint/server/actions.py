"""Code actions: a finding's fix, a comment that ignores it, its documentation, and the
offer of fix-all (whose edit ``fixall`` computes). The server never writes a file: every
edit goes to the client as a ``WorkspaceEdit``."""

from __future__ import annotations

import io
import re
import tokenize
from typing import Any, Dict, List, Optional, Sequence, Tuple

from lsprotocol import types

from nanlint import registry, suppression
from nanlint.source import source_lines
from nanlint.finding import Finding
from nanlint.fixing import SAFETIES, fixable
from nanlint.server import lsp
from nanlint.server.documents import Documents
from nanlint.server.fixall import FIX_ALL, NOTEBOOK_FIX_ALL

SHOW_DOCUMENTATION = "nanlint.showDocumentation"
UNSAFE = "unsafe: changes values near 0"


def code_actions(documents: Documents, params: types.CodeActionParams
                 ) -> List[types.CodeAction]:
    """The code actions on the last result of the document, for the range asked."""
    uri = params.text_document.uri
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
            actions.extend(_finding_actions(uri, linted.text, lines, finding, diagnostic,
                                            known, codec))
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


def _finding_actions(uri: str, text: str, lines: Sequence[str], finding: Finding,
                     diagnostic: types.Diagnostic, known: frozenset, codec: Any
                     ) -> List[types.CodeAction]:
    """A finding's own actions: its fix, a comment that ignores it, its documentation."""
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



def _wants(only: Optional[Sequence[str]], kind: str) -> bool:
    """Is a code action of ``kind`` asked for (``only`` lists kinds and their parents)?"""
    if not only:
        return True
    kind = getattr(kind, "value", kind)  # lsprotocol's kinds are str enums
    return any(kind == getattr(wanted, "value", wanted)
               or kind.startswith(f"{getattr(wanted, 'value', wanted)}.") for wanted in only)
