"""``--add-noqa``: a suppression comment for every finding, in a file or in a notebook's cells.

The result must parse and must report none of those findings and no unused suppression,
else nothing is written (as for fixes). A notebook is commented as the program its code
cells make, and each changed line goes back into its cell.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from nanlint import notebook, suppression
from nanlint.cells import cell_lines, notebook_program
from nanlint.engine import lint_source
from nanlint.finding import Finding
from nanlint.fixing import unparsable, write_atomically
from nanlint.options import LintOptions
from nanlint.source import SourceError, decode_with_encoding, read_bytes


def add_suppressions(file_path: str, findings: Sequence[Finding], options: LintOptions
                     ) -> Tuple[int, Optional[str]]:
    """Write a suppression comment for each finding of the file: how many findings it
    covers, or why the file was left alone."""
    wanted = [f for f in findings if f.code not in ("NAN000", "NAN001")]
    if not wanted:
        return 0, None
    data, error = read_bytes(file_path)
    if error is not None:
        return 0, str(error)
    try:
        source, in_program, describe, encode = _program(data, wanted[0].path, options,
                                                        notebook.is_notebook(file_path))
    except (SourceError, notebook.NotebookError) as problem:
        return 0, str(problem)
    if unparsable(source)[0] is not None:
        return 0, None  # checked in part (its NAN000 names the lines skipped): left alone
    text, touched = suppression.with_comments(
        source, [(in_program(f, f.line), in_program(f, f.end_line), f.code) for f in wanted])
    problem, _ = unparsable(text)
    if problem is None:
        idle = {in_program(f, f.line) for f in findings if f.code == "NAN001"}  # not ours
        left = [f for f in lint_source(text, wanted[0].path, options, describe)
                if f.code != "NAN000"
                and (f.code != "NAN001" or (f.line in touched and f.line not in idle))]
        if left:
            where = describe(left[0].line) if describe else f"line {left[0].line}"
            problem = (f"cannot place a suppression comment for {left[0].code} at {where}; "
                       "nothing was written")
    else:
        problem = f"{problem}; nothing was written"
    if problem is None:
        try:
            problem = write_atomically(file_path, data, encode(text))
        except notebook.NotebookError as error:
            problem = f"{error}; nothing was written"
    return (0, problem) if problem is not None else (len(wanted), None)


Place = Callable[[Finding, int], int]


def _program(data: bytes, path: str, options: LintOptions, is_notebook: bool
             ) -> Tuple[str, Place, Optional[Callable[[int], str]], Callable[[str], bytes]]:
    """The text to comment, where a finding's line is in it, how a message names a line,
    and how the commented text becomes the file's bytes."""
    if not is_notebook:
        source, encoding = decode_with_encoding(data)
        return source, lambda finding, line: line, None, lambda text: text.encode(encoding)
    document, _ = notebook_program(notebook.read(data), path, options)
    first = {cell: start for cell, (start, _) in document.cells().items()}

    def in_program(finding: Finding, line: int) -> int:
        return first[finding.cell] + line - 1 if finding.cell in first else line

    return (document.source, in_program, cell_lines(document),
            lambda text: notebook.with_fixed_code(data, document, text,
                                                  notebook.cell_starts(document, text)))
