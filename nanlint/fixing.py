"""Applying fixes: every fix of a file in one pass, verified, then written atomically.

A finding's fix is a list of text edits (computed by the engine from the rule's libcst
edit). All non-overlapping fixes of a file are applied at once; the result is parsed and
linted again, and fixes that overlapped wait for the next round. The result is accepted only
if it parses and none of the fixed findings is still there; otherwise the file is left
untouched and its findings say why. Writing goes to a temporary file in the same folder,
renamed over the original, so a file is always either wholly old or wholly new.
"""

from __future__ import annotations

import bisect
import dataclasses
import difflib
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field, replace
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from nanlint import notebook
from nanlint.budget import FileTimeout, within_budget
from nanlint.cells import cell_lines, in_cells, notebook_editable, notebook_program
from nanlint.engine import lint_notebook, lint_source, timed_out
from nanlint.finding import Finding
from nanlint.options import LintOptions
from nanlint.parsing import check_syntax
from nanlint.source import PARSE_ERROR, SourceError, decode_with_encoding, read_bytes

SAFETIES = {"safe": frozenset({"safe"}), "unsafe": frozenset({"safe", "unsafe"})}
MAX_ROUNDS = 50  # rounds of fixing (overlapping fixes wait for the next round)
_NEWLINE = re.compile(r"\r\n|\r|\n")  # what libcst (and Python) count as a line break


@dataclass
class FixOutcome:
    findings: List[Finding]  # what remains, at its position in the fixed text
    fixed: int = 0  # findings removed by their own fix (those marked `[*]`)
    fixed_codes: List[str] = field(default_factory=list)  # the code of each, for --show-fixes
    carried: int = 0  # findings without a fix of their own that the fixes removed too
    original: str = ""
    text: str = ""  # the fixed text (== original when nothing changed)
    problem: Optional[str] = None  # why nothing was fixed, for the file's findings
    encoding: str = "utf-8"
    data: bytes = field(default=b"", repr=False)
    # The offsets given to fix_source as ``anchors``, where they are in the fixed text.
    anchors: List[int] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.text != self.original


def fixable(finding: Finding, safeties: frozenset) -> bool:
    return bool(finding.fix) and finding.fix.get("safety") in safeties


# -- text edits ------------------------------------------------------------------------------
def _line_starts(text: str) -> List[int]:
    return [0] + [match.end() for match in _NEWLINE.finditer(text)]


def _offset(starts: List[int], line: int, column: int) -> int:
    return starts[line - 1] + column - 1


def apply_edits(text: str, findings: Sequence[Finding]
                ) -> Tuple[str, List[Tuple[Finding, int]], Callable[[int], int]]:
    """Apply the fixes of ``findings`` that do not overlap an earlier one.

    Returns the new text, each applied finding with its start offset in the new text, and
    the map from old offsets to new ones.
    """
    starts = _line_starts(text)
    chosen: List[Tuple[Finding, List[Tuple[int, int, str]]]] = []
    taken: List[Tuple[int, int]] = []  # disjoint, sorted: thousands of fixes stay cheap
    # Safe fixes first: an unsafe fix that overlaps a safe one (two findings of one hazard)
    # waits for the next round, where the safe fix has usually removed its finding.
    ordered = sorted(findings, key=lambda f: (f.fix.get("safety") != "safe", f.line, f.column))
    for finding in ordered:
        edits = [(_offset(starts, e["line"], e["column"]),
                  _offset(starts, e["end_line"], e["end_column"]), e["replacement"])
                 for e in finding.fix["edits"]]
        if any(_overlaps(taken, start, stop) for start, stop, _ in edits):
            continue  # overlaps a fix already chosen: the next round sees it again
        if any(start < stop2 and start2 < stop for i, (start, stop, _) in enumerate(edits)
               for start2, stop2, _ in edits[i + 1:]):
            continue  # a fix whose own edits overlap is broken: never apply it
        chosen.append((finding, edits))
        for start, stop, _ in edits:
            bisect.insort(taken, (start, stop))
    edits_all = sorted((edit for _, edits in chosen for edit in edits), key=lambda e: e[0])
    pieces, position = [], 0
    shift_starts: List[int] = []
    shift_stops: List[int] = []
    shifted = [0]  # shifted[k]: the total shift of the first k edits
    for start, stop, replacement in edits_all:
        pieces.append(text[position:start])
        pieces.append(replacement)
        position = stop
        shift_starts.append(start)
        shift_stops.append(stop)
        shifted.append(shifted[-1] + len(replacement) - (stop - start))
    pieces.append(text[position:])

    def moved(offset: int) -> int:
        """Where ``offset`` of the old text is in the new one (inside an edit: its start)."""
        before = bisect.bisect_left(shift_starts, offset)  # edits that start before it
        if before and offset < shift_stops[before - 1]:
            return shift_starts[before - 1] + shifted[before - 1]
        return offset + shifted[before]

    applied = [(finding, moved(_offset(starts, finding.line, finding.column)))
               for finding, _ in chosen]
    return "".join(pieces), applied, moved


