"""Branches that test a denominator first: a division only one of them runs is guarded.

``n / d if d > 0 else 0`` (Python runs only the branch it picks) and ``tf.cond(d > 0,
lambda: n / d, lambda: 0.0)`` (a graph runs only the branch its predicate picks, also a
branch function defined beside the call) compute the division only where the test passed:
neither the value nor a gradient sees it. ``tf.where`` is not such a branch: it computes
both sides, and the gradient of the dropped one is still NaN (NAN204).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, FrozenSet, Iterator, List, Optional

import libcst as cst

from nanlint.analysis.tree import (MIRRORED, comparison, grows_with, last_name, literal,
                                   magnitude_of, names_in)

if TYPE_CHECKING:
    from nanlint.rule import Rule


def in_tested_branch(rule: "Rule", node: cst.CSTNode, denominator: cst.BaseExpression,
                     strict: bool = False) -> bool:
    """Whether ``node`` (a division by ``denominator``) is in a branch of an ``if``, a
    conditional expression or a ``cond`` whose test compares the denominator, or the value
    it is a non-zero multiple or a cast of (``n / (d * 1000) if d > 0 else 0``). ``strict``:
    see ``safe_branches``."""
    return any(_in_if_expression(rule, node, shown, strict)
               or _in_if_statement(rule, node, shown, strict)
               or _in_cond(rule, node, shown, strict)
               for shown in denominator_forms(rule, denominator))


def denominator_forms(rule: "Rule", denominator: cst.BaseExpression, depth: int = 0
                      ) -> Iterator[str]:
    """The denominator as a test (or a counter's increment) may write it: itself, the value
    it casts, or the factor of a product (or quotient) by a non-zero constant; for a name,
    also what it was assigned (`d = cast(self.d)` under `if self.d > 0:`), a few names deep
    (`a = b` where `b = a`, or `x = x`, leads back)."""
    yield rule.source(denominator)
    if isinstance(denominator, cst.Name) and depth < 4:
        assigned = rule.analysis.definition(denominator)
        if assigned is not None:
            yield from denominator_forms(rule, assigned, depth + 1)
    expr = denominator
    while True:
        if isinstance(expr, cst.Call) and expr.args and last_name(expr.func) in (
                "cast", "to_float", "to_double", "float"):
            expr = expr.args[0].value
        elif isinstance(expr, cst.BinaryOperation) and isinstance(
                expr.operator, (cst.Multiply, cst.Divide)) and _nonzero(rule, expr.right):
            expr = expr.left
        elif isinstance(expr, cst.BinaryOperation) and isinstance(
                expr.operator, cst.Multiply) and _nonzero(rule, expr.left):
            expr = expr.right
        elif _zero_where_operand_is(rule, expr):
            expr = expr.args[0].value if isinstance(expr, cst.Call) else expr.left
        else:
            return
        yield rule.source(expr)


# Ops that are 0 exactly where their operand is (`sqrt(mse)` after `if mse == 0: return`).
_SAME_ZEROS = frozenset({"sqrt", "square", "abs"})


def _zero_where_operand_is(rule: "Rule", expr: cst.BaseExpression) -> bool:
    """A root, a square or an absolute value of one operand, or a positive power of it."""
    if isinstance(expr, cst.Call):
        op = rule.analysis.op_of(expr)
        return op is not None and op.name in _SAME_ZEROS and len(expr.args) >= 1
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Power):
        const = rule.analysis.value(expr.right).const
        return const is not None and const > 0
    return False


def _nonzero(rule: "Rule", expr: cst.BaseExpression) -> bool:
    const = rule.analysis.value(expr).const
    return const is not None and const != 0


def _in_if_statement(rule: "Rule", node: cst.CSTNode, shown: str, strict: bool) -> bool:
    """``if d > 0: x = n / d`` (or the ``else`` of ``if d == 0:``): in the block that runs
    only where the test has excluded a zero denominator."""
    analysis = rule.analysis
    child, parent = node, analysis.parent(node)
    # (A lambda written in the block is made only when the block runs: `tf.cond(...,
    # lambda: n / d, ...)` under `if d > 0:`.)
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.ClassDef)):
        if isinstance(parent, cst.If) and child is not parent.test:
            if child is parent.body or child is parent.orelse:
                if (child is parent.body) in safe_branches(rule, parent.test, shown, None, 0,
                                                           strict):
                    return True
        child, parent = parent, analysis.parent(parent)
    return False


def tests(rule: "Rule", condition: cst.BaseExpression, shown: str, place, depth: int) -> bool:
    """Whether ``condition`` compares the denominator (written ``shown``): directly, in a
    part of it (`cast(d > 0)`, `(d > 0) & m`), or in what one of its names was assigned
    (`ok = tf.not_equal(d, 0)`, followed through three assignments)."""
    for side in compared(condition):
        if rule.source(side) == shown:
            return True
        if isinstance(side, (cst.Call, cst.BinaryOperation, cst.Comparison)) and (
                tests(rule, side, shown, place, depth)):
            return True
    if depth >= 3:
        return False
    for name in names_in(condition):
        found = rule.analysis.binding(name, place)
        if found is not None and found[0].kind == "assign" and found[0].value is not None \
                and tests(rule, found[0].value, shown, found[1], depth + 1):
            return True
    return False


def compared(condition: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The operands a condition compares: `d > 0`, `tf.greater(d, 0)`, `(d > 0) & m`."""
    if isinstance(condition, cst.Comparison):
        yield condition.left
        for target in condition.comparisons:
            yield target.comparator
    elif isinstance(condition, cst.Call):
        for arg in condition.args:
            yield arg.value
    elif isinstance(condition, cst.BinaryOperation) and isinstance(
            condition.operator, (cst.BitAnd, cst.BitOr)) or isinstance(
                condition, cst.BooleanOperation):
        yield from compared(condition.left)
        yield from compared(condition.right)


def _in_if_expression(rule: "Rule", node: cst.CSTNode, shown: str, strict: bool) -> bool:
    """``np.nan if v == 0 else 1 - r / v``, ``n / d if d > 0 else 0``: in the branch that
    runs only where the test has excluded a zero denominator (written ``shown``)."""
    analysis = rule.analysis
    child, parent = node, analysis.parent(node)
    while parent is not None and not isinstance(parent, cst.BaseSmallStatement):
        if isinstance(parent, cst.IfExp) and child is not parent.test and (
                (child is parent.body) in safe_branches(rule, parent.test, shown, None, 0,
                                                        strict)):
            return True
        child, parent = parent, analysis.parent(parent)
    return False


def _in_cond(rule: "Rule", node: cst.CSTNode, shown: str, strict: bool) -> bool:
    """``tf.cond(d > 0, lambda: n / d, ...)``, or ``def true_fn(): return n / d`` passed by
    name to a ``cond`` written in the same block as the ``def``."""
    analysis = rule.analysis
    branch = analysis.parent(node)
    while branch is not None and not isinstance(branch, (cst.Lambda, cst.FunctionDef)):
        branch = analysis.parent(branch)
    if branch is None:
        return False
    block = analysis.parent(branch)
    for call in analysis.calls_of("cond"):
        arguments = [arg for arg in call.args if not arg.star]
        if len(arguments) < 2:
            continue
        safe = safe_branches(rule, arguments[0].value, shown, None, 0, strict)
        for taken, arg in zip((True, False), arguments[1:3]):
            value = arg.value
            if taken in safe and (value is branch or (
                    isinstance(branch, cst.FunctionDef) and isinstance(value, cst.Name)
                    and value.value == branch.name.value and _written_in(rule, call, block))):
                return True
    return False


_MIRRORED = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "==", "!=": "!="}


