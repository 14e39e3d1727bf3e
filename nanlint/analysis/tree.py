"""Walking libcst trees cheaply: the child nodes that hold code, and read-only visitors.

The bottom of the package (it imports nothing of nanlint). libcst's own ``node.visit(...)``
rebuilds every node it passes (validation, ``dataclasses.replace``) and costs several times a
plain walk; the engine's traversal, the analysis' indexes and the rules' searches all use
these helpers instead. Whitespace, brackets, commas and operator tokens are skipped: nothing
in them is code.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any, Callable, Dict, List, Optional, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState

_SKIPPED_FIELDS = frozenset({
    "lpar", "rpar", "comma", "semicolon", "leading_lines", "lines_after_decorators", "header",
    "footer", "newline", "equal", "colon", "dot", "star", "arrow", "asynchronous", "operator",
    "trailing_whitespace", "indent", "lbracket", "rbracket", "lbrace", "rbrace", "comment",
})
FIELDS: Dict[type, Tuple[str, ...]] = {}  # class -> its ``child_fields``, once known
# class -> whether it is a CSTNode: ``isinstance`` against libcst's abstract base classes
# goes through the ABC machinery, and the walks ask it for every field of every node.
IS_NODE: Dict[type, bool] = {}


_SUBCLASS: Dict[Tuple[type, Any], bool] = {}


def is_a(node: object, classes: Any) -> bool:
    """``isinstance(node, classes)``, remembered by class: libcst's classes are abstract base
    classes, whose ``isinstance`` is several times slower."""
    key = (node.__class__, classes)
    known = _SUBCLASS.get(key)
    if known is None:
        known = _SUBCLASS[key] = issubclass(node.__class__, classes)
    return known


def child_fields(node_type: type) -> Tuple[str, ...]:
    """The fields of a node class that can hold code (not a name's or a literal's text:
    half the nodes of a module are such leaves, and have none)."""
    fields = FIELDS.get(node_type)
    if fields is None:
        fields = FIELDS[node_type] = tuple(
            f.name for f in dataclasses.fields(node_type)
            if f.name not in _SKIPPED_FIELDS and "whitespace" not in f.name
            and f.type is not str)
    return fields


# class -> whether it is a leaf, a node class with no child that holds code (names, numbers,
# strings, `pass`): walks that only go down need not visit one.
LEAF: Dict[type, bool] = {}


def is_leaf(node_type: type) -> bool:
    """Whether nodes of this class have no child that holds code (remembered by class)."""
    known = LEAF.get(node_type)
    if known is None:
        known = LEAF[node_type] = not child_fields(node_type)
    return known


def is_node(value: object) -> bool:
    kind = value.__class__
    known = IS_NODE.get(kind)
    if known is None:
        known = IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return known


def children(node: cst.CSTNode) -> List[cst.CSTNode]:
    """The child nodes that hold code, in source order."""
    found: List[cst.CSTNode] = []
    fields = FIELDS.get(node.__class__)
    if fields is None:
        fields = child_fields(node.__class__)
    known = IS_NODE
    for name in fields:
        child = getattr(node, name)
        kind = child.__class__
        if kind is tuple or kind is list:
            found.extend(child)  # libcst's sequence fields hold nodes only
        else:
            flag = known.get(kind)
            if flag or (flag is None and is_node(child)):
                found.append(child)
    return found


# A comparison's operator, written or called: `d > x`, `tf.greater(d, x)`.
_COMPARED = {cst.GreaterThan: ">", cst.GreaterThanEqual: ">=", cst.LessThan: "<",
             cst.LessThanEqual: "<=", cst.Equal: "==", cst.NotEqual: "!="}
_COMPARING_CALLS = {"greater": ">", "greater_equal": ">=", "less": "<", "less_equal": "<=",
                    "equal": "==", "not_equal": "!="}


# A comparison read the other way round (`0 < x` is `x > 0`), and its negation (the other
# branch of a select holds where the condition does not).
MIRRORED = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "==", "!=": "!="}
NEGATED = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "==": "!=", "!=": "=="}


def comparison(condition: Optional[cst.BaseExpression]
               ) -> Optional[Tuple[cst.BaseExpression, str, cst.BaseExpression]]:
    """``(left, operator, right)`` of ``a > b`` or ``tf.greater(a, b)``, else None."""
    if isinstance(condition, cst.Comparison) and len(condition.comparisons) == 1:
        target = condition.comparisons[0]
        operator = _COMPARED.get(target.operator.__class__)
        return (condition.left, operator, target.comparator) if operator else None
    if isinstance(condition, cst.Call):
        operator = _COMPARING_CALLS.get(last_name(condition.func) or "")
        arguments = [arg.value for arg in condition.args if not arg.star]
        if operator and len(arguments) == 2:
            return arguments[0], operator, arguments[1]
    return None


# A literal's text: an argument of this kind makes a call a message, not a value.
TEXTS = (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)


def names_in(node: cst.CSTNode) -> List[str]:
    """The plain names under ``node``, in source order: not attribute names (``b`` of
    ``a.b``) nor keywords (``x`` of ``f(x=1)``); a lambda's or comprehension's own names
    included."""
    found: List[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        kind = item.__class__
        if kind is cst.Name:
            found.append(item.value)
        elif kind is cst.Attribute or kind is cst.Arg:
            stack.append(item.value)
        else:
            below = children(item)
            below.reverse()
            stack.extend(below)
    return found


def descendants(node: cst.CSTNode) -> List[cst.CSTNode]:
    """``node`` and every node below it."""
    found, stack = [], [node]
    while stack:
        item = stack.pop()
        found.append(item)
        stack.extend(children(item))
    return found


def terms(expr: cst.BaseExpression) -> List[cst.BaseExpression]:
    """The terms of a sum ``a + b + c``; ``[expr]`` for anything else."""
    if expr.__class__ is cst.BinaryOperation and expr.operator.__class__ is cst.Add:
        return terms(expr.left) + terms(expr.right)
    return [expr]


def last_name(func: cst.BaseExpression) -> str:
    """``h`` for ``f.g.h`` and for ``h``; "" for anything else (a call's callee)."""
    kind = func.__class__  # exact classes: isinstance goes through the ABC machinery
    if kind is cst.Attribute:
        return func.attr.value
    return func.value if kind is cst.Name else ""


# Functions whose value is 0 exactly where their argument is: a test of `abs(d)` against a
# bound tests `d`'s zero as a test of `d` does.
MAGNITUDES = frozenset({"abs", "absolute", "fabs", "square"})


def magnitude_of(expr: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """``x`` where ``expr`` is a magnitude of it, 0 exactly where ``x`` is: ``abs(x)``,
    ``x.abs()``, ``square(x)``, ``x ** 2``, ``x * x``; else None."""
    kind = expr.__class__
    if kind is cst.Call:
        func = expr.func
        if last_name(func) not in MAGNITUDES:
            return None
        arguments = [arg.value for arg in expr.args if arg.keyword is None and not arg.star]
        if len(arguments) == 1:
            return arguments[0]
        return func.value if not expr.args and func.__class__ is cst.Attribute else None
    if kind is cst.BinaryOperation:
        operator = expr.operator.__class__
        if operator is cst.Multiply and expr.left.deep_equals(expr.right):
            return expr.left
        if operator is cst.Power and expr.right.__class__ in (cst.Integer, cst.Float) and (
                float(expr.right.evaluated_value) == 2.0):
            return expr.left
    return None


def literal(expr: cst.BaseExpression) -> Optional[float]:
    """The number a literal (`2`, `-1e9`, `+0.5`) writes, else None."""
    sign = 1.0
    if expr.__class__ is cst.UnaryOperation and expr.operator.__class__ in (cst.Minus,
                                                                              cst.Plus):
        sign = -1.0 if expr.operator.__class__ is cst.Minus else 1.0
        expr = expr.expression
    if expr.__class__ is not cst.Float and expr.__class__ is not cst.Integer:
        return None
    try:
        return sign * float(expr.evaluated_value)
    except (OverflowError, ValueError):
        return None


def grows_with(expr: cst.BaseExpression, same: Callable[[cst.BaseExpression], bool]
               ) -> Optional[bool]:
    """Whether ``expr`` grows (True) or falls (False) with the value ``same`` recognizes,
    written as that value scaled, shifted or negated (`x`, `x / a`, `-2.0 * (x - 1)`: a
    scale that is not a negative literal is taken as positive); None for any other form."""
    if same(expr):
        return True
    kind = expr.__class__
    if kind is cst.UnaryOperation and expr.operator.__class__ is cst.Minus:
        inner = grows_with(expr.expression, same)
        return None if inner is None else not inner
    if kind is not cst.BinaryOperation:
        return None
    operator = expr.operator.__class__
    left = grows_with(expr.left, same)
    right = grows_with(expr.right, same) if operator is not cst.Divide else None
    if (left is None) == (right is None):
        return None  # the value on neither side, or on both
    if operator in (cst.Add, cst.Subtract):
        return left if left is not None else (right if operator is cst.Add else not right)
    if operator in (cst.Multiply, cst.Divide):
        sign = literal(expr.right if left is not None else expr.left)
        grows = left if left is not None else right
        return not grows if sign is not None and sign < 0 else grows
    return None


# Names an axis argument goes by: `x.std(axis)`, `x.sum(dim)`, `x.max(reduce_axis)`.
_AXIS_NAMES = ("axis", "axes", "dim", "dims")


def _axis_like(expr: cst.BaseExpression) -> bool:
    """An axis argument: an integer, a negative one, a tuple or list of them, or a name
    that says it is one."""
    kind = expr.__class__
    if kind is cst.Integer:
        return True
    if kind is cst.UnaryOperation:
        return expr.expression.__class__ is cst.Integer
    if kind is cst.Tuple or kind is cst.List:
        return bool(expr.elements) and all(_axis_like(e.value) for e in expr.elements)
    name = last_name(expr)
    return name in _AXIS_NAMES or name.endswith(tuple(f"_{a}" for a in _AXIS_NAMES))


def array_receiver(call: cst.Call, arity: int = 0) -> Optional[cst.BaseExpression]:
    """The array `x` whose method the call ``x.name(...)`` is, or None: a method of `self`
    or `cls` is an object's (a layer's), and one of a (dotted) name given more positional
    arguments than the method takes besides axes (``arity``: 1 for `x.pow(p)`, `x.div(y)`),
    the first not an axis, is a module's function of its arguments (`backend.log(x)`,
    `F.std(x)`, `B.pow(x, 2)`), wherever the resolver cannot see the module. A method of
    any other expression is a value's."""
    func = call.func
    if func.__class__ is not cst.Attribute:
        return None
    receiver = dotted_code(func.value)
    if receiver in ("self", "cls"):
        return None
    if receiver is None:
        return func.value  # `(x ** 2).mean(axes)`, `f(x).log()`: a value, no module
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    if len(positional) > arity and not _axis_like(positional[0]):
        return None
    return func.value


def visit(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """What ``node.visit(visitor)`` does for a visitor that only reads: its ``visit_<Class>``
    methods are called on ``node`` and every node under it that holds code, in source order,
    and one that returns False skips the node's children. No ``leave_`` calls, and no tree is
    rebuilt."""
    methods: Dict[type, Optional[Callable[[cst.CSTNode], Optional[bool]]]] = {}
    owner = visitor.__class__
    stack = [node]
    while stack:
        item = stack.pop()
        kind = item.__class__
        try:
            method = methods[kind]
        except KeyError:
            name = "visit_" + kind.__name__
            own = getattr(owner, name, None)
            method = methods[kind] = (getattr(visitor, name) if own is not None
                                      and own is not getattr(cst.CSTVisitor, name, None)
                                      else None)
        if method is not None and method(item) is False:
            continue
        below = children(item)
        below.reverse()
        stack.extend(below)


# ``record_syntactic_position`` of a code generation that records none: one shared no-op.
NO_POSITION = contextlib.nullcontext()


class _Writer(CodegenState):
    """Code generation alone. libcst's base state makes a generator context manager at
    every node to record positions nobody asked for: half the time of a short node's code."""

    __slots__ = ()

    def record_syntactic_position(self, node: cst.CSTNode, *,
                                  start_node: Optional[cst.CSTNode] = None,
                                  end_node: Optional[cst.CSTNode] = None) -> Any:
        return NO_POSITION


def generated(node: cst.CSTNode, module: cst.Module, indent: str = "") -> str:
    """``module.code_for_node(node)``; ``indent`` is the block's indentation, which
    ``code_for_node`` leaves out of continuation lines."""
    state = _Writer(default_indent=module.default_indent,
                    default_newline=module.default_newline,
                    indent_tokens=[indent] if indent else [])
    node._codegen(state)
    return "".join(state.tokens)


def dotted_code(node: cst.CSTNode) -> Optional[str]:
    """The code of a plain name or dotted name (``tf.math.log``) without a code generation,
    which costs more than the rest of a short message; None for anything else."""
    parts = []
    while node.__class__ is cst.Attribute and not node.lpar and _tight(node.dot):
        parts.append(node.attr.value)
        node = node.value
    if node.__class__ is not cst.Name or node.lpar:
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def _tight(dot: cst.Dot) -> bool:
    """A dot with no space, comment or line break around it."""
    before, after = dot.whitespace_before, dot.whitespace_after
    return (before.__class__ is cst.SimpleWhitespace and not before.value
            and after.__class__ is cst.SimpleWhitespace and not after.value)