def _overlaps(taken: List[Tuple[int, int]], start: int, stop: int) -> bool:
    """Whether [start, stop) overlaps one of the disjoint, sorted intervals ``taken``."""
    index = bisect.bisect_left(taken, (start, start))
    for begin, end in taken[max(0, index - 2):index]:
        if start < end and begin < stop:
            return True
    while index < len(taken) and taken[index][0] < stop:
        begin, end = taken[index]
        if start < end and begin < stop:
            return True
        index += 1
    return False


# -- fixing one file -------------------------------------------------------------------------
def fix_source(source: str, path: str, options: LintOptions, safeties: frozenset,
               findings: Optional[List[Finding]] = None,
               editable: Callable[[Finding], bool] = lambda finding: True,
               describe_line: Optional[Callable[[int], str]] = None,
               anchors: Sequence[int] = ()) -> FixOutcome:
    """Apply fixes in rounds until none is left. A fix whose result does not parse, or
    does not remove its finding, is set aside (its finding says why) and the others go on.

    ``findings`` are the source's, if already known. A round applies every fix that does
    not overlap another and costs one lint: fixing a file costs about one lint more than
    checking it, however many findings it has. ``editable`` may refuse a fix. ``anchors``
    are offsets of ``source`` to follow through the fixes (a notebook's cell starts); text a
    fix inserts at an anchor goes after it."""
    if findings is None:
        findings = lint_source(source, path, options, describe_line)
    outcome = FixOutcome(findings=findings, original=source, text=source)
    # The rounds must see a parse error even where NAN000 is switched off.
    checking = dataclasses.replace(options, engine_codes=options.engine_codes | {"NAN000"})
    text, anchors = source, list(anchors)
    starts = _line_starts(text)
    # The findings as the user saw them, followed through the rounds: whether each had a
    # fix `--fix` applies (a `[*]`), and where it is now. Those that go are the fixed ones.
    tracked = [(f.code, _offset(starts, f.line, f.column), fixable(f, safeties) and editable(f))
               for f in findings]
    codes: List[str] = []  # the codes of the findings fixed by their own fix
    carried = 0  # findings without one that went with the others' fixes
    rejected: Dict[Tuple[str, int], str] = {}  # (code, offset in `text`) → why not
    for _ in range(MAX_ROUNDS):
        starts = _line_starts(text)
        todo = [f for f in findings if fixable(f, safeties) and editable(f)
                and _key(f, starts) not in rejected]
        if not todo:
            break
        new_text, applied, moved = apply_edits(text, todo)
        problem, line = unparsable(new_text)
        new_findings = [] if problem else lint_source(new_text, path, checking, describe_line)
        failed = next((f for f in new_findings if f.name == PARSE_ERROR[1]), None)
        if failed is not None:
            problem, line = _parse_problem(failed.message), failed.line
        if problem is not None:
            culprit = _culprit(applied, _line_starts(new_text), line)
            if culprit is None:
                return _refused(outcome, problem)  # no fix to blame: stop
            rejected[_key(culprit, starts)] = problem
            continue
        new_starts = _line_starts(new_text)
        still = {_key(f, new_starts) for f in new_findings}
        stuck = [f for f, offset in applied if (f.code, offset) in still]
        if stuck:
            rejected.update((_key(f, starts), "the fix does not remove the finding")
                            for f in stuck)
            continue
        rejected = {(code, moved(offset)): why for (code, offset), why in rejected.items()}
        anchors = [moved(offset) for offset in anchors]
        if "NAN000" not in options.engine_codes:
            new_findings = [f for f in new_findings if f.code != "NAN000"]
        tracked = [(code, moved(offset), own) for code, offset, own in tracked]
        codes.extend(code for code, offset, own in tracked if own and (code, offset) not in still)
        carried += sum(1 for code, offset, own in tracked
                       if not own and (code, offset) not in still)
        tracked = [item for item in tracked if item[:2] in still]
        text, findings = new_text, new_findings
    else:
        return _refused(outcome, f"fixes did not settle after {MAX_ROUNDS} rounds")
    starts = _line_starts(text)
    outcome.findings = [
        replace(f, message=f"{f.message} (fix not applied: {rejected[_key(f, starts)]})")
        if _key(f, starts) in rejected else f for f in findings]
    outcome.text, outcome.fixed, outcome.fixed_codes = text, len(codes), codes
    outcome.anchors, outcome.carried = anchors, carried
    return outcome


