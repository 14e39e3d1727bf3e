"""Python 2's forms read as Python 3 writes them, for a statement Python 3 refuses.

TensorFlow code written for Python 2 is still trained, and one print statement makes its
whole function unreadable to Python 3. ``as_python3`` rewrites the Python 2 forms, token by
token, into forms Python 3 parses, keeping every line where it is and every column of the
statement's expressions where it was: what the analysis reads, and where it reports, is the
code as written. The meaning of a rewritten form needs to be kept only as far as the
analysis reads it: a print's or an exec's operands stay operands of a call; an except
clause's name is dropped (an exception is no number); an octal or long literal stays a
number.

- ``print x, y`` → ``print(x, y)``; ``print >>f, x`` → ``print(  f, x)``; ``exec code`` →
  ``exec(code)`` (the space after the keyword becomes the parenthesis);
- ``raise E, "message"`` → ``raise E( "message")`` (the comma becomes the parenthesis);
- ``except E, e:`` → ``except E   :``;
- backquotes → parentheses; ``<>`` → ``!=``;
- ``0777`` → `` 777``; ``10L`` → ``10 ``; ``ur"..."`` → `` r"..."``;
- ``async`` as a name (``f(async=True)``, Python 3.6 and before) → ``_sync``.
"""

from __future__ import annotations

import io
import tokenize
from typing import List, Optional, Sequence, Set, Tuple

# Statements whose header ends at a ':' that a simple statement may follow on its line.
_COMPOUND = frozenset({"if", "elif", "else", "for", "while", "try", "except", "finally",
                       "with", "def", "class"})
_CALLED = {"print": "print statements", "exec": "exec statements"}
_ASYNC = "names `async`"  # a keyword since Python 3.7
_OPENS, _CLOSES = "([{", ")]}"

Edit = Tuple[int, int, int, str]  # (row, start column, end column, text), rows from 1


def as_python3(lines: Sequence[str]) -> Optional[Tuple[List[str], Set[str]]]:
    """``lines`` with their Python 2 forms rewritten, and the names of the forms found
    ("print statements", ...); None if there is none, or the lines do not tokenize."""
    text = "".join(line + "\n" for line in lines)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    edits: List[Edit] = []
    found: Set[str] = set()
    start, depth, header, backquote = True, 0, "", False
    for index, token in enumerate(tokens):
        kind, string = token.type, token.string
        if kind in (tokenize.NL, tokenize.COMMENT):
            continue
        if kind in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            start, depth, header = True, 0, ""
            continue
        after = tokens[index + 1] if index + 1 < len(tokens) else token
        at_start, start = start, False
        if at_start:
            header = string if kind == tokenize.NAME and string in _COMPOUND else ""
        if kind == tokenize.OP and string in _OPENS:
            depth += 1
        elif kind == tokenize.OP and string in _CLOSES:
            depth = max(depth - 1, 0)
        elif kind == tokenize.OP and string == ";" and depth == 0:
            start = True
        elif kind == tokenize.OP and string == ":" and depth == 0 and header:
            start, header = True, ""
        elif kind == tokenize.NAME and string == "lambda" and depth == 0:
            header = ""  # its ':' ends no header
        elif at_start and kind == tokenize.NAME and string in _CALLED and _operand(after):
            found.add(_CALLED[string])
            edits.extend(_called(tokens, index))
        elif at_start and kind == tokenize.NAME and string == "raise":
            comma = _depth_zero_comma(tokens, index)
            if comma is not None:
                found.add("raise statements with a comma")
                row, column = tokens[comma].start
                edits.append((row, column, column + 1, "("))
                edits.append(_closing(tokens, comma))
        elif at_start and kind == tokenize.NAME and string == "except":
            comma = _depth_zero_comma(tokens, index)
            if comma is not None and tokens[comma + 1].type == tokenize.NAME:
                found.add("except clauses with a comma")
                row, column = tokens[comma].start
                edits.append((row, column, tokens[comma + 1].end[1], " " * (
                    tokens[comma + 1].end[1] - column)))
        elif kind == tokenize.ERRORTOKEN and string == "`":
            found.add("backquotes")
            edits.append((*token.start, token.end[1], ")" if backquote else "("))
            backquote = not backquote
        elif kind == tokenize.OP and string == "<" and _touching(token, after, ">"):
            found.add("<>")
            edits.append((*token.start, after.end[1], "!="))
        elif kind == tokenize.NUMBER:
            edits.extend(_number(token, after, found))
        elif kind == tokenize.NAME and string.lower() == "ur" and after.type == tokenize.STRING \
                and after.start == token.end:
            found.add("ur strings")
            edits.append((*token.start, token.end[1], " r"))
        elif kind == tokenize.NAME and string == "async" and after.string not in (
                "def", "for", "with"):
            found.add(_ASYNC)
            edits.append((*token.start, token.end[1], "_sync"))
    if not edits:
        return None
    return _applied(list(lines), edits), found


