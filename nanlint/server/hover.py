"""A rule's documentation in the editor: the hover on a finding, and the
``nanlint.showDocumentation`` command (the page in the client's browser, or a message)."""

from __future__ import annotations

from typing import Any, Optional

from lsprotocol import types

from nanlint.source import source_lines
from nanlint.server import lsp
from nanlint.server.documents import Documents


def rule_summary_markdown(code: str) -> str:
    """The hover text: the rule's "What it does" and "Why is this bad?" sections and a link
    to its documentation."""
    rule = lsp.rule_of(code)
    if rule is None:
        return f"**{code}**"
    parts = [f"**{rule.code} {rule.name}**"]
    for title in ("What it does", "Why is this bad?"):
        text = rule.section(title)
        if text:
            parts.append(f"### {title}\n{text}")
    url = lsp.documentation_url(code)
    if url:
        parts.append(f"[Open documentation]({url})")
    return "\n\n".join(parts)


def hover(documents: Documents, params: types.HoverParams) -> Optional[types.Hover]:
    linted = documents.current(params.text_document.uri)
    if linted is None:
        return None
    lines = source_lines(linted.text)
    at = lsp.code_point(lines, params.position, documents.workspace.position_codec)
    found = [f for f in linted.findings if lsp.touches(f, at, at)]
    if not found:
        return None
    parts = []
    for code in dict.fromkeys(f.code for f in found):
        parts.append(rule_summary_markdown(code))
    return types.Hover(contents=types.MarkupContent(
        kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))


def show_documentation(client: Any, code: str) -> None:
    """Open the rule's page where the client can show a document; else say what the rule
    does in a message. ``client`` is the server's end of the connection."""
    url = lsp.documentation_url(code)
    window = getattr(client.client_capabilities, "window", None)
    if url is not None and getattr(window, "show_document", None) is not None:
        client.window_show_document(types.ShowDocumentParams(
            uri=url, external=not url.startswith("file:")))
        return
    rule = lsp.rule_of(code)
    text = rule.section("What it does") if rule is not None else ""
    client.show(f"{code}: {text or 'unknown rule'}" + (f" ({url})" if url else ""),
                types.MessageType.Info)