def _key(finding: Finding, starts: List[int]) -> Tuple[str, int]:
    return finding.code, _offset(starts, finding.line, finding.column)


def unparsable(text: str) -> Tuple[Optional[str], int]:
    """Why Python's own (fast) parser refuses ``text``, and the line; (None, 0) if it
    parses. libcst's verdict comes with the round's lint."""
    try:
        check_syntax(text)
    except SourceError as error:
        return _parse_problem(str(error)), error.line
    return None, 0


def _parse_problem(message: str) -> str:
    return f"the fixed code would not parse ({' '.join(message.split())})"


def _culprit(applied: List[Tuple[Finding, int]], starts: List[int], line: int
             ) -> Optional[Finding]:
    """The applied fix a parse error at ``line`` of the new text is blamed on: the last one
    that starts at or before the end of that line (a parser stops at or after a bad edit)."""
    end = starts[line] if line < len(starts) else float("inf")
    before = [(offset, finding) for finding, offset in applied if offset < end]
    return max(before, key=lambda item: item[0])[1] if before else None


def _not_applied(problem: str) -> str:
    return f" (fix not applied: {problem}; nothing was written)"


def _refused(outcome: FixOutcome, problem: str) -> FixOutcome:
    note = _not_applied(problem)
    outcome.findings = [replace(f, message=f.message + note) if f.fix else f
                        for f in outcome.findings]
    outcome.problem = problem
    return outcome


def fix_file(file_path: str, display_path: str, options: LintOptions, safeties: frozenset,
             write: bool) -> FixOutcome:
    """Fix one file within its time budget. A file that runs out of it is not written; if
    it was checked before the budget ran out, its findings are still reported."""
    seen: List[Finding] = []  # the file's findings, once its first lint is done
    try:
        return within_budget(options.file_timeout, lambda: _fix_file(
            file_path, display_path, options, safeties, write, seen))
    except FileTimeout:
        if not seen:
            return FixOutcome(findings=timed_out(display_path, options))
        return _refused(FixOutcome(findings=list(seen)),
                        f"fixing took longer than {options.file_timeout:g} s")


def _fix_file(file_path: str, display_path: str, options: LintOptions, safeties: frozenset,
              write: bool, seen: List[Finding]) -> FixOutcome:
    data, error = read_bytes(file_path)
    if error is None:
        try:
            source, encoding = decode_with_encoding(data)
        except SourceError as problem:
            error = problem
    if error is not None:
        found = [error.finding(display_path)] if "NAN000" in options.engine_codes else []
        return FixOutcome(findings=found)
    if notebook.is_notebook(display_path):
        return _fix_notebook(file_path, display_path, data, options, safeties, write, seen)
    findings = lint_source(source, display_path, options)
    seen.extend(findings)
    outcome = fix_source(source, display_path, options, safeties, findings)
    outcome.encoding, outcome.data = encoding, data
    if write and outcome.changed:
        problem = write_atomically(file_path, data, outcome.text.encode(encoding))
        if problem is not None:
            return _refused(FixOutcome(findings=list(seen), original=source, text=source),
                            problem)
    return outcome


def _fix_notebook(file_path: str, display_path: str, data: bytes, options: LintOptions,
                  safeties: frozenset, write: bool, seen: List[Finding]) -> FixOutcome:
    """Fix the code cells as one program, then put the changed lines back in their cells
    (a fix that would touch a line of IPython syntax is not offered)."""
    try:
        document = notebook.read(data)
    except notebook.NotebookError:
        return FixOutcome(findings=lint_notebook(data, display_path, options))
    document, broken = notebook_program(document, display_path, options)
    describe_line = cell_lines(document)
    program = lint_source(document.source, display_path, options, describe_line)

    def in_notebook(findings: List[Finding], text: str) -> List[Finding]:
        return sorted(broken + in_cells(document, findings, text), key=lambda f: f.sort_key)

    seen.extend(in_notebook(program, document.source))
    if not document.writable:
        # No finding offers a fix (cells.notebook_editable), so none is counted as fixable;
        # one that would have one says why.
        note = _not_applied(notebook.UNWRITABLE)
        placed = in_cells(document, program, document.source)
        return FixOutcome(findings=sorted(broken + [
            replace(shown, message=shown.message + note) if fixable(found, safeties) else shown
            for found, shown in zip(program, placed)], key=lambda f: f.sort_key))
    fixed = fix_source(document.source, display_path, options, safeties, program,
                       lambda finding: _in_its_cell(document, finding), describe_line,
                       notebook.cell_starts(document))
    original = data.decode("utf-8-sig")
    if not fixed.changed:
        return FixOutcome(findings=in_notebook(fixed.findings, fixed.text), original=original,
                          text=original)
    try:
        new = notebook.with_fixed_code(data, document, fixed.text, fixed.anchors)
    except notebook.NotebookError as error:
        return _refused(FixOutcome(findings=list(seen)), str(error))
    if write:
        problem = write_atomically(file_path, data, new)
        if problem is not None:
            return _refused(FixOutcome(findings=list(seen)), problem)
    if fixed.text.count("\n") != document.source.count("\n"):
        # Lines moved within their cells: place what is left in the fixed notebook.
        return FixOutcome(findings=_in_fixed_notebook(new, display_path, options, fixed),
                          fixed=fixed.fixed, fixed_codes=fixed.fixed_codes,
                          carried=fixed.carried, original=original,
                          text=new.decode("utf-8-sig"), data=data)
    return FixOutcome(findings=in_notebook(fixed.findings, fixed.text), fixed=fixed.fixed,
                      fixed_codes=fixed.fixed_codes, carried=fixed.carried, original=original,
                      text=new.decode("utf-8-sig"), data=data)


