"""nanlint's findings in the protocol's terms: positions in the client's units, ranges,
document URIs as paths, and diagnostics with the link to their rule's documentation."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from lsprotocol import types
from pygls.uris import to_fs_path

from nanlint import documentation, registry
from nanlint.source import source_lines
from nanlint.finding import Finding

SOURCE = "nanlint"
_SEVERITY = {"error": types.DiagnosticSeverity.Error,
             "warning": types.DiagnosticSeverity.Warning,
             "info": types.DiagnosticSeverity.Information}


def position(lines: Sequence[str], line: int, column: int, codec: Any) -> types.Position:
    """1-based line and column (code points) → an LSP position in the client's units."""
    row = max(line - 1, 0)
    if row >= len(lines):
        return types.Position(line=row, character=0)
    text = lines[row]
    return types.Position(line=row, character=codec.client_num_units(text[:max(column - 1, 0)]))


def span(lines: Sequence[str], line: int, column: int, end_line: int, end_column: int,
         codec: Any) -> types.Range:
    return types.Range(start=position(lines, line, column, codec),
                       end=position(lines, end_line, end_column, codec))


def whole(text: str, codec: Any) -> types.Range:
    """The range of all of ``text``."""
    lines = source_lines(text)
    if not lines or text.endswith(("\n", "\r")):
        end = types.Position(line=len(lines), character=0)
    else:
        end = position(lines, len(lines), len(lines[-1]) + 1, codec)
    return types.Range(start=types.Position(line=0, character=0), end=end)


def code_point(lines: Sequence[str], at: types.Position, codec: Any) -> Tuple[int, int]:
    """An LSP position → (1-based line, 1-based column in code points)."""
    text = lines[at.line] if at.line < len(lines) else ""
    units, column = 0, 0
    for character in text:
        if units >= at.character:
            break
        units += codec.client_num_units(character)
        column += 1
    return at.line + 1, column + 1


def touches(finding: Finding, start: Tuple[int, int], end: Tuple[int, int]) -> bool:
    return ((finding.line, finding.column) <= end
            and start <= (finding.end_line, finding.end_column))


def path_of(uri: str) -> Optional[Path]:
    """The file of a ``file:`` URI; None for a document without one."""
    path = to_fs_path(uri)
    return Path(path) if path and uri.startswith("file:") else None


def rule_of(code: str) -> Any:
    return registry.ENGINE.get(code) or registry.rule_class(code)


def documentation_url(code: str) -> Optional[str]:
    """The link to the rule's documentation (see nanlint.documentation)."""
    return documentation.documentation_url(rule_of(code))


def diagnostics(uri: str, text: str, findings: List[Finding], codec: Any,
                documents: Dict[str, Any], low_confidence_as_hint: bool,
                cells: Optional[List[str]] = None) -> List[types.Diagnostic]:
    """The findings of the document ``uri`` as diagnostics. ``documents`` (the open text
    documents) give the text of a notebook's other cells, where evidence may point."""
    lines = source_lines(text)
    result = []
    for finding in findings:
        severity = _SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning)
        if finding.score is not None or (
                low_confidence_as_hint and finding.confidence == "low"):
            severity = types.DiagnosticSeverity.Hint
        url = documentation_url(finding.code)
        places = [finding.evidence] if finding.evidence is not None else []
        places += [{**origin, "column": 1, "end_column": None,
                    "message": f"`{origin['name']}` is set here"}
                   for origin in finding.origins]  # a suspect's: where its operand is set
        related = [_related(uri, lines, place, cells, codec, documents)
                   for place in places] or None
        result.append(types.Diagnostic(
            range=span(lines, finding.line, finding.column, finding.end_line,
                       finding.end_column, codec),
            message=finding.message, severity=severity, code=finding.code,
            code_description=types.CodeDescription(href=url) if url else None,
            source=SOURCE, related_information=related,
            data={"confidence": finding.confidence, "name": finding.name}))
    return result


def _related(uri: str, lines: Sequence[str], evidence: Dict[str, Any],
             cells: Optional[List[str]], codec: Any, documents: Dict[str, Any]
             ) -> types.DiagnosticRelatedInformation:
    where_uri, where_lines = uri, lines
    if cells is not None and evidence.get("cell"):
        where_uri = cells[min(evidence["cell"], len(cells)) - 1]
        document = documents.get(where_uri)
        where_lines = source_lines(document.source) if document is not None else []
    end_column = evidence["end_column"]
    if end_column is None:  # to the end of the line
        last = evidence["end_line"]
        end_column = len(where_lines[last - 1]) + 1 if last <= len(where_lines) else 1
    return types.DiagnosticRelatedInformation(
        location=types.Location(uri=where_uri, range=span(
            where_lines, evidence["line"], evidence["column"], evidence["end_line"],
            end_column, codec)),
        message=evidence["message"])