def safe_branches(rule: "Rule", condition: cst.BaseExpression, shown: str, place,
                  depth: int, strict: bool = False) -> FrozenSet[bool]:
    """The branches of a test (True: where it holds, False: where it fails) in which the
    denominator (written ``shown``) cannot be 0: ``d > 0``, ``d != 0`` and ``d`` hold only
    for a non-zero ``d``; ``d == 0`` and ``d <= 0`` fail only for one; ``abs(d)`` and
    ``d ** 2`` are tested as ``d`` is. ``d > eps`` counts
    whatever ``eps`` is (a threshold); ``x > d`` does not (``d`` may be 0 below ``x``).
    Through ``not``, ``and``/``&``, ``or``/``|``, a cast, and names assigned the test
    (three assignments deep).

    A bound the file does not show is taken for a threshold, at least 0: past it (``d > t``)
    ``d`` is not 0. At or above it (``d >= t``, the ``else`` of ``t > d``) ``d`` is not 0
    only if the bound is above 0, which a threshold of 0 or a counter that starts at 0 is
    not; ``strict`` leaves those branches out."""
    kind = condition.__class__
    if kind is cst.UnaryOperation and isinstance(condition.operator, cst.Not):
        return frozenset(not side for side in safe_branches(
            rule, condition.expression, shown, place, depth, strict))
    if kind is cst.BooleanOperation or (kind is cst.BinaryOperation and isinstance(
            condition.operator, (cst.BitAnd, cst.BitOr))):
        left = safe_branches(rule, condition.left, shown, place, depth, strict)
        right = safe_branches(rule, condition.right, shown, place, depth, strict)
        conjunction = isinstance(condition.operator, (cst.And, cst.BitAnd))
        # a and b holds only where both do; it fails where either fails
        holds = (True in left or True in right) if conjunction else (
            True in left and True in right)
        fails = (False in left and False in right) if conjunction else (
            False in left or False in right)
        return frozenset(side for side, ok in ((True, holds), (False, fails)) if ok)
    if rule.source(condition) == shown:
        return frozenset({True})  # `x / d if d else 0`: a truthy d is not 0
    compared = comparison(condition)
    if compared is not None:
        left, operator, right = compared
        if _tested(rule, right, shown):
            left, operator, right = right, _MIRRORED[operator], left
        if _tested(rule, left, shown):
            return _sides(rule, operator, right, strict)
    if kind is cst.Call and condition.args and last_name(condition.func) == "cast":
        return safe_branches(rule, condition.args[0].value, shown, place, depth, strict)
    if kind is cst.Name and depth < 3:
        found = rule.analysis.binding(condition.value, place)
        if found is not None and found[0].kind == "assign" and found[0].value is not None:
            return safe_branches(rule, found[0].value, shown, found[1], depth + 1, strict)
    return frozenset()