def _in_its_cell(document: notebook.Notebook, finding: Finding) -> bool:
    """Whether the notebook offers the finding's fix (as ``in_cells`` does): every line it
    edits is Python as written, in the finding's cell."""
    cell = document.place(finding.line)[0]
    return notebook_editable(document, finding.fix) and all(
        document.place(line)[0] == cell for edit in finding.fix["edits"]
        for line in (edit["line"], edit["end_line"]))


def _in_fixed_notebook(new: bytes, path: str, options: LintOptions, fixed: FixOutcome
                       ) -> List[Finding]:
    """The findings left by ``fixed`` at their cells and lines in the fixed notebook
    ``new``, their messages naming those places; each keeps why its fix was not applied."""
    notes = {(f.code, f.line, f.column): f.message[f.message.index(" (fix not applied: "):]
             for f in fixed.findings if " (fix not applied: " in f.message}
    document, broken = notebook_program(notebook.read(new), path, options)
    found = lint_source(document.source, path, options, cell_lines(document))
    found = [replace(f, message=f.message + notes.get((f.code, f.line, f.column), ""))
             for f in found]
    return sorted(broken + in_cells(document, found, document.source), key=lambda f: f.sort_key)


def fix_notebook(data: bytes, display_path: str, options: LintOptions, safeties: frozenset
                 ) -> FixOutcome:
    """The fixes of the notebook ``data``, not written: ``text`` is the fixed notebook (the
    language server's fix-all in a notebook cell)."""
    return _fix_notebook(display_path, display_path, data, options, safeties, False, [])


def write_atomically(path: str, expected: bytes, new: bytes) -> Optional[str]:
    """Replace the file's bytes ``expected`` by ``new``; a problem as one phrase, or None."""
    try:
        info = os.stat(path)
        if not info.st_mode & stat.S_IWUSR:
            return "the file is read-only"
        now, _ = read_bytes(path)
        if now != expected:
            return "the file changed on disk while it was being checked"
        folder = os.path.dirname(os.path.abspath(path))
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".nanlint-",
                                                 suffix=".tmp")
    except OSError as error:
        return f"cannot write: {error.strerror or error}"
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(new)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        os.replace(temporary, path)
    except OSError as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return f"cannot write: {error.strerror or error}"
    return None


# -- diffs -----------------------------------------------------------------------------------
def unified_diff(original: str, fixed: str, path: str) -> str:
    """A diff that ``patch -p0`` and ``git apply -p0`` apply to the original file."""
    before = _lines(original)
    after = _lines(fixed)
    out: List[str] = []
    for line in difflib.unified_diff(before, after, fromfile=path, tofile=path):
        if _NEWLINE.search(line[-2:]) is None:
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)


def _lines(text: str) -> List[str]:
    lines, position = [], 0
    for match in _NEWLINE.finditer(text):
        lines.append(text[position:match.end()])
        position = match.end()
    if position < len(text):
        lines.append(text[position:])
    return lines


def summary_counts(findings: Sequence[Finding]) -> Dict[str, int]:
    """How many findings have a safe fix, and how many only an unsafe one."""
    safe = sum(1 for f in findings if fixable(f, SAFETIES["safe"]))
    unsafe = sum(1 for f in findings if fixable(f, SAFETIES["unsafe"])) - safe
    return {"safe": safe, "unsafe": unsafe}
