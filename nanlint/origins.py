"""Where a suspect's operand gets its value: the assignments `nanlint suspects` shows with it.

A division by ``den`` is often fixed where ``den`` is computed (an epsilon added to a
count, a floor under a variance), a line or a screen above the division. So the hunt names,
with each suspect, the assignments of the names its operand reads: in the same function,
the last one above the suspect (or the module's, for a name the function neither binds nor
takes), and for an assignment that rebinds the name from itself (``v = tf.reshape(v, s)``,
``count += 1``) the one before it too; for a parameter, its default (``eps=1e-20``: the
value wherever a caller leaves it out). An attribute of ``self`` that the method does not
set before the suspect is set by the class's other methods (``self.std = np.std(x, 0)`` in
``fit``, ``x / self.std`` in ``transform``): their assignments of it. The lines come from
Python's tree of the source.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

import libcst as cst

from nanlint.analysis.tree import children

LIMIT = 3  # origins shown per suspect
_ASSIGNED = re.compile(r"(?<![=!<>])=(?!=)")
CHAIN = 2  # earlier assignments followed through a name rebound from itself

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass
class _Assignment:
    line: int
    end_line: int
    targets: Set[str]
    augmented: bool

    def reads(self, name: str, lines: Sequence[str]) -> bool:
        """Whether the assigned value names ``name`` (read from its text: a word not after
        a dot), as ``v = tf.reshape(v, s)`` and ``count += 1`` do."""
        if self.augmented:
            return True
        text = " ".join(lines[self.line - 1:self.end_line])
        value = _ASSIGNED.split(text, 1)[-1]  # what follows the first `=` (or `: T =`)
        return re.search(r"(?<![\w.])" + re.escape(name) + r"\b", value) is not None


@dataclass
class _Unit:
    """A function (or the module, or a class): its lines, parameters and assignments in line
    order; a method's class, whose methods' assignments of ``self.x`` it may read."""

    start: int
    end: int
    parameters: Set[str] = field(default_factory=set)
    assignments: List[_Assignment] = field(default_factory=list)
    owner: Optional["_Unit"] = None


class Origins:
    """The assignments of a module, by function, read once from Python's tree (its
    statements only: no expression is walked but an assignment's targets)."""

    def __init__(self, tree: ast.Module, lines: Sequence[str]) -> None:
        self.lines = lines
        self.module = _Unit(1, 1 << 30)
        self._at: Dict[int, _Unit] = {}  # line -> the innermost function holding it
        self._collect(tree.body, self.module)

    def of(self, names: Sequence[str], line: int, end_line: int
           ) -> List[Tuple[str, int, int]]:
        """``(name, line, end_line)`` of the assignments that give ``names`` their value
        at ``line``, nearest first, at most LIMIT; none on the suspect's own lines."""
        unit = self._at.get(line, self.module)
        found: List[Tuple[str, int, int]] = []
        for name in dict.fromkeys(names):
            home = unit
            if name.startswith("self."):
                if _last_before(unit, name, line) is None:
                    if unit.owner is not None:  # set by the class's methods
                        found.extend((name, a.line, a.end_line) for a in
                                     unit.owner.assignments if name in a.targets and not (
                                         a.line <= end_line and a.end_line >= line))
                    continue
            elif name not in unit.parameters and not any(
                    name in a.targets for a in unit.assignments):
                home = self.module  # a module-level constant, read in a function
            before = line
            for _ in range(1 + CHAIN):
                assignment = _last_before(home, name, before)
                if assignment is None:
                    break
                if not (assignment.line <= end_line and assignment.end_line >= line):
                    found.append((name, assignment.line, assignment.end_line))
                if not assignment.reads(name, self.lines):
                    break
                before = assignment.line
        # above the suspect nearest first, then a method's below it
        found.sort(key=lambda item: (item[1] > line, abs(line - item[1]), item[0]))
        return list(dict.fromkeys(found))[:LIMIT]

    def _collect(self, body: List[ast.stmt], unit: _Unit,
                 cls: Optional[_Unit] = None) -> None:
        """The assignments of ``body`` (and of the blocks inside it) into ``unit``; a
        function inside it is a unit of its own, whose lines it claims. A method's
        assignments of ``self.x`` also go to its class (``cls``)."""
        for node in _statements(body):
            kind = node.__class__
            if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                inner = _Unit(node.lineno, node.end_lineno or node.lineno,
                              {a.arg for a in _arguments(node.args)}, owner=cls)
                # A parameter's default sets its value wherever a caller leaves it out.
                inner.assignments.extend(
                    _Assignment(default.lineno, default.end_lineno or default.lineno,
                                {arg.arg}, False) for arg, default in _defaults(node.args))
                for number in range(inner.start, inner.end + 1):
                    self._at[number] = inner  # outer first: an inner function overwrites
                self._collect(node.body, inner)
                if cls is not None:
                    cls.assignments.extend(a for a in inner.assignments if any(
                        target.startswith("self.") for target in a.targets))
                continue
            if kind is ast.ClassDef:
                owner = _Unit(node.lineno, node.lineno)
                self._collect(node.body, owner, owner)  # methods only
                owner.assignments.sort(key=lambda a: a.line)
                continue
            if kind is ast.Assign:
                targets = node.targets
            elif (kind is ast.AnnAssign or kind is ast.AugAssign) and node.value is not None:
                targets = [node.target]
            else:
                continue
            names = {n.id for target in targets for n in ast.walk(target)
                     if n.__class__ is ast.Name and n.id != "self"}
            names.update(f"self.{n.attr}" for target in targets for n in ast.walk(target)
                         if n.__class__ is ast.Attribute and n.value.__class__ is ast.Name
                         and n.value.id == "self")
            if names:
                unit.assignments.append(_Assignment(
                    node.lineno, node.end_lineno or node.lineno, names,
                    kind is ast.AugAssign))
        unit.assignments.sort(key=lambda a: a.line)


