"""Applying fixes: every fix of a file in one pass, verified, then written atomically.

A finding's fix is a list of text edits (computed by the engine from the rule's libcst
edit). All non-overlapping fixes of a file are applied at once; the result is parsed and
linted again, and fixes that overlapped wait for the next round. The result is accepted only
if it parses and none of the fixed findings is still there; otherwise the file is left
untouched and its findings say why. Writing goes to a temporary file in the same folder,
renamed over the original, so a file is always either wholly old or wholly new.
"""

from __future__ import annotations

import ast
import difflib
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field, replace
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from nanlint import notebook
from nanlint.engine import (FileTimeout, LintOptions, SourceError, decode_with_encoding,
                            lint_bytes, lint_source, parse, read_bytes, timed_out,
                            within_budget)
from nanlint.finding import Finding

SAFETIES = {"safe": frozenset({"safe"}), "unsafe": frozenset({"safe", "unsafe"})}
MAX_ROUNDS = 50  # rounds of fixing (overlapping fixes wait for the next round)
_NEWLINE = re.compile(r"\r\n|\r|\n")  # what libcst (and Python) count as a line break


@dataclass
class FixOutcome:
    findings: List[Finding]  # what remains, at its position in the fixed text
    fixed: int = 0  # findings removed by fixes
    fixed_codes: List[str] = field(default_factory=list)  # the code of each, for --show-fixes
    original: str = ""
    text: str = ""  # the fixed text (== original when nothing changed)
    problem: Optional[str] = None  # why nothing was fixed, for the file's findings
    encoding: str = "utf-8"
    data: bytes = field(default=b"", repr=False)

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
    taken: List[Tuple[int, int]] = []
    ordered = sorted(findings, key=lambda f: (f.line, f.column))
    for finding in ordered:
        edits = [(_offset(starts, e["line"], e["column"]),
                  _offset(starts, e["end_line"], e["end_column"]), e["replacement"])
                 for e in finding.fix["edits"]]
        if any(start < end_ and begin < stop for start, stop, _ in edits
               for begin, end_ in taken):
            continue  # overlaps a fix already chosen: the next round sees it again
        if any(start < stop2 and start2 < stop for i, (start, stop, _) in enumerate(edits)
               for start2, stop2, _ in edits[i + 1:]):
            continue  # a fix whose own edits overlap is broken: never apply it
        chosen.append((finding, edits))
        taken.extend((start, stop) for start, stop, _ in edits)
    edits_all = sorted((edit for _, edits in chosen for edit in edits), key=lambda e: e[0])
    pieces, position, shifts = [], 0, []
    for start, stop, replacement in edits_all:
        pieces.append(text[position:start])
        pieces.append(replacement)
        position = stop
        shifts.append((start, stop, len(replacement) - (stop - start)))
    pieces.append(text[position:])

    def moved(offset: int) -> int:
        """Where ``offset`` of the old text is in the new one (inside an edit: its start)."""
        shift = 0
        for start, stop, delta in shifts:
            if start < offset < stop:
                return start + shift
            if start < offset:
                shift += delta
        return offset + shift

    applied = [(finding, moved(_offset(starts, finding.line, finding.column)))
               for finding, _ in chosen]
    return "".join(pieces), applied, moved


# -- fixing one file -------------------------------------------------------------------------
def fix_source(source: str, path: str, options: LintOptions, safeties: frozenset
               ) -> FixOutcome:
    """Apply fixes in rounds until none is left. A fix whose result does not parse, or
    does not remove its finding, is set aside (its finding says why) and the others go on."""
    findings = lint_source(source, path, options)
    outcome = FixOutcome(findings=findings, original=source, text=source)
    text, fixed, codes = source, 0, []
    rejected: Dict[Tuple[str, int], str] = {}  # (code, offset in `text`) → why not
    for _ in range(MAX_ROUNDS):
        starts = _line_starts(text)
        todo = [f for f in findings if fixable(f, safeties)
                and _key(f, starts) not in rejected]
        if not todo:
            break
        new_text, applied, moved = apply_edits(text, todo)
        problem = _unparsable(new_text)
        if problem is not None:
            broken = [f for f, _ in applied if _unparsable(apply_edits(text, [f])[0])]
            if not broken:
                return _refused(outcome, problem)  # only the combination breaks: stop
            rejected.update((_key(f, starts), problem) for f in broken)
            continue
        new_findings = lint_source(new_text, path, options)
        new_starts = _line_starts(new_text)
        still = {_key(f, new_starts) for f in new_findings}
        stuck = [f for f, offset in applied if (f.code, offset) in still]
        if stuck:
            rejected.update((_key(f, starts), "the fix does not remove the finding")
                            for f in stuck)
            continue
        rejected = {(code, moved(offset)): why for (code, offset), why in rejected.items()}
        # Fixed: every finding the fixes removed, also one whose fix gave way to another
        # fix of the same hazard (one epsilon per hazard).
        gone = [f.code for f in findings
                if (f.code, moved(_offset(starts, f.line, f.column))) not in still]
        text, findings, fixed = new_text, new_findings, fixed + len(gone)
        codes.extend(gone)
    else:
        return _refused(outcome, f"fixes did not settle after {MAX_ROUNDS} rounds")
    starts = _line_starts(text)
    outcome.findings = [
        replace(f, message=f"{f.message} (fix not applied: {rejected[_key(f, starts)]})")
        if _key(f, starts) in rejected else f for f in findings]
    outcome.text, outcome.fixed, outcome.fixed_codes = text, fixed, codes
    return outcome


