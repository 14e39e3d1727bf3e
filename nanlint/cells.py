"""Notebooks as an adapter around the pipeline: the code cells become one program
(``notebook_program``, leaving out the cells that do not parse), and the program's findings
go back to their cells (``in_cells``): cell, line and column as written in the cell, with
fixes whose edits are in those coordinates too.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, List, Optional, Tuple

from nanlint import notebook
from nanlint.finding import Finding
from nanlint.options import LintOptions
from nanlint.parsing import check_syntax, refusal
from nanlint.source import SourceError, source_lines


def cell_lines(document: notebook.Notebook) -> Callable[[int], str]:
    """How a message names a line of the notebook's program: by cell and line."""
    def describe_line(line: int) -> str:
        cell, row = document.place(line)
        return f"cell {cell}, line {row}"
    return describe_line


def notebook_program(document: notebook.Notebook, path: str, options: LintOptions
                     ) -> Tuple[notebook.Notebook, List[Finding]]:
    """The notebook without the cells that do not parse, and one NAN000 for each of them
    (Jupyter compiles cell by cell, so one broken cell does not stop the others)."""
    try:
        check_syntax(document.source, path)
        return document, []
    except SourceError:
        pass
    lines = document.source.split("\n")
    broken: Dict[int, SourceError] = {}
    for cell, (first, last) in document.cells().items():
        error = refusal(lines[first - 1:last], first, path)
        if error is not None:
            broken[cell] = error
    document_left = document.without(list(broken))
    findings = []
    if "NAN000" in options.engine_codes:
        for cell, error in broken.items():
            error.args = (f"{error} (cell {cell} is not checked; the other cells are)",)
            findings.append(error.finding(path, lines))
    return document_left, in_cells(document, findings, document.source)


def in_cells(document: notebook.Notebook, findings: List[Finding], program: str
             ) -> List[Finding]:
    """Findings on the notebook's ``program`` (its source, maybe fixed) at their cell, line
    and column as written in the cell, with fixes whose edits are in those coordinates too."""
    lines = source_lines(program)
    result = []
    for finding in findings:
        cell, line = document.place(finding.line)
        end_cell, end_line = document.place(finding.end_line)
        column = finding.column + len(document.prefix(finding.line) or "")
        end_column = finding.end_column + len(document.prefix(finding.end_line) or "")
        if end_cell != cell:  # a statement cannot run on into the next cell; be safe
            end_line, end_column = line, column + 1
        shown = tuple(document.shown(number, lines[number - 1] if number <= len(lines) else "")
                      for number in range(finding.line, finding.line + end_line - line + 1))
        result.append(dataclasses.replace(
            finding, cell=cell, line=line, column=column, end_line=end_line,
            end_column=end_column, source_lines=shown,
            fix=_fix_in_cell(document, finding.fix, cell),
            evidence=_evidence_in_cell(document, finding.evidence),
            origins=tuple(_origin_in_cell(document, origin) for origin in finding.origins)))
    return result


def _origin_in_cell(document: notebook.Notebook, origin: Dict[str, Any]) -> Dict[str, Any]:
    """An origin's lines in its cell."""
    cell, line = document.place(origin["line"])
    end_cell, end_line = document.place(origin["end_line"])
    return {**origin, "cell": cell, "line": line,
            "end_line": end_line if end_cell == cell else line}


def _evidence_in_cell(document: notebook.Notebook, evidence: Optional[Dict[str, Any]]
                      ) -> Optional[Dict[str, Any]]:
    """The evidence place in the cell's coordinates."""
    if evidence is None:
        return None
    place = dict(evidence)
    place["cell"], place["line"] = document.place(evidence["line"])
    end_cell, place["end_line"] = document.place(evidence["end_line"])
    place["column"] = evidence["column"] + len(document.prefix(evidence["line"]) or "")
    place["end_column"] = evidence["end_column"] + len(
        document.prefix(evidence["end_line"]) or "")
    if end_cell != place["cell"]:
        place["end_line"], place["end_column"] = place["line"], place["column"] + 1
    return place


def _fix_in_cell(document: notebook.Notebook, fix: Optional[Dict[str, Any]], cell: int
                 ) -> Optional[Dict[str, Any]]:
    """A fix's edits in the cell's coordinates; none for a fix that would touch a line that
    is not Python as written (a magic), or another cell."""
    if not fix or not notebook_editable(document, fix):
        return None
    edits = []
    for edit in fix["edits"]:
        places = {document.place(edit["line"])[0], document.place(edit["end_line"])[0]}
        if places != {cell}:
            return None
        prefix = document.prefix(edit["line"]) or ""
        edits.append(dict(edit, line=document.place(edit["line"])[1],
                          end_line=document.place(edit["end_line"])[1],
                          column=edit["column"] + len(prefix),
                          end_column=edit["end_column"] + len(
                              document.prefix(edit["end_line"]) or ""),
                          replacement=edit["replacement"].replace("\n", "\n" + prefix)))
    return dict(fix, edits=edits)


def notebook_editable(document: notebook.Notebook, fix: Dict[str, Any]) -> bool:
    """Whether every line the fix edits is Python as written in its cell, in a notebook
    whose file a fix can be written back to."""
    return document.writable and all(document.prefix(line) is not None
                                     for edit in fix["edits"]
                                     for line in range(edit["line"], edit["end_line"] + 1))