def _statements(body: List[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a block and of the blocks inside it; a definition is yielded, not
    entered."""
    for node in body:
        yield node
        if isinstance(node, _SCOPES):
            continue
        for name in ("body", "orelse", "finalbody"):
            yield from _statements(getattr(node, name, None) or [])
        for handler in getattr(node, "handlers", None) or []:
            yield from _statements(handler.body)
        for case in getattr(node, "cases", None) or []:
            yield from _statements(case.body)


def _arguments(args: ast.arguments) -> Iterator[ast.arg]:
    yield from args.posonlyargs
    yield from args.args
    yield from args.kwonlyargs
    if args.vararg is not None:
        yield args.vararg
    if args.kwarg is not None:
        yield args.kwarg


def _defaults(args: ast.arguments) -> Iterator[Tuple[ast.arg, ast.expr]]:
    """The parameters that have a default, each with it."""
    positional = [*args.posonlyargs, *args.args]
    yield from zip(positional[len(positional) - len(args.defaults):], args.defaults)
    yield from ((arg, default) for arg, default in zip(args.kwonlyargs, args.kw_defaults)
                if default is not None)


def _last_before(unit: _Unit, name: str, line: int) -> Optional[_Assignment]:
    last = None
    for assignment in unit.assignments:
        if assignment.line >= line:
            break
        if name in assignment.targets:
            last = assignment
    return last


def names_read(expr: Optional[cst.CSTNode]) -> List[str]:
    """The plain names an expression reads, in order: not the attribute names of a dotted
    name (``tf.math.log`` reads ``tf``), nor keyword names, nor a called function's."""
    if expr is None:
        return []
    found: Dict[str, None] = {}
    stack = [expr]
    while stack:
        node = stack.pop()
        kind = node.__class__
        if kind is cst.Name:
            found[node.value] = None
            continue
        if kind is cst.Attribute:
            if node.value.__class__ is cst.Name and node.value.value == "self":
                found[f"self.{node.attr.value}"] = None  # set by the class's methods
                continue
            stack.append(node.value)
            continue
        if kind is cst.Call:
            stack.extend(arg.value for arg in reversed(node.args))
            continue
        if kind is cst.Lambda:
            continue
        stack.extend(reversed(children(node)))
    return list(found)
