"""The findings stage: the rules' reports become findings. Positions are computed for the
reported nodes only; a suppression comment on any line of a report's node or statement
hides it (and is then used); the evidence a message names is rendered and placed; each
fix becomes text edits (``fix_edits``). A rule that crashed is a NAN000 at the node it was
visiting.
"""

from __future__ import annotations

import ast
import dataclasses
import traceback
from typing import Any, Callable, Dict, List, Optional, Tuple

import libcst as cst

from nanlint import notebook, suppression
from nanlint.analysis import CONFIDENCE_ORDER, Analysis, render
from nanlint.analysis.tree import is_a
from nanlint.dispatch import COMPOUND, Crash
from nanlint.finding import Finding
from nanlint.fix_edits import one_fix_per_hazard, text_edits
from nanlint.options import LintOptions
from nanlint.parsing import Readable
from nanlint.positions import Positions, report_nodes
from nanlint.rule import Report
from nanlint.source import BAD_SUPPRESSION, INTERNAL_ERROR, engine_finding


def findings_of(analysis: Analysis, text: Tuple[str, ast.Module], reports: List[Report],
                crashes: List[Crash], comments: suppression.Suppressions, path: str,
                options: LintOptions, lines: List[str], describe_line: Callable[[int], str],
                with_fixes: bool = True) -> List[Finding]:
    """The findings of a file, in order: its reports that are confident enough and not
    suppressed, the problems of its suppression comments, and its rules' crashes.
    ``text``: the source and Python's tree of it. Raises RecursionError for a module too
    deep to place."""
    threshold = CONFIDENCE_ORDER[options.min_confidence]
    shown = [CONFIDENCE_ORDER[r.confidence] >= threshold and not r.hunt_only for r in reports]
    # A report below min-confidence is not shown, but still uses its suppression: the
    # comment is needed again as soon as the threshold is lowered.
    needed = any(shown) or bool(reports and (comments.by_line or comments.whole_file))
    findings = (_findings(analysis, text, reports, shown, path, lines, comments,
                          describe_line, with_fixes) if needed else [])
    findings.extend(suppression_problems(text[0], path, options, lines, comments))
    if crashes:
        findings.extend(crash_findings(analysis, text, crashes, path, lines))
    findings.sort(key=lambda f: f.sort_key)
    return findings


def suppression_problems(source: str, path: str, options: LintOptions, lines: List[str],
                         comments: suppression.Suppressions) -> List[Finding]:
    """Malformed comments, and (once every finding has been matched) unused ones."""
    if "NAN001" not in options.engine_codes:
        return []
    enabled = frozenset(rule.code for rule in options.rules) | (
        options.engine_codes & {"NAN000"})
    return [engine_finding(BAD_SUPPRESSION, "warning", path, problem.line, problem.column + 1,
                           problem.message, lines, end_column=problem.end_column + 1)
            for problem in comments.problems + comments.unused(enabled)]


def crash_findings(analysis: Analysis, text: Tuple[str, ast.Module], crashes: List[Crash],
                   path: str, lines: List[str]) -> List[Finding]:
    """Each rule crash reported where the rule was: at the node it was visiting."""
    if not crashes:
        return []  # (the positions of nothing still cost a pass over the file)
    positions = Positions(analysis.module, (node for _, _, node in crashes), *text,
                          analysis.parent)
    findings = []
    for code, error, node in crashes:
        where = positions.get(node)
        line, column, end = ((where.start.line, where.start.column + 1,
                              where.end.column + 1 if where.end.line == where.start.line
                              else None) if where else (1, 1, None))
        findings.append(internal_error(path, code, error, lines, line, column, end))
    return findings


def internal_error(path: str, code: str, error: BaseException, lines: List[str],
                   line: int = 1, column: int = 1, end_column: Optional[int] = None
                   ) -> Finding:
    """One line for the report; the traceback rides along for ``--verbose``."""
    finding = engine_finding(INTERNAL_ERROR, "error", path, line, column,
                             f"internal error in {code}: {type(error).__name__}: "
                             f"{' '.join(str(error).split())}", lines, end_column)
    finding.detail = "".join(traceback.format_exception(type(error), error,
                                                        error.__traceback__))
    return finding


def _findings(analysis: Analysis, text: Tuple[str, ast.Module], reports: List[Report],
              shown: List[bool], path: str, lines: List[str],
              comments: suppression.Suppressions, describe_line: Callable[[int], str],
              with_fixes: bool) -> List[Finding]:
    """``text``: the source and Python's tree of it."""
    positions = Positions(analysis.module,
                          (node for report in reports for node in report_nodes(report)),
                          *text, analysis.parent)
    kept = []
    for report, show in zip(reports, shown):
        # Asked first even for a report not shown: it marks the comment as used.
        if not suppressed(report, positions, comments) and show:
            kept.append(report)
    return as_findings(analysis, positions, kept, path, lines, describe_line, with_fixes)