def _key(finding: Finding, starts: List[int]) -> Tuple[str, int]:
    return finding.code, _offset(starts, finding.line, finding.column)


def _unparsable(text: str) -> Optional[str]:
    try:
        parse(text)
        ast.parse(text)
    except (SourceError, SyntaxError, ValueError) as error:
        return f"the fixed code would not parse ({' '.join(str(error).split())})"
    except (RecursionError, MemoryError):
        return "the fixed code is nested too deeply to check"
    return None


def _refused(outcome: FixOutcome, problem: str) -> FixOutcome:
    note = f" (fix not applied: {problem}; nothing was written)"
    outcome.findings = [replace(f, message=f.message + note) if f.fix else f
                        for f in outcome.findings]
    outcome.problem = problem
    return outcome


def fix_file(file_path: str, display_path: str, options: LintOptions, safeties: frozenset,
             write: bool) -> FixOutcome:
    """Fix one file within its time budget; a file that runs out of it is not written."""
    try:
        return within_budget(options.file_timeout, lambda: _fix_file(
            file_path, display_path, options, safeties, write))
    except FileTimeout:
        return FixOutcome(findings=timed_out(display_path, options))


def _fix_file(file_path: str, display_path: str, options: LintOptions, safeties: frozenset,
              write: bool) -> FixOutcome:
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
        return _fix_notebook(file_path, display_path, data, options, safeties, write)
    outcome = fix_source(source, display_path, options, safeties)
    outcome.encoding, outcome.data = encoding, data
    if write and outcome.changed:
        problem = write_atomically(file_path, data, outcome.text.encode(encoding))
        if problem is not None:
            refused = fix_source(source, display_path, options, frozenset())
            refused = _refused(refused, problem)
            refused.original = refused.text = source
            return refused
    return outcome


def _fix_notebook(file_path: str, display_path: str, data: bytes, options: LintOptions,
                  safeties: frozenset, write: bool) -> FixOutcome:
    """Fix the code cells as one program, then put the changed lines back in their cells."""
    try:
        document = notebook.read(data)
    except notebook.NotebookError:
        return FixOutcome(findings=lint_bytes(data, display_path, options))
    fixed = fix_source(document.source, display_path, options, safeties)
    original = data.decode("utf-8-sig")
    if not fixed.changed:
        return FixOutcome(findings=lint_bytes(data, display_path, options), original=original,
                          text=original)
    try:
        new = notebook.with_fixed_code(data, document, fixed.text)
    except notebook.NotebookError as error:
        return _noted(lint_bytes(data, display_path, options), str(error))
    if write:
        problem = write_atomically(file_path, data, new)
        if problem is not None:
            return _noted(lint_bytes(data, display_path, options), problem)
    return FixOutcome(findings=lint_bytes(new, display_path, options), fixed=fixed.fixed,
                      fixed_codes=fixed.fixed_codes, original=original,
                      text=new.decode("utf-8-sig"), data=data)


def _noted(findings: List[Finding], problem: str) -> FixOutcome:
    """A notebook whose fixes cannot be written: every finding says why."""
    note = f" (fix not applied: {problem}; nothing was written)"
    return FixOutcome(findings=[f if f.code == "NAN000" else replace(f, message=f.message + note)
                                for f in findings], problem=problem)


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


# -- suppression comments (--add-noqa) -------------------------------------------------------
def add_suppressions(file_path: str, findings: Sequence[Finding], options: LintOptions
                     ) -> Tuple[int, Optional[str]]:
    """Write a suppression comment for each finding of the file: how many findings it
    covers, or why the file was left alone. The result must parse and must report none of
    those findings and no unused suppression, else nothing is written (as for fixes)."""
    from nanlint import suppression

    wanted = [f for f in findings if f.code not in ("NAN000", "NAN001") and f.cell is None]
    if not wanted or notebook.is_notebook(file_path):
        return 0, None
    data, error = read_bytes(file_path)
    if error is not None:
        return 0, str(error)
    try:
        source, encoding = decode_with_encoding(data)
    except SourceError as problem:
        return 0, str(problem)
    text, touched = suppression.with_comments(
        source, [(f.line, f.end_line, f.code) for f in wanted])
    problem = _unparsable(text)
    if problem is None:
        path = wanted[0].path
        idle = {f.line for f in findings if f.code == "NAN001"}  # unused before: not ours
        left = [f for f in lint_source(text, path, options) if f.code != "NAN000"
                and (f.code != "NAN001" or (f.line in touched and f.line not in idle))]
        if left:
            problem = (f"cannot place a suppression comment for {left[0].code} at line "
                       f"{left[0].line}; nothing was written")
    else:
        problem = f"{problem}; nothing was written"
    if problem is None:
        problem = write_atomically(file_path, data, text.encode(encoding))
    return (0, problem) if problem is not None else (len(wanted), None)