def _tested(rule: "Rule", side: cst.BaseExpression, shown: str) -> bool:
    """Whether a side of a test is the denominator, or a magnitude of it (`abs(d) > eps`):
    0 exactly where the denominator is, so the test's branches are safe alike."""
    inner = magnitude_of(side)
    return rule.source(side) == shown or (inner is not None and rule.source(inner) == shown)


def _sides(rule: "Rule", operator: str, bound: cst.BaseExpression, strict: bool
           ) -> FrozenSet[bool]:
    """The safe branches of ``d OPERATOR bound``."""
    number = rule.analysis.number(bound)
    value = number.value if number is not None else None  # None: a threshold
    positive = (value is None and not strict) or (value is not None and value > 0)
    if operator == ">":
        return frozenset({True}) if value is None or value >= 0 else frozenset()
    if operator == ">=":
        return frozenset({True}) if positive else frozenset()
    if operator == "<":
        return frozenset({False}) if positive else frozenset({True}) if (
            value is not None and value <= 0) else frozenset()
    if operator == "<=":
        return frozenset({False}) if value is None or value >= 0 else frozenset({True})
    if operator == "==":
        return frozenset({False}) if value == 0 else frozenset({True}) if (
            value is not None) else frozenset()
    if operator == "!=":
        return frozenset({True}) if value == 0 else frozenset()
    return frozenset()


