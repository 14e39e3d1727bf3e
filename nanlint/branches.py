"""Branches that test a denominator first: a division only one of them runs is guarded.

``n / d if d > 0 else 0`` (Python runs only the branch it picks) and ``tf.cond(d > 0,
lambda: n / d, lambda: 0.0)`` (a graph runs only the branch its predicate picks, also a
branch function defined beside the call) compute the division only where the test passed:
neither the value nor a gradient sees it. ``tf.where`` is not such a branch: it computes
both sides, and the gradient of the dropped one is still NaN (NAN204).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

import libcst as cst

from nanlint.analysis.tree import names_in

if TYPE_CHECKING:
    from nanlint.rule import Rule


def in_tested_branch(rule: "Rule", node: cst.CSTNode, denominator: cst.BaseExpression
                     ) -> bool:
    """Whether ``node`` (a division by ``denominator``) is in a branch of a conditional
    expression or of a ``cond`` whose test compares the denominator."""
    return _in_if_expression(rule, node, denominator) or _in_cond(rule, node, denominator)


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


def _in_if_expression(rule: "Rule", node: cst.CSTNode, denominator: cst.BaseExpression
                      ) -> bool:
    """``np.nan if v == 0 else 1 - r / v``, ``n / d if d > 0 else 0``."""
    analysis = rule.analysis
    child, parent = node, analysis.parent(node)
    shown = rule.source(denominator)
    while parent is not None and not isinstance(parent, cst.BaseSmallStatement):
        if isinstance(parent, cst.IfExp) and child is not parent.test and tests(
                rule, parent.test, shown, None, 0):
            return True
        child, parent = parent, analysis.parent(parent)
    return False


def _in_cond(rule: "Rule", node: cst.CSTNode, denominator: cst.BaseExpression) -> bool:
    """``tf.cond(d > 0, lambda: n / d, ...)``, or ``def true_fn(): return n / d`` passed by
    name to a ``cond`` written in the same block as the ``def``."""
    analysis = rule.analysis
    branch = analysis.parent(node)
    while branch is not None and not isinstance(branch, (cst.Lambda, cst.FunctionDef)):
        branch = analysis.parent(branch)
    if branch is None:
        return False
    block = analysis.parent(branch)
    shown = rule.source(denominator)
    for call in analysis.calls_of("cond"):
        arguments = [arg for arg in call.args if not arg.star]
        if not arguments or not tests(rule, arguments[0].value, shown, None, 0):
            continue
        for arg in arguments[1:]:
            value = arg.value
            if value is branch or (
                    isinstance(branch, cst.FunctionDef) and isinstance(value, cst.Name)
                    and value.value == branch.name.value and _written_in(rule, call, block)):
                return True
    return False


def _written_in(rule: "Rule", call: cst.Call, block: Optional[cst.CSTNode]) -> bool:
    """Whether ``call`` is written in ``block`` itself, not in a function inside it (so a
    name there is the function the block defines)."""
    parent = rule.analysis.parent(call)
    while parent is not None and parent is not block:
        if isinstance(parent, (cst.FunctionDef, cst.Lambda)):
            return False
        parent = rule.analysis.parent(parent)
    return parent is not None
