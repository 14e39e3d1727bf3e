"""Python's tree (``ast``) as a source of positions for libcst nodes: the statements of the
two trees in source order (they correspond one to one), and the twin in Python's tree of a
libcst expression whose range is the same in both.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Dict, List, Optional

import libcst as cst
from libcst._position import CodePosition, CodeRange

from nanlint.analysis.tree import is_a

NEWLINE = re.compile(r"\r\n?|\n")  # what libcst and Python count as a line break


class Lines:
    """The source's lines: where each starts, and Python's byte columns as characters."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.starts = [0] + [match.end() for match in NEWLINE.finditer(source)]
        self.ascii = source.isascii()  # then a byte column is a character column

    def text(self, line: int) -> str:
        starts = self.starts
        return self.source[starts[line - 1]:starts[line] if line < len(starts) else None]

    def column(self, line: int, offset: int) -> int:
        if self.ascii:
            return offset
        text = self.text(line)
        if text.isascii():
            return offset
        return len(text.encode("utf-8")[:offset].decode("utf-8", "replace"))

    def place(self, node: Any) -> Optional[CodeRange]:
        """The range of a node of Python's tree, in libcst's terms."""
        if node.end_lineno is None or node.end_lineno > len(self.starts):
            return None
        return CodeRange(CodePosition(node.lineno, self.column(node.lineno, node.col_offset)),
                         CodePosition(node.end_lineno,
                                      self.column(node.end_lineno, node.end_col_offset)))


# libcst node -> the class of its twin in Python's tree, for the expressions whose range is
# the same in both (without brackets of their own: Python's range leaves those out).
_TWINS = {
    cst.Name: ast.Name, cst.Attribute: ast.Attribute, cst.Call: ast.Call,
    cst.BinaryOperation: ast.BinOp, cst.UnaryOperation: ast.UnaryOp,
    cst.Subscript: ast.Subscript, cst.Comparison: ast.Compare, cst.Integer: ast.Constant,
    cst.Float: ast.Constant, cst.SimpleString: ast.Constant, cst.IfExp: ast.IfExp,
    cst.List: ast.List, cst.Tuple: ast.Tuple, cst.Await: ast.Await,
}


# Nodes with no twin of their own, between an expression and its child.
_THROUGH = frozenset({cst.Arg, cst.AssignTarget, cst.Element, cst.ComparisonTarget})


def from_python(chain: List[cst.CSTNode], theirs: List[ast.stmt], index: Dict[int, int],
                 lines: Lines) -> Optional[CodeRange]:
    """The range of ``chain[0]``, from its twin in Python's tree: ``chain`` climbs from it to
    its statement. None where there is no twin (or it is not certain)."""
    unit = chain[-1]
    if unit.__class__ is cst.SimpleStatementLine:
        if len(chain) > 1:
            chain = chain[:-1]  # the small statement under the line is the unit
        else:  # the line: from its first small statement to its last
            number = index.get(id(unit.body[0]))
            if number is None:
                return None
            first = lines.place(theirs[number])
            last = lines.place(theirs[number + len(unit.body) - 1])
            return CodeRange(first.start, last.end) if first and last else None
    if not is_a(chain[-1], cst.BaseSmallStatement):
        return None
    number = index.get(id(chain[-1]))
    if number is None:
        return None
    twin: Any = theirs[number]
    position = len(chain) - 1
    while position > 0:
        above, below = chain[position], chain[position - 1]
        if below.__class__ in _THROUGH:
            if position < 2:
                return None  # the node is one of these: no twin
            twin, position = _twin(above, below, chain[position - 2], twin), position - 2
        else:
            twin, position = _twin(above, None, below, twin), position - 1
        if twin is None:
            return None
    node = chain[0]
    kind = _TWINS.get(type(node)) if position == 0 and len(chain) > 1 else None
    if len(chain) == 1:  # the small statement itself
        return lines.place(twin)
    if kind is None or not isinstance(twin, kind) or getattr(node, "lpar", ()):
        return None
    if node.__class__ is cst.Name and twin.id != node.value:
        return None
    return lines.place(twin)