def _written_in(rule: "Rule", call: cst.Call, block: Optional[cst.CSTNode]) -> bool:
    """Whether ``call`` is written in ``block`` itself, not in a function inside it (so a
    name there is the function the block defines)."""
    parent = rule.analysis.parent(call)
    while parent is not None and parent is not block:
        if isinstance(parent, (cst.FunctionDef, cst.Lambda)):
            return False
        parent = rule.analysis.parent(parent)
    return parent is not None


# Casts a mask goes through (`cast(x > t, float32)`): the same test, as numbers.
_MASK_CASTS = frozenset({"cast", "to_float", "astype", "float"})


def large_values_pass(rule: "Rule", cond: cst.BaseExpression, operand: cst.BaseExpression,
                      hops: int = 2, strict: bool = True) -> Optional[bool]:
    """Whether a select's test holds where ``operand`` is large (`x > 20`,
    `tf.greater_equal(x, 20.)`, `not x <= 20`, a mask `m = cast(x > t)`: True) or fails
    there (`x < -9`, `1 - m`: False); None where it does not order a value the operand
    grows or falls with. The operand may be the tested value scaled, shifted or negated
    (`x / a`, `-2 * x`), either through a name assigned it (one assignment); the test may
    be a name assigned it (``hops`` assignments deep). ``strict`` (the rules): the bound is
    a number the analysis knows to be finite; the hunt takes any bound for a threshold."""
    kind = cond.__class__
    if kind is cst.UnaryOperation and isinstance(cond.operator, cst.Not):
        inner = large_values_pass(rule, cond.expression, operand, hops, strict)
        return None if inner is None else not inner
    if kind is cst.Name:
        definition = rule.analysis.definition(cond) if hops > 0 else None
        return None if definition is None else large_values_pass(
            rule, definition, operand, hops - 1, strict)
    if kind is cst.BinaryOperation and cond.operator.__class__ is cst.Subtract and (
            literal(cond.left) == 1):  # `1 - mask`
        inner = large_values_pass(rule, cond.right, operand, hops, strict)
        return None if inner is None else not inner
    if kind is cst.Call and last_name(cond.func) in _MASK_CASTS and cond.args:
        return large_values_pass(rule, cond.args[0].value, operand, hops, strict)
    compared = comparison(cond)
    if compared is None or compared[1] not in (">", ">=", "<", "<="):
        return None
    left, operator, right = compared
    for side, order, bound in ((left, operator, right), (right, MIRRORED[operator], left)):
        grows = _grows_with_side(rule, operand, side)
        if grows is None:
            continue
        if strict:
            value = rule.analysis.value(bound)
            if not (value.known and value.hi < float("inf")):
                return None
        return (order in (">", ">=")) == grows
    return None


def _grows_with_side(rule: "Rule", operand: cst.BaseExpression, side: cst.BaseExpression
                     ) -> Optional[bool]:
    """Whether ``operand`` (or what its name was assigned) grows or falls with ``side`` (or
    what its name was assigned)."""
    sides = _with_definition(rule, side)
    texts = {rule.source(each) for each in sides}
    for expr in _with_definition(rule, operand):
        grows = grows_with(expr, lambda node: rule.source(node) in texts)
        if grows is not None:
            return grows
    return None


def _with_definition(rule: "Rule", expr: cst.BaseExpression) -> List[cst.BaseExpression]:
    """``expr``, the argument of a cast of it, and what a name was assigned."""
    found = [expr]
    if expr.__class__ is cst.Call and last_name(expr.func) in _MASK_CASTS and expr.args:
        found.append(expr.args[0].value)
    if found[-1].__class__ is cst.Name:
        definition = rule.analysis.definition(found[-1])
        if definition is not None:
            found.append(definition)
    return found
