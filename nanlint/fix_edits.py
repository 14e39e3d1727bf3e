"""A rule's fix as text edits: the libcst edit it proposes, placed at the replaced nodes'
positions and kept within the project's line length (``wrapping``); one fix per hazard.
Applying the edits to a file is ``nanlint.fixing``'s.
"""

from __future__ import annotations

import re
import tokenize
from typing import Any, Dict, List, Optional, Tuple

import libcst as cst

from nanlint import wrapping
from nanlint.analysis import Analysis
from nanlint.analysis.tree import generated, is_a
from nanlint.rule import Fix, Report

# Comments that tools read as instructions for their line: the pragmas ruff's formatter
# knows, and nanlint's own.
_PRAGMA = re.compile(r"#\s*(noqa\b|type:|ty:|pyright:|pylint:|ruff:|nanlint:)", re.IGNORECASE)


def one_fix_per_hazard(reports: List[Report], positions: Any) -> Dict[int, Report]:
    """One epsilon per hazard: reports whose evidence is the same producer (`d = norm(a -
    b); 1.0 / d`: both come from `a - b`) keep only the fix nearest that producer, the
    innermost report that contains it (the norm's). Fixing the value where it is made removes
    the hazard downstream too; if it does not, the other finding is still there after the
    fix, with its own fix, for the next round. A safe fix is never deferred to an unsafe
    one (`--fix` would then fix neither). Returns id(deferred report) → the one kept."""
    groups: Dict[int, List[Report]] = {}
    for report in reports:
        if report.fix is not None and report.evidence is not None:
            groups.setdefault(id(report.evidence.node), []).append(report)
    deferred: Dict[int, Report] = {}
    for group in groups.values():
        source = positions.get(group[0].evidence.node) if len(group) > 1 else None
        if source is None:
            continue

        def span(report: Report) -> Optional[Tuple[Tuple[int, int], Tuple[int, int]]]:
            where = positions.get(report.node)
            if where is None:
                return None
            return ((where.start.line, where.start.column), (where.end.line, where.end.column))

        around = [r for r in group if (s := span(r)) is not None
                  and s[0] <= (source.start.line, source.start.column)
                  and (source.end.line, source.end.column) <= s[1]]
        if not around:
            continue
        # The innermost: it starts last, or ends first.
        keeper = max(around, key=lambda r: (span(r)[0], [-x for x in span(r)[1]]))
        for report in group:
            if report is not keeper and (keeper.fix.safety == "safe"
                                         or report.fix.safety != "safe"):
                deferred[id(report)] = keeper
    return deferred


def text_edits(module: cst.Module, fix: Optional[Fix], positions: Any, lines: List[str],
               analysis: Analysis, in_notebook: bool = False) -> Optional[Dict[str, Any]]:
    """A rule's libcst edit as text edits at the replaced nodes' positions, within the
    project's line length (wrapping.py; not in a notebook, whose cells keep their lines)."""
    if fix is None:
        return None
    edits = []
    # One expression written (other replacements remove whole statements): it may break
    # inside brackets around it, which no other replacement is in.
    alone = sum(is_a(new, cst.CSTNode) for _, new in fix.replacements) == 1
    for old, new in fix.replacements:
        wrapped, code = False, None
        if alone and is_a(new, cst.CSTNode):
            code = analysis.code(new)  # the rule's help line often showed it already
            fitted = wrapping.fit(module, old, new, lines, positions.get, analysis.parent,
                                  None if in_notebook else analysis.settings.line_length, code)
            wrapped = fitted[0] is not old or fitted[1] is not new
            old, new = fitted
        position = positions.get(old)
        if position is None:
            return None  # a node outside this module: the rule's fix cannot be placed
        start, end = position.start, position.end
        if new is cst.RemovalSentinel.REMOVE:
            # A whole statement line goes, newline and all; only where it stands alone on
            # its lines (else the rest of the fix still applies, and the line stays).
            if (lines[start.line - 1][:start.column].strip() or end.line >= len(lines)
                    or lines[end.line - 1][end.column:].strip()):
                continue
            edits.append({"line": start.line, "column": 1, "end_line": end.line + 1,
                          "end_column": 1, "replacement": ""})
            continue
        original = "\n".join(lines[start.line - 1:end.line])
        original = original[start.column:len(original) - len(lines[end.line - 1]) + end.column]
        indent = _block_indent(module, old, original, lines, start.line)
        if indent is None:
            return None  # cannot render the node as it is written: no fix rather than a wrong one
        if wrapped or code is None or "\n" in code:  # else the indentation changes nothing
            code = generated(new, module, indent)
        edit = {"line": start.line, "column": start.column + 1, "end_line": end.line,
                "end_column": end.column + 1, "replacement": code}
        if wrapped and start.line == end.line:
            _comment_stays_on_first_line(edit, old, positions, lines, analysis.parent)
        edits.append(edit)
    return {"safety": fix.safety, "description": fix.description, "edits": edits}


def _comment_stays_on_first_line(edit: Dict[str, Any], old: cst.CSTNode, positions: Any,
                                  lines: List[str], parent: Any) -> None:
    """A fix broken over several lines (wrapping.py) keeps a pragma comment at the end of
    its line on the first line: other tools read a ``# noqa`` on the line where they report,
    the statement's first (ruff looks further only for a multi-line string or a backslash
    continuation), not after the closing bracket; ruff's line length does not count it. Every
    line break of a broken fix is inside a bracket, so a comment may end its first line.
    Another comment goes after the closing bracket, as formatters put it."""
    statement = old
    while statement is not None and not isinstance(statement, wrapping.STATEMENTS):
        statement = parent(statement)
    where = positions.get(statement) if statement is not None else None
    if where is None:
        return
    comment = _comment_of_line(lines, where.start.line, edit["line"])
    if comment is None or not _PRAGMA.search(comment[1]):
        return
    column, text = comment
    line = lines[edit["line"] - 1]
    code_end = len(line[:column].rstrip())
    replacement = edit["replacement"]
    if code_end < edit["end_column"] - 1 or "\n" not in replacement:
        return
    newline = replacement.index("\n")
    newline -= replacement[newline - 1] == "\r"
    edit["replacement"] = (replacement[:newline] + line[code_end:column] + text
                           + replacement[newline:] + line[edit["end_column"] - 1:code_end])
    edit["end_column"] = column + len(text) + 1


def _comment_of_line(lines: List[str], first: int, number: int) -> Optional[Tuple[int, str]]:
    """The comment that ends line ``number`` (its column and text), read with Python's
    tokenizer from line ``first``, where a statement starts."""
    feed = iter([line + "\n" for line in lines[first - 1:number]])
    wanted = number - first + 1
    try:  # the statement goes on after line ``number``: the tokenizer stops at its end
        for token in tokenize.generate_tokens(lambda: next(feed, "")):
            if token.start[0] > wanted:
                break
            if token.type == tokenize.COMMENT and token.start[0] == wanted:
                return token.start[1], token.string
    except (tokenize.TokenError, SyntaxError):
        pass
    return None


def _block_indent(module: cst.Module, node: cst.CSTNode, original: str, lines: List[str],
                  line: int) -> Optional[str]:
    """The indentation under which ``node`` renders as ``original``: found by trying the
    leading whitespace of its line and of the lines above."""
    if "\n" not in original:
        return ""
    tried = set()
    for number in range(line, max(0, line - 200), -1):
        text = lines[number - 1]
        candidate = text[:len(text) - len(text.lstrip())]
        if candidate in tried:
            continue
        tried.add(candidate)
        if generated(node, module, candidate).replace("\r\n", "\n") == original:
            return candidate
    return None