def suppressed(report: Report, positions: Any, comments: suppression.Suppressions) -> bool:
    """Whether a comment suppresses the report: on any line of its node or statement."""
    position = positions[report.node]
    span_start, span_end = position.start.line, position.end.line
    statement = positions.get(report.statement) if report.statement is not None else None
    if statement is not None:
        span_start = min(span_start, statement.start.line)
        if not is_a(report.statement, COMPOUND):
            span_end = max(span_end, statement.end.line)
    return comments.suppresses(report.rule.code, range(span_start, span_end + 1))


def as_findings(analysis: Analysis, positions: Any, kept: List[Report], path: str,
                lines: List[str], describe_line: Callable[[int], str], with_fixes: bool = True
                ) -> List[Finding]:
    """The reports as findings: positions, evidence rendered into messages, and fixes (one
    per hazard) unless ``with_fixes`` is off."""
    module = analysis.module

    def where_is(node: cst.CSTNode) -> Optional[str]:
        position = positions.get(node)
        return describe_line(position.start.line) if position is not None else None

    def code(node: cst.CSTNode) -> str:
        text = positions.line_text(node, lines)
        return text if text is not None else analysis.code(node)

    deferred = one_fix_per_hazard(kept, positions) if with_fixes else {}
    findings = []
    seen = set()
    for report in kept:
        position = positions[report.node]
        start, end = position.start, position.end
        rule = report.rule
        key = (rule.code, start.line, start.column, end.line, end.column)
        if key in seen:
            continue
        seen.add(key)
        message = report.message
        evidence = None
        if "{evidence}" in message:
            detail = render(report.evidence, code, where_is) if report.evidence else ""
            message = message.replace("{evidence}", detail)
            evidence = _evidence(report, positions, code)
        fix, suggestion = report.fix, report.suggestion
        keeper = deferred.get(id(report))
        if keeper is not None:
            fix = None
            line = positions[keeper.node].start.line
            suggestion = (f"{suggestion or ''} (the fix of {keeper.rule.code} at "
                          f"{describe_line(line)} removes this hazard too)").lstrip()
        findings.append(Finding(
            code=rule.code, name=rule.name, severity=rule.severity,
            confidence=report.confidence, path=path, line=start.line, column=start.column + 1,
            end_line=end.line, end_column=end.column + 1, message=message,
            suggestion=suggestion,
            fix=text_edits(module, fix, positions, lines, analysis, notebook.is_notebook(path))
            if with_fixes else None,
            evidence=evidence, gradient=report.gradient,
            score=report.score if report.why else None, why=report.why or None,
            origins=report.origins, callers=tuple(sorted(report.callers)),
            source_lines=tuple(lines[start.line - 1:end.line])))
    return findings


def _evidence(report: Report, positions: Any, code: Callable[[cst.CSTNode], str]
              ) -> Optional[Dict[str, Any]]:
    """The place of the evidence the message names, with what it says about it."""
    place = positions.get(report.evidence.node) if report.evidence is not None else None
    if place is None:
        return None
    return {"line": place.start.line, "column": place.start.column + 1,
            "end_line": place.end.line, "end_column": place.end.column + 1,
            "message": render(report.evidence, code, lambda node: None)}


def in_file(findings: List[Finding], read: Readable, path: str, options: LintOptions,
            lines: List[str]) -> List[Finding]:
    """The findings of what was read of a file (``read``) at their places in the file as
    written (``lines``), with the NAN000 that says what was not read (``read.problem``).
    A text read otherwise than written (its tabs counted) gets no fix."""
    if read.problem is None and not read.indents:
        return findings
    placed = [dataclasses.replace(
        finding, column=read.column(finding.line, finding.column),
        end_column=read.column(finding.end_line, finding.end_column),
        source_lines=tuple(lines[finding.line - 1:finding.end_line]), fix=None,
        evidence=finding.evidence and dict(
            finding.evidence, column=read.column(finding.evidence["line"],
                                                 finding.evidence["column"]),
            end_column=read.column(finding.evidence["end_line"],
                                   finding.evidence["end_column"])))
        for finding in findings]
    if read.problem is not None and "NAN000" in options.engine_codes:
        placed.append(read.problem.finding(path, lines))
    return sorted(placed, key=lambda f: f.sort_key)