def _twin(above: cst.CSTNode, via: Optional[cst.CSTNode], below: cst.CSTNode, twin: Any
          ) -> Any:
    """The twin of ``below``, a child of ``above`` (through ``via``: an argument, a target,
    an element), given ``twin``, the twin of ``above``; None if unknown."""
    kind = type(above)
    if kind in (cst.Return, cst.Expr, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Await,
                cst.Attribute, cst.Subscript):
        if below is above.value and via is None:
            return getattr(twin, "value", None)
        if kind is cst.Assign and via is not None and below is via.target:
            targets = twin.targets
            number = next(i for i, target in enumerate(above.targets) if target is via)
            return targets[number] if number < len(targets) else None
        if kind in (cst.AugAssign, cst.AnnAssign) and below is above.target:
            return twin.target
        return None
    if kind is cst.Call:
        if below is above.func:
            return twin.func
        if via is None or below is not via.value:
            return None
        keyword = via.keyword is not None or via.star == "**"
        same = [arg for arg in above.args if (arg.keyword is not None or arg.star == "**")
                == keyword]
        number = next(i for i, arg in enumerate(same) if arg is via)
        found = twin.keywords if keyword else twin.args
        if number >= len(found):
            return None
        if keyword:
            return found[number].value
        return found[number].value if via.star == "*" else found[number]
    if kind is cst.BinaryOperation:
        return twin.left if below is above.left else twin.right
    if kind is cst.UnaryOperation:
        return twin.operand
    if kind is cst.IfExp:
        return (twin.test if below is above.test else twin.body if below is above.body
                else twin.orelse)
    if kind is cst.Comparison:
        if below is above.left:
            return twin.left
        if via is None:
            return None
        number = next(i for i, target in enumerate(above.comparisons) if target is via)
        return twin.comparators[number] if number < len(twin.comparators) else None
    if kind in (cst.List, cst.Tuple) and isinstance(via, cst.Element):
        number = next(i for i, element in enumerate(above.elements) if element is via)
        return twin.elts[number] if number < len(twin.elts) else None
    return None


def statements(module: cst.Module) -> List[cst.CSTNode]:
    """libcst's statements as Python's tree has them (each small statement of a line on its
    own, an ``elif`` as an ``if`` in the ``else``), in source order."""
    found: List[cst.CSTNode] = []
    stack: List[Any] = list(reversed(module.body))
    while stack:
        statement = stack.pop()
        kind = statement.__class__  # exact classes: isinstance goes through the ABC machinery
        if kind is cst.SimpleStatementLine:
            found.extend(statement.body)
            continue
        found.append(statement)
        if is_a(statement, cst.BaseSmallStatement):  # of a one-line suite
            continue
        if kind is cst.Match:
            suites = [case.body for case in statement.cases]
        else:
            suites = [statement.body, *(handler.body for handler in
                                        getattr(statement, "handlers", ()))]
        inner: List[Any] = [child for suite in suites for child in suite.body]
        orelse = getattr(statement, "orelse", None)
        if orelse.__class__ is cst.If:
            inner.append(orelse)
        elif orelse is not None:
            inner.extend(orelse.body.body)
        final = getattr(statement, "finalbody", None)
        if final is not None:
            inner.extend(final.body.body)
        stack.extend(reversed(inner))
    return found


def python_statements(tree: ast.Module) -> List[ast.stmt]:
    """Python's statements in source order."""
    found: List[ast.stmt] = []
    stack: List[ast.stmt] = list(reversed(tree.body))
    while stack:
        statement = stack.pop()
        found.append(statement)
        inner: List[ast.stmt] = list(getattr(statement, "body", ()))
        for handler in getattr(statement, "handlers", ()):
            inner.extend(handler.body)
        inner.extend(getattr(statement, "orelse", ()))
        inner.extend(getattr(statement, "finalbody", ()))
        for case in getattr(statement, "cases", ()):
            inner.extend(case.body)
        stack.extend(reversed(inner))
    return found
