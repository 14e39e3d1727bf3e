"""Suppression comments: ``# nanlint: ignore[NAN101]``, ``# noqa: NAN101``, ignore-file.

Comments are read with :mod:`tokenize`, so the same words inside a string never count. A
``# nanlint:`` comment that names no code, names an unknown code or is misspelled suppresses
nothing and is reported as NAN001 (fail closed). So is a code that is enabled but was not
reported where the comment applies (an unused suppression); a code that is not enabled for
the file is not judged, since another configuration may enable it (see :meth:`unused`). A
comment that names NAN001 itself is never reported (as ruff's `# noqa: RUF100`). A bare
``# noqa`` belongs to flake8 and the like: nanlint neither honours nor reports it.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Set, Tuple

_DIRECTIVE = re.compile(r"#\s*nanlint\s*:\s*(?P<body>.*)$", re.IGNORECASE)
# Another tool's comment may follow the directive, as in `ignore[NAN101]  # noqa: E501`.
_IGNORE = re.compile(r"(?P<kind>ignore-file|ignore)\s*(?:\[(?P<codes>[^\]]*)\])?\s*"
                     r"(?:#(?!\s*nanlint\s*:).*)?$", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa\s*:\s*(?P<codes>[A-Za-z0-9_, ]+)", re.IGNORECASE)
_NAN_CODE = re.compile(r"^NAN\d{3}$")


@dataclass
class Problem:
    line: int
    column: int  # 0-based
    end_column: int
    message: str


SELF = "NAN001"  # a comment naming this code is exempt from NAN001


@dataclass
class Directive:
    """One suppression comment: where it is, the valid codes it names, which of them hit."""

    line: int
    column: int  # 0-based
    end_column: int
    text: str
    codes: Set[str]
    whole_file: bool
    used: Set[str] = field(default_factory=set)


@dataclass
class Suppressions:
    by_line: Dict[int, List[Directive]] = field(default_factory=dict)
    whole_file: List[Directive] = field(default_factory=list)
    problems: List[Problem] = field(default_factory=list)

    def suppresses(self, code: str, lines: range) -> bool:
        """Whether a finding of ``code`` spanning ``lines`` is suppressed; marks the use."""
        hits = [d for d in self.whole_file if code in d.codes]
        for line in lines:
            hits.extend(d for d in self.by_line.get(line, ()) if code in d.codes)
        for directive in hits:
            directive.used.add(code)
        return bool(hits)

    def unused(self, enabled: FrozenSet[str]) -> List[Problem]:
        """A problem for each comment naming an enabled code that suppressed nothing."""
        directives = [*self.whole_file, *(d for ds in self.by_line.values() for d in ds)]
        problems = []
        for directive in sorted(directives, key=lambda d: (d.line, d.column)):
            if SELF in directive.codes:
                continue
            idle = sorted((directive.codes & enabled) - directive.used)
            if not idle:
                continue
            where = "in this file" if directive.whole_file else "where it applies"
            listed = ", ".join(idle)
            if idle == sorted(directive.codes):
                message = (f"unused suppression `{directive.text}`: no {listed} finding "
                           f"{where}; remove the comment")
            else:
                message = (f"unused code{'s' if len(idle) > 1 else ''} {listed} in "
                           f"`{directive.text}`: no such finding {where}; remove "
                           f"{'them' if len(idle) > 1 else 'it'}")
            problems.append(Problem(directive.line, directive.column, directive.end_column,
                                    message))
        return problems


def parse(source: str, known_codes: FrozenSet[str]) -> Suppressions:
    result = Suppressions()
    lowered = source.lower()
    if "nanlint" not in lowered and "noqa" not in lowered:
        return result
    in_header = True  # before the first statement other than the module docstring
    seen_docstring = False
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return result  # the parser reports the file as NAN000
    for token in tokens:
        kind = token.type
        if kind == tokenize.COMMENT:
            _comment(token, in_header, known_codes, result)
        elif kind in (tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING, tokenize.INDENT,
                      tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        elif kind == tokenize.STRING and in_header and not seen_docstring:
            seen_docstring = True
        else:
            in_header = False
    return result


def _comment(token: tokenize.TokenInfo, in_header: bool, known_codes: FrozenSet[str],
             result: Suppressions) -> None:
    text = token.string
    line, column = token.start
    end_column = token.end[1]

    def problem(message: str) -> None:
        result.problems.append(Problem(line, column, end_column, message))

    def record(codes: Set[str], whole_file: bool) -> None:
        found = Directive(line, column, end_column, text.strip(), codes, whole_file)
        if whole_file:
            result.whole_file.append(found)
        else:
            result.by_line.setdefault(line, []).append(found)

    directive = _DIRECTIVE.search(text)
    if directive:
        match = _IGNORE.match(directive.group("body").strip())
        if not match:
            problem(f"unknown nanlint directive `{text.strip()}`; expected "
                    "`# nanlint: ignore[CODE, ...]` or `# nanlint: ignore-file[CODE, ...]`")
            return
        codes, unknown = _codes(match.group("codes") or "", known_codes)
        kind = match.group("kind").lower()
        if unknown and SELF not in codes:
            problem(f"unknown code{'s' if len(unknown) > 1 else ''} "
                    f"{', '.join(unknown)} in `{text.strip()}`")
        if not codes and not unknown:
            problem(f"`{text.strip()}` names no code and suppresses nothing; write "
                    f"`# nanlint: {kind}[NAN101]` with the codes to suppress")
            return
        if kind == "ignore-file":
            if not in_header:
                problem("`# nanlint: ignore-file[...]` only works at the top of the file, "
                        "before the first statement; it suppresses nothing here")
                return
        record(codes, kind == "ignore-file")
        return
    noqa = _NOQA.search(text)
    if noqa:
        codes = {c for c in re.split(r"[\s,]+", noqa.group("codes").strip()) if c}
        ours = {c.upper() for c in codes if c.upper().startswith("NAN")}
        if ours:
            valid, unknown = _codes(",".join(sorted(ours)), known_codes)
            if unknown and SELF not in valid:
                problem(f"unknown code{'s' if len(unknown) > 1 else ''} "
                        f"{', '.join(unknown)} in `{text.strip()}`")
            if valid:
                record(valid, False)


def _codes(text: str, known_codes: FrozenSet[str]) -> Tuple[Set[str], List[str]]:
    valid: Set[str] = set()
    unknown: List[str] = []
    for raw in text.split(","):
        code = raw.strip().upper()
        if not code:
            continue
        if _NAN_CODE.match(code) and code in known_codes:
            valid.add(code)
        else:
            unknown.append(raw.strip())
    return valid, unknown


# -- writing comments (--add-noqa) -----------------------------------------------------------
def with_comments(source: str, wanted: List[Tuple[int, int, str]]) -> Tuple[str, Set[int]]:
    """``source`` with ``# nanlint: ignore[CODE]`` added for each (line, end_line, code).

    The comment goes on the first line of the flagged span that can end in a comment (not
    one inside a string or continued by a backslash), else on the line that ends the
    statement: the comment applies to every line of the statement. An existing
    ``# nanlint: ignore[...]`` (or a ``# noqa:`` naming NAN codes) on that line gets the
    code added; any other comment is kept, with the directive after it. Returns the new
    text and the lines that changed.
    """
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return source, set()
    line_ends = sorted({t.start[0] for t in tokens
                        if t.type in (tokenize.NL, tokenize.NEWLINE)})
    statement_ends = sorted({t.start[0] for t in tokens if t.type == tokenize.NEWLINE})
    comments = {t.start[0]: t for t in tokens if t.type == tokenize.COMMENT}
    endable = set(line_ends)
    codes_at: Dict[int, Set[str]] = {}
    for line, end_line, code in wanted:
        place = next((n for n in range(line, end_line + 1) if n in endable), None)
        if place is None:
            place = next((n for n in statement_ends if n >= end_line), None)
        if place is not None:
            codes_at.setdefault(place, set()).add(code)
    lines = source.splitlines(keepends=True)
    for number, codes in codes_at.items():
        text = lines[number - 1]
        body = text.rstrip("\r\n")
        ending = text[len(body):]
        comment = comments.get(number)
        if comment is None:
            lines[number - 1] = f"{body.rstrip()}  # nanlint: ignore[{', '.join(sorted(codes))}]"
        else:
            start = comment.start[1]
            lines[number - 1] = body[:start] + _merged(comment.string, codes)
        lines[number - 1] += ending
    return "".join(lines), set(codes_at)


def _merged(comment: str, codes: Set[str]) -> str:
    """An existing comment with ``codes`` added to its suppression, or one appended."""
    directive = _DIRECTIVE.search(comment)
    if directive:
        match = _IGNORE.match(directive.group("body").strip())
        if match and match.group("kind").lower() == "ignore":
            old = {c.strip().upper() for c in (match.group("codes") or "").split(",")
                   if c.strip()}
            rest = directive.group("body").strip()[match.end("kind"):]
            rest = rest[rest.index("]") + 1:] if match.group("codes") is not None else rest
            return (comment[:directive.start()] + "# nanlint: ignore["
                    + ", ".join(sorted(old | codes)) + "]" + rest)
        if not match:  # a malformed directive suppressed nothing: ours replaces it
            return comment[:directive.start()] + f"# nanlint: ignore[{', '.join(sorted(codes))}]"
    noqa = _NOQA.search(comment)
    if noqa and any(c.strip().upper().startswith("NAN")
                    for c in re.split(r"[\s,]+", noqa.group("codes"))):
        listed = noqa.group("codes").rstrip(" ,")
        end = noqa.start("codes") + len(listed)
        return comment[:end] + "".join(f", {c}" for c in sorted(codes)) + comment[end:]
    return f"{comment.rstrip()}  # nanlint: ignore[{', '.join(sorted(codes))}]"