def _operand(token: tokenize.TokenInfo) -> bool:
    """Whether a print or exec keyword is followed by an operand, as a statement's is (not
    a call, not the name alone, not an attribute or an assignment of the name)."""
    if token.type in (tokenize.NEWLINE, tokenize.COMMENT, tokenize.ENDMARKER, tokenize.NL):
        return False
    return not (token.type == tokenize.OP and token.string in ("(", ";", ".", "=", ",", ")")
                or token.type == tokenize.OP and token.string.endswith("=")
                and token.string not in ("==",))


def _called(tokens: List[tokenize.TokenInfo], index: int) -> List[Edit]:
    """``print x`` as ``print(x)``: the space after the keyword opens the call (or a '('
    is put there), a ``>>`` is blanked, and the call closes after the statement's last
    token."""
    keyword, first = tokens[index], tokens[index + 1]
    row, column = keyword.end
    if first.start == (row, column):
        edits = [(row, column, column, "(")]
    else:
        edits = [(row, column, column + 1, "(")]
    if first.type == tokenize.OP and first.string == ">>":
        edits.append((*first.start, first.end[1], "  "))
    return edits + [_closing(tokens, index)]


def _closing(tokens: List[tokenize.TokenInfo], index: int) -> Edit:
    """A ')' after the last token of the simple statement that ``tokens[index]`` is in."""
    depth, last = 0, tokens[index]
    for token in tokens[index + 1:]:
        if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER) or (
                depth == 0 and token.type == tokenize.OP and token.string == ";"):
            break
        if token.type in (tokenize.NL, tokenize.COMMENT):
            continue
        if token.type == tokenize.OP and token.string in _OPENS:
            depth += 1
        elif token.type == tokenize.OP and token.string in _CLOSES:
            depth -= 1
        last = token
    row, column = last.end
    return (row, column, column, ")")


def _depth_zero_comma(tokens: List[tokenize.TokenInfo], index: int) -> Optional[int]:
    """The index of the first ',' outside brackets in the statement or clause header that
    starts at ``tokens[index]``, before its ':' or its end."""
    depth = 0
    for position in range(index + 1, len(tokens)):
        token = tokens[position]
        if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            return None
        if token.type != tokenize.OP:
            continue
        if token.string in _OPENS:
            depth += 1
        elif token.string in _CLOSES:
            depth -= 1
        elif depth == 0 and token.string in (":", ";"):
            return None
        elif depth == 0 and token.string == ",":
            return position
    return None


def _touching(token: tokenize.TokenInfo, after: tokenize.TokenInfo, string: str) -> bool:
    return after.string == string and after.start == token.end


def _number(token: tokenize.TokenInfo, after: tokenize.TokenInfo, found: Set[str]
            ) -> List[Edit]:
    """An octal literal (``0777``: Python 3 reads a '0' and a number) and a long one
    (``10L``: a number and a name)."""
    edits: List[Edit] = []
    if token.string == "0" and after.type == tokenize.NUMBER and after.start == token.end \
            and after.string.isdigit():
        found.add("octal literals")
        edits.append((*token.start, token.end[1], " "))
    elif after.type == tokenize.NAME and after.string in ("L", "l") and \
            after.start == token.end:
        found.add("long literals")
        edits.append((*after.start, after.end[1], " "))
    return edits


def _applied(lines: List[str], edits: List[Edit]) -> List[str]:
    """The edits made, right to left within a line so that each column stays true."""
    for row, start, end, text in sorted(edits, key=lambda e: (e[0], e[1], e[2]),
                                        reverse=True):
        line = lines[row - 1]
        lines[row - 1] = line[:start] + text + line[end:]
    return lines


def forms_of_old_pythons(forms: Set[str]) -> str:
    """The forms found, for a message: "print statements and <> (Python 2)"."""
    parts = []
    older = sorted(forms - {_ASYNC})
    if older:
        parts.append(f"{_listed(older)} (Python 2)")
    if _ASYNC in forms:
        parts.append(f"{_ASYNC} (Python 3.6 and before)")
    return " and ".join(parts)


def _listed(words: List[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
