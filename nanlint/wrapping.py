"""Fixes within the project's line length (``line-length``: the configuration's, else ruff's or
black's in pyproject.toml, else 88).

A fix that would leave a line longer than the limit breaks inside brackets instead, as a
formatter would: the outermost brackets that make it fit, among those of the code it writes
and those around it on the same lines. Inside the brackets the arguments go on one indented
line, or one per line if that is still too long, each broken again if it is still too long
(an operation without brackets of its own inside its right operand's, else its left's); the
closing bracket goes back to the line's indentation, with the file's own indentation unit.
A fix of an expression the user wrapped over several lines is broken the same way, never
joined into one long line. Inside brackets, Python ignores line breaks, so the code written
still parses. Not in notebooks: a cell's fixed code must keep its lines.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Tuple

import libcst as cst

from nanlint.analysis.tree import generated, is_a

STATEMENTS = (cst.SimpleStatementLine, cst.BaseCompoundStatement, cst.Module)


def fit(module: cst.Module, old: cst.CSTNode, new: cst.CSTNode, lines: List[str],
        place: Callable[[cst.CSTNode], object],
        parent: Callable[[cst.CSTNode], Optional[cst.CSTNode]], limit: Optional[int],
        text: Optional[str] = None) -> Tuple[cst.CSTNode, cst.CSTNode]:
    """(the node to replace, its replacement): ``(old, new)`` unless that leaves a line longer
    than ``limit``; then a node with brackets (``new``, or one around ``old`` on the same
    lines) and its broken replacement: the outermost that fits, else the one whose longest
    line is shortest. ``old`` may span lines (an expression the user wrapped), which a
    fix written on one line must not turn into one long line. ``place`` gives a node's
    position (``Positions.get``); no ``limit``: no breaking. ``text``: ``new``'s code, if
    the caller has it."""
    position = place(old) if is_a(new, cst.CSTNode) and limit else None
    if position is None:
        return old, new
    first = lines[position.start.line - 1].rstrip("\r\n")
    last = lines[position.end.line - 1].rstrip("\r\n")
    text = generated(new, module) if text is None else text
    width = position.start.column + len(text) + len(last) - position.end.column
    if "\n" in text or width <= limit:
        return old, new
    base = first[:len(first) - len(first.lstrip())]
    best: Tuple[int, cst.CSTNode, cst.CSTNode] = (width, old, new)
    # The outermost brackets first, as a formatter splits them.
    for target, replacement in reversed(list(_candidates(old, new, parent, place,
                                                         position))):
        where = place(target)
        broken = _break(replacement, module, where.start.column,
                        len(last) - where.end.column, limit, base)
        if broken is None:
            continue
        rendered = first[:where.start.column] + generated(broken, module) + last[where.end.column:]
        longest = max(len(part) for part in rendered.split("\n"))
        if longest < best[0]:
            best = (longest, target, broken)
        if longest <= limit:
            break
    return best[1], best[2]


def _candidates(old: cst.CSTNode, new: cst.CSTNode,
                parent: Callable[[cst.CSTNode], Optional[cst.CSTNode]],
                place: Callable[[cst.CSTNode], object], position):
    """``(old, new)``, then each node with brackets around ``old`` that starts on its first
    line and ends on its last, with ``new`` in it."""
    yield old, new
    node = parent(old)
    while node is not None and not isinstance(node, STATEMENTS):
        if _bracketed(node):
            where = place(node)
            if (where is None or where.start.line != position.start.line
                    or where.end.line != position.end.line):
                return
            yield node, node.deep_replace(old, new)
        node = parent(node)


def _bracketed(node: cst.CSTNode) -> bool:
    return (isinstance(node, cst.Call) and bool(node.args)) or bool(getattr(node, "lpar", None))


def _newline(indent: str) -> cst.ParenthesizedWhitespace:
    return cst.ParenthesizedWhitespace(first_line=cst.TrailingWhitespace(), empty_lines=(),
                                       indent=False, last_line=cst.SimpleWhitespace(indent))


def _break(node: cst.CSTNode, module: cst.Module, column: int, tail: int, limit: int,
           base: str) -> Optional[cst.CSTNode]:
    """``node`` broken inside its own outermost brackets (None if it has none): the
    contents on one line indented one unit deeper than ``base``, or one argument per line
    (each broken again if still too long)."""
    inner = base + module.default_indent
    if isinstance(node, cst.Call) and node.args:
        last = len(node.args) - 1
        hugged = node.with_changes(
            whitespace_before_args=_newline(inner),
            args=[arg.with_changes(whitespace_after_arg=_newline(base)) if i == last else arg
                  for i, arg in enumerate(node.args)])
        if _fits(hugged, module, column, tail, limit):
            return hugged
        args = []
        for i, arg in enumerate(node.args):
            value = arg.value
            if len(inner) + len(generated(arg, module).strip()) + 1 > limit:
                value = _break(value, module, len(inner) + _before_value(arg, module), 1,
                               limit, inner) or value
            if i == last:
                args.append(arg.with_changes(value=value, whitespace_after_arg=_newline(base)))
            else:
                args.append(arg.with_changes(
                    value=value, comma=cst.Comma(whitespace_after=_newline(inner)),
                    whitespace_after_arg=cst.SimpleWhitespace("")))
        return node.with_changes(whitespace_before_args=_newline(inner), args=args)
    lpar = getattr(node, "lpar", None)
    if lpar:
        return node.with_changes(
            lpar=[*lpar[:-1], lpar[-1].with_changes(whitespace_after=_newline(inner))],
            rpar=[node.rpar[0].with_changes(whitespace_before=_newline(base)),
                  *node.rpar[1:]])
    if isinstance(node, (cst.BinaryOperation, cst.BooleanOperation)):
        # No brackets of its own: an operand's, the right one first (black's right-hand
        # split), each at its own column on the line.
        text, right = generated(node, module), generated(node.right, module)
        broken = _break(node.right, module, column + len(text) - len(right), tail, limit, base)
        if broken is not None:
            return node.with_changes(right=broken)
        left = len(generated(node.left, module))
        broken = _break(node.left, module, column, tail + len(text) - left, limit, base)
        if broken is not None:
            return node.with_changes(left=broken)
    return None


def _before_value(arg: cst.Arg, module: cst.Module) -> int:
    """The width of what an argument writes before its value (``axis=``, ``*``)."""
    whole = generated(arg.with_changes(comma=cst.MaybeSentinel.DEFAULT,
                                       whitespace_after_arg=cst.SimpleWhitespace("")), module)
    return len(whole) - len(generated(arg.value, module))


def _fits(node: cst.CSTNode, module: cst.Module, column: int, tail: int, limit: int) -> bool:
    parts = generated(node, module).split("\n")
    widths = [column + len(parts[0]), *(len(p) for p in parts[1:-1]), len(parts[-1]) + tail]
    return max(widths) <= limit
