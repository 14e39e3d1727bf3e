"""Arithmetic on values: what a sum, difference, product, quotient, power, square, root,
maximum, clip or reduction of :class:`Value`s can be, and which evidence survives it.

Pure functions of the lattice; the op model's transfer functions (``producers``) and the
evaluator call them.
"""

from __future__ import annotations

import math
from math import inf
from typing import Callable, FrozenSet, Optional, Tuple

import libcst as cst

from nanlint.analysis.lattice import (PRODUCER_TAGS, UNKNOWN, Evidence, Value, constant,
                                      cosine_evidence, difference_evidence, exp_limits,
                                      replace, stored)

# Zero evidence of a difference of equal things that float32 rounding pushes below 0 by an
# amount that grows with the terms, not with an epsilon added to it: `x + eps` keeps it.
ROUNDS_BELOW_ZERO = frozenset({"variance", "gram"})


def tiny_difference(a: Value, b: Value, node: cst.CSTNode) -> Optional[Evidence]:
    """``E[x²] − E[x]²`` (or ``sum_sq − mean·sum``), a hand-computed variance, and ``sum(a) −
    sum(b)``: 0 for a constant input or equal sums, and tiny near them — not exactly 0 only,
    so ``divide_no_nan`` does not guard them. Of tensors or arrays (an op's output, numpy's
    too: the cancellation is a fact of floating point, float64 included), not of numbers the
    analysis knows nothing of."""
    if not (b.tensor or b.origin) or not (a.tensor or a.origin):
        return None
    if "sum_of_squares" in a.tags and "sum_of_squares" not in b.tags:
        return Evidence(node, "a hand-computed variance `{src}`", "which is 0 for a constant "
                        "input and gets tiny (or, by rounding, negative) near one", "medium",
                        tiny=True, producer="variance")
    if "sum" in a.tags and "sum" in b.tags and "sum_of_squares" not in a.tags | b.tags:
        return Evidence(node, "the difference of two sums `{src}`", "which is 0 where the sums "
                        "are equal and gets tiny near that", "medium", tiny=True,
                        producer="difference_of_sums")
    return None


def gram_evidence(node: cst.CSTNode) -> Evidence:
    """``|a|² - 2<a, b> + |b|²``, squared distances expanded through a Gram matrix: 0 where
    two rows are equal (the whole diagonal of a distance matrix of a batch with itself), and
    computed in float32 the terms cancel to slightly below 0 (under TF 2.21: -1e-4 on the
    diagonal for 128 standard normal features, -1e-6 for l2-normalized ones)."""
    return Evidence(node, "the expanded squared distance `{src}`", "which is 0 where two "
                    "rows are equal (the diagonal of a batch against itself) and, by float32 "
                    "rounding, slightly negative there", "medium", tiny=True, producer="gram")


def bounded_difference(a: Value, b: Value, node: cst.CSTNode) -> Optional[Evidence]:
    """``1 - x`` where ``x`` reaches its upper bound 1 (a tanh that saturates, a cosine, a
    clip; also their squares and absolute values: ``1 - x²``, ``1 - |x|``): 0 there, and
    below 0 where a computed cosine passes 1 by rounding."""
    bound = b.bound
    if bound is None or a.const is None or b.hi != a.const or b.hi_open:
        return None
    what = _BOUNDED.get(bound.producer, "the value it subtracts")
    why = f"which is 0 where {what} reaches {a.const:g}"
    if bound.producer == "cosine":
        why += ", and below 0 where float32 rounding takes the cosine past it"
    return Evidence(node, "`{src}`", why, bound.confidence, aggregate=False, tiny=True,
                    producer="bounded_difference")


_BOUNDED = {"tanh": "a tanh (it saturates to exactly ±1 in float32 once |x| passes 7.9)",
            "cosine": "a cosine of l2-normalized vectors (1 for a vector with itself)",
            "cosine_similarity": "a cosine similarity (1 for parallel vectors)",
            "clip": "the clip (it holds its bound wherever its input passes it)"}


def union_evidence(node: cst.CSTNode) -> Evidence:
    """``area1 + area2 - overlap`` (IoU's union), the overlap a product of clamped
    differences: at least the larger area, and 0 exactly where both boxes have zero size."""
    return Evidence(node, "the union `{src}` of two areas minus their overlap", "which is 0 "
                    "where both boxes have zero size (the zero padding of a box tensor, or "
                    "a box of corners whose width rounds to 0 next to them in float32)",
                    "medium", producer="union")


def _mul_bound(a: float, b: float) -> float:
    if a == 0 or b == 0:
        return 0.0
    return a * b


def arithmetic(operator: str, a: Value, b: Value, node: cst.CSTNode) -> Value:
    value = _arithmetic_value(operator, a, b, node)
    dtype = a.dtype or b.dtype
    if dtype and value.dtype != dtype:
        value = replace(value, dtype=dtype)
    # A raw regression output scaled, shifted or offset (`tw / scale`, `delta * variance`,
    # `t * ha + ya`) is still unbounded; a shift by the maximum bounds it (see normalized).
    huge = a.huge if operator == "Divide" else (
        a.huge or b.huge if operator in ("Add", "Subtract", "Multiply") else None)
    if huge is None and operator == "Subtract" and "log_probability" in b.tags and (
            value.hi == inf):
        huge = Evidence(node, "the difference of log-probabilities `{src}`",
                        "which is unbounded above, and NaN where both are -inf: a "
                        "log-probability falls towards -inf, and reaches it, as its "
                        "probability underflows (below about 1e-38 in float32, its log is "
                        "below -87)", "medium", producer="log_ratio")
    return replace(value, huge=huge) if huge is not None else value


def _arithmetic_value(operator: str, a: Value, b: Value, node: cst.CSTNode) -> Value:
    tensor = a.tensor or b.tensor
    known = a.known and b.known
    if operator == "Add":
        return add(a, b, known, tensor, node)
    if operator == "Subtract":
        return subtract(a, b, known, tensor, node)
    if operator == "Multiply":
        return multiply(a, b, known, tensor)
    if operator == "Divide":
        return divide(a, b, known, tensor, node)
    if operator == "Power":
        return power(a, b, node)
    if operator == "MatrixMultiply":
        return inner_of_normalized(a, b, node) or Value(known=False, tensor=tensor)
    return Value(known=False, tensor=tensor)


# A value whose range is a naming convention (a loss's `y_pred` holds probabilities): no
# guarantee, so no bound that guards (see the squash transfer in ``producers``). Kept through
# scaling.
CONVENTIONAL = frozenset({"parameter"})


def negated(operand: Value) -> Value:
    """``-x``: the interval mirrored; 0 where x is, huge where x is."""
    return Value(lo=-operand.hi, hi=-operand.lo, lo_open=operand.hi_open,
                 hi_open=operand.lo_open, known=operand.known, tensor=operand.tensor,
                 const=-operand.const if operand.const is not None else None,
                 zero=operand.zero, huge=operand.huge, bound=operand.bound)


def inner_of_normalized(a: Value, b: Value, node: cst.CSTNode) -> Optional[Value]:
    """A matrix product of l2-normalized rows (``unit``) or of centroids of such rows (the
    mean of normalized rows, ``ball``: norm at most 1): in [-1, 1] by Cauchy-Schwarz. Of two
    normalized rows it is a cosine, 1 for a row with itself. None for other operands."""
    if "unit" in a.tags and "unit" in b.tags:
        return Value(lo=-1.0, hi=1.0, known=True, tensor=True,
                     tags=frozenset({"cosine", "inner"}), node=node,
                     bound=cosine_evidence(node))
    if a.tags & {"unit", "ball"} and b.tags & {"unit", "ball"}:
        return Value(lo=-1.0, hi=1.0, known=True, tensor=True, tags=frozenset({"inner"}),
                     node=node)
    return None


def add(a: Value, b: Value, known: bool, tensor: bool,
        node: Optional[cst.CSTNode] = None) -> Value:
    zero = None
    if (a.zero and b.guards is a.zero.node) or (b.zero and a.guards is b.zero.node):
        pass  # `x + mask * eps`, the mask 1 exactly where x is 0: guarded
    elif a.zero and (b.zero or b.const == 0):
        zero = a.zero
    elif b.zero and a.const == 0:
        zero = b.zero
    else:
        zero = _unguarded_variance(a, b) or _unguarded_variance(b, a)
    negative = None
    for this, other in ((a, b), (b, a)):
        if this.negative and (other.known or other.tensor):
            negative = this.negative
    gram = _gram(a, b, node) or _gram(b, a, node)
    if gram is not None:
        zero = negative = gram
    const = a.const + b.const if a.const is not None and b.const is not None else None
    tags = (a.tags | b.tags) & {"probability"} if zero else frozenset()
    if "product" in a.tags and "product" in b.tags:
        tags = tags | {"sum_of_products"}  # `w1 * h1 + w2 * h2`: two areas
        if any("exp_scaled" in this.tags and this.zero is None for this in (a, b)):
            # One area is a size from an exp (`exp(t_w) * anchor_w * ...`): not shown to be 0.
            tags = tags | {"exp_area"}
    if "sum_of_squares" in a.tags and "sum_of_squares" in b.tags:
        tags = tags | {"squared_norms"}  # `|a|² + |b|²`, before `- 2<a, b>`
    exp_node = None
    for this, other in ((a, b), (b, a)):
        # `reduce_sum(exp(z)) + eps` is still a sum of exponentials (softmax, logsumexp).
        if "sum_exp" in this.tags and other.const is not None and other.const >= 0:
            tags, exp_node = tags | (this.tags & {"sum_exp", "sum_exp_unbounded"}), this.node
        elif "exp" in this.tags and other.const is not None and other.const > 0:
            # `1 + exp(-x)`: the denominator of a hand-written sigmoid (NAN104 asks).
            tags, exp_node = tags | {"one_plus_exp"}, this.node
    return Value(lo=a.lo + b.lo if a.lo > -inf and b.lo > -inf else -inf,
                 hi=a.hi + b.hi if a.hi < inf and b.hi < inf else inf,
                 lo_open=a.lo_open or b.lo_open, hi_open=a.hi_open or b.hi_open,
                 zero=zero, negative=negative, known=known, tensor=tensor, const=const,
                 tags=tags, node=exp_node, integral=a.whole and b.whole)


def _gram(a: Value, b: Value, node: Optional[cst.CSTNode]) -> Optional[Evidence]:
    """``(|a|² - 2<a, b>) + |b|²``: the second squared norm completes the expansion."""
    if node is None or "gram_partial" not in a.tags or "sum_of_squares" not in b.tags:
        return None
    return gram_evidence(node)


def _unguarded_variance(a: Value, b: Value) -> Optional[Evidence]:
    """``var + eps`` of a hand-computed variance ``E[x²] − E[x]²`` (or a product of two):
    rounding makes it negative for a (nearly) constant input by an amount that scales with
    ``E[x²]`` and with the number of values averaged (measured under TF 2.21: -2.6e-6 x
    E[x²] over 4096 values, -9.4e-4 x E[x²] for column means over 262,144 rows), not with
    the epsilon, so the sum can still be 0 or negative."""
    if a.zero is None or a.zero.producer not in ROUNDS_BELOW_ZERO or (
            b.const is None or b.const <= 0):
        return None
    if a.zero.producer == "gram":
        return replace(a.zero, why="which is 0 where two rows are equal, where float32 "
                       "rounding makes it negative by an amount that grows with the squared "
                       "norms (under TF: -1e-4 for 128 standard normal features, -1e-6 for "
                       f"l2-normalized ones), more than the epsilon {b.const:g} makes up "
                       "for: the sum can still be 0 or negative", producer="gram_epsilon")
    return replace(a.zero, why="which is 0 for a constant input, where float32 rounding "
                   "makes it negative by an amount that grows with E[x^2] and with the number "
                   "of values averaged (under TF: -1e-4 for the mean of 4096 copies of 7.7, "
                   "-9.4 for the column means of 262,144 rows of 100), more than the epsilon "
                   f"{b.const:g} makes up for: the sum can still be 0 or negative",
                   producer="variance_epsilon")


# -- the identities of a difference -----------------------------------------------------------
# Each rule reads the two sides of `a - b` and, where it applies, says what the difference is
# whatever the names: (evidence that it is 0, or None; the tags the difference carries). The
# first rule that applies decides; a new identity is one more function in DIFFERENCES.
Found = Tuple[Optional[Evidence], FrozenSet[str]]
NONE: FrozenSet[str] = frozenset()


def _one_minus_probability(a: Value, b: Value, node: cst.CSTNode) -> Optional[Found]:
    """`1 - p`: a probability saturates to exactly 1 in float32."""
    if a.const is None or "probability" not in b.tags or b.hi != a.const or b.hi_open:
        return None
    base = b.zero
    return Evidence(node, "`{src}`", "which is exactly 0 once the probability saturates to 1 "
                    "in float32", confidence=base.confidence if base else "medium",
                    aggregate=False, convention=bool(base and base.convention), tiny=True,
                    producer="one_minus_probability"), NONE


def _minus_nothing(a: Value, b: Value, node: cst.CSTNode) -> Optional[Found]:
    """`x - 0` is `x`."""
    return (a.zero, NONE) if a.zero and b.const == 0 else None


def _from_its_bound(a: Value, b: Value, node: cst.CSTNode) -> Optional[Found]:
    """`1 - x` of a value that reaches 1 (see ``bounded_difference``)."""
    bounded = bounded_difference(a, b, node) if b.bound is not None else None
    return (bounded, NONE) if bounded is not None else None


def _through_zero(a: Value, b: Value, node: cst.CSTNode) -> Optional[Found]:
    """`exp(x) - 1` (or `1 - exp(x)`) where `x` can be 0 (a difference, a relu output):
    exactly 0 there, and below 0 where `x` is negative (positive), if it can be."""
    value, const = (a, b.const) if b.const is not None else (b, a.const)
    if const != 1 or "one_at_zero" not in value.tags:
        return None
    side = "negative" if b.const is not None else "positive"
    below = "below_one" if b.const is not None else "above_one"
    if below not in value.tags:
        return Evidence(node, "`{src}`", "which is 0 where its exponent is 0, as it can be",
                        "medium", aggregate=False, producer="through_zero"), NONE
    return Evidence(node, "`{src}`", "which is 0 where its exponent is 0, as it can be, and "
                    f"below 0 where the exponent is {side}", "medium", aggregate=False,
                    producer="through_zero"), frozenset({"crosses_zero"})


def _union(a: Value, b: Value, node: cst.CSTNode) -> Optional[Found]:
    """`area1 + area2 - overlap`: the union of an IoU. It is at least the larger area, so
    where one area is a size from an exp (a predicted box, `exp(t_w) * anchor_w`), nothing
    shows that it can be 0: only an exp underflow, far below any trained box size."""
    if "sum_of_products" in a.tags and "overlap" in b.tags:
        return (None if "exp_area" in a.tags else union_evidence(node)), NONE
    return None


def _mask_pairs(a: Value, b: Value, node: cst.CSTNode) -> Optional[Found]:
    """`cast(adjacency) - eye(n)`: 0/1 minus 0/1, its sum still counts (see _reduce)."""
    if "mask" in a.tags and b.const is None and {"mask", "binary"} & b.tags:
        return None, frozenset({"difference", "mask_difference"})
    return None


def _gram_expansion(a: Value, b: Value, node: cst.CSTNode) -> Optional[Found]:
    """`|a|² + |b|² - 2<a, b>`; `|a|² - 2<a, b>`, the other squared norm still to add."""
    if "inner" not in b.tags or not a.tags & {"sum_of_squares", "squared_norms"}:
        return None
    if "squared_norms" in a.tags:
        return gram_evidence(node), NONE
    return None, frozenset({"gram_partial"})


def _range(a: Value, b: Value, node: cst.CSTNode) -> Optional[Found]:
    """`reduce_max(x) - reduce_min(x)`, `x.max(0) - x.min(0)`: the range of one tensor,
    at least 0, exactly 0 for a constant input (min-max scaling of a constant feature)."""
    if not ("max" in a.tags and "min" in b.tags and _same_reduction(a.node, b.node)):
        return None
    return Evidence(node, "the range `{src}`", "which is 0 for a constant input (all the "
                    "values it reduces equal) and tiny near one", "medium", tiny=True,
                    producer="range"), frozenset({"difference", "range"})


def _same_reduction(a: Optional[cst.CSTNode], b: Optional[cst.CSTNode]) -> bool:
    """Two reductions of the same operand over the same axes: the same arguments, and the
    same receiver for a method (`x.max(1)`, `x.min(1)`) or the same module."""
    if a.__class__ is not cst.Call or b.__class__ is not cst.Call or len(a.args) != len(
            b.args) or a.func.__class__ is not b.func.__class__:
        return False
    if a.func.__class__ is cst.Attribute and not a.func.value.deep_equals(b.func.value):
        return False
    return all(x.deep_equals(y) for x, y in zip(a.args, b.args))


def _of_two_values(a: Value, b: Value, node: cst.CSTNode) -> Optional[Found]:
    """A difference of two values: 0 where they are equal (a hand-computed variance, two
    sums: see ``tiny_difference``)."""
    if a.const is None and b.const is None:
        return tiny_difference(a, b, node), frozenset({"difference"})
    return None


DIFFERENCES: Tuple[Callable[[Value, Value, cst.CSTNode], Optional[Found]], ...] = (
    _one_minus_probability, _minus_nothing, _from_its_bound, _through_zero, _union,
    _mask_pairs, _gram_expansion, _range, _of_two_values)


def subtract(a: Value, b: Value, known: bool, tensor: bool, node: cst.CSTNode) -> Value:
    lo = a.lo - b.hi if a.lo > -inf and b.hi < inf else -inf
    hi = a.hi - b.lo if a.hi < inf and b.lo > -inf else inf
    zero, tags = None, NONE
    for rule in DIFFERENCES:
        found = rule(a, b, node)
        if found is not None:
            zero, tags = found
            break
    if "range" in tags:
        lo = max(lo, 0.0)  # a maximum is at least the minimum of the same values
    if "max" in b.tags and a.const is None:
        # `z - reduce_max(z)`: shifted so that the largest value is 0 (softmax, logsumexp).
        hi, tags = min(hi, 0.0), tags | {"shifted"}
    negative = a.negative if a.negative and (b.known or b.tensor) else None
    if "crosses_zero" in tags:
        negative, tags = replace(zero, producer="below_zero"), NONE  # not by rounding
    elif zero is not None and zero.producer == "gram" or (
            zero is not None and zero.producer == "bounded_difference"
            and b.bound is not None and b.bound.producer == "cosine"):
        negative, lo = zero, -inf  # rounding takes it below 0
    const = a.const - b.const if a.const is not None and b.const is not None else None
    return Value(lo=lo, hi=hi, lo_open=a.lo_open or b.hi_open,
                 hi_open=a.hi_open or b.lo_open, zero=zero, negative=negative,
                 known=known, tensor=tensor, tags=tags, const=const, node=node,
                 integral=a.whole and b.whole)


def multiply(a: Value, b: Value, known: bool, tensor: bool) -> Value:
    products = [_mul_bound(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    lo, hi = min(products), max(products)
    if not known:
        lo, hi = (0.0 if a.nonnegative and b.nonnegative and a.known and b.known else -inf,
                  inf)
    both_positive = a.positive and b.positive
    zero = a.zero or b.zero
    if zero is not None and (a.zero is None or b.zero is None):
        zero = zero.weaker("medium") if zero.convention else zero
    negative = None
    if a.negative and (b.positive or b.const is not None):
        negative = a.negative
    elif b.negative and (a.positive or a.const is not None):
        negative = b.negative
    const = a.const * b.const if a.const is not None and b.const is not None else None
    tags = (a.tags | b.tags) & {"probability"} if (
        a.nonnegative and b.nonnegative and a.hi <= 1 and b.hi <= 1) else frozenset()
    if a.const is None and b.const is None:
        tags = tags | {"product"}
        if "clamped_difference" in a.tags and "clamped_difference" in b.tags:
            tags = tags | {"overlap"}  # `max(x2 - x1, 0) * max(y2 - y1, 0)`: an intersection
        if "unit" in a.tags and "unit" in b.tags:
            tags = tags | {"unit_product"}  # summed over the axis: a cosine (see reduce)
    elif (a.const is not None and "inner" in b.tags) or (b.const is not None
                                                         and "inner" in a.tags):
        tags = tags | {"inner"}  # `2 * <a, b>`: the cross term of a squared distance
    tags = tags | ((a.tags | b.tags) & CONVENTIONAL)
    for this, other in ((a, b), (b, a)):
        if "one_hot" in this.tags and other.zero is not None:
            # `p * one_hot(y)`: summed over the classes, the probability of the label.
            tags |= {"selected"} | (other.tags & PRODUCER_TAGS)
    guards = a.guards if b.positive else b.guards if a.positive else None
    exp_node = scaled_exp(a, b)
    if exp_node is not None:
        # `exp(z) * mask`: summed, still a sum of exponentials (a masked softmax).
        tags = tags | {"exp_scaled"} | ((a.tags | b.tags) & {"exp_unbounded"})
    return Value(lo=lo, hi=hi, lo_open=both_positive and lo == 0, zero=zero,
                 negative=negative, known=known, tensor=tensor, const=const, tags=tags,
                 guards=guards, node=exp_node, integral=a.whole and b.whole)


def scaled_exp(a: Value, b: Value) -> Optional[cst.CSTNode]:
    """The `exp` call of ``exp(v) * c`` (or ``exp(v) / c``, either way round for a product):
    it underflows to exactly 0 with its exp, whatever finite c is."""
    for this in (a, b):
        if this.tags & {"exp", "exp_scaled"} and this.node is not None:
            return this.node
    return None


def divide(a: Value, b: Value, known: bool, tensor: bool, node: cst.CSTNode) -> Value:
    const = None
    if a.const is not None and b.const is not None and b.const != 0:
        const = a.const / b.const
        return Value(lo=const, hi=const, known=True, const=const, tensor=tensor)
    if a.tags & {"exp", "exp_scaled"} and "sum_exp" in b.tags:
        evidence = Evidence(node, "a hand-written softmax `{src}`",
                            f"which underflows to exactly 0 in {exp_limits(a.dtype)[0]}", "high",
                            aggregate=False, tiny=True, producer="softmax")
        return Value(lo=0.0, hi=1.0, zero=evidence, known=True, tensor=True,
                     tags=frozenset({"softmax", "probability", "handwritten_softmax"}),
                     node=node)
    lo, hi, lo_open = -inf, inf, False
    if b.nonnegative and a.nonnegative and a.known and b.known:
        # At least 0 (+inf where only b is 0); 0 / 0 is NaN, a hazard of the division
        # itself, which is listed where it is made, not downstream.
        lo, lo_open = 0.0, a.positive
        if a.hi < inf and b.lo > 0:
            hi = a.hi / b.lo
    elif b.nonnegative and a.hi <= 0 and a.known and b.known:
        hi = 0.0  # `-(x ** 2) / (2 * sigma ** 2)`: a Gaussian exponent stays <= 0
    kept = a.tags & CONVENTIONAL
    if b.const and a.known:  # by a constant (a temperature): the interval scales
        lo, hi = sorted((a.lo / b.const, a.hi / b.const))
        lo_open = a.lo_open if b.const > 0 else a.hi_open
    zero = a.zero
    negative = a.negative if b.positive else None
    exp_node = scaled_exp(a, UNKNOWN)
    return Value(lo=lo, hi=hi, lo_open=lo_open, zero=zero, negative=negative,
                 known=known, tensor=tensor, node=exp_node,
                 tags=kept | ({"exp_scaled"} if exp_node is not None else frozenset()))


def power(a: Value, b: Value, node: cst.CSTNode) -> Value:
    exponent = b.const
    if exponent == 2:
        return square(a, node, "square")
    if exponent is not None and 0 < exponent < 1:
        return sqrt_like(a)
    if a.const is not None and exponent is not None:
        try:
            return constant(a.const ** exponent)
        except (OverflowError, ZeroDivisionError, ValueError, TypeError):
            return UNKNOWN
    if a.positive:
        return Value(lo=0.0, lo_open=True, known=a.known and b.known, tensor=a.tensor)
    return Value(tensor=a.tensor or b.tensor)


def square(x: Value, node: cst.CSTNode, kind: str, axis: bool = True) -> Value:
    """square, abs and norm (over some ``axis``, or all): >= 0, and 0 where the input is.

    A difference `a - b` squared is not evidence by itself (elementwise, `a == b` is a
    coincidence); reduced over a tensor — a norm, a sum or mean of squares — it is: that
    is the distance or the error that training drives to 0.
    """
    if x.const is not None and kind != "norm":
        return constant(x.const ** 2 if kind == "square" else abs(x.const))
    zero = x.zero
    if kind == "norm" and zero is not None and not (zero.aggregate and (
            axis or not zero.per_row)):
        zero = None  # a norm is a reduction: an entry's own 0 does not make it 0 (see reduce)
    tags = {kind}
    # The square (or absolute value) of a value in [-1, 1] that reaches ±1 reaches 1.
    bound = x.bound if kind != "norm" and x.lo >= -1 and x.hi <= 1 else None
    of_difference = "difference" in x.tags and x.node is not None
    if of_difference:
        tags.add("square_of_difference")
        if kind == "norm" and zero is None:
            zero = difference_evidence(x.node)
    # In [-1, 1] it stays in [0, 1], and below 1 where its bounds are (a clip to 1 / (1 + eps)).
    top = max(abs(x.lo), abs(x.hi)) if bound is not None else inf
    return Value(lo=0.0, hi=top ** 2 if kind == "square" else top, zero=zero, known=True,
                 tensor=True, tags=frozenset(tags), node=x.node if of_difference else node,
                 integral=kind != "norm" and x.whole, bound=bound)


def sqrt_like(x: Value) -> Value:
    if x.const is not None and x.const >= 0:
        return constant(math.sqrt(x.const))
    lo = math.sqrt(x.lo) if x.lo > 0 else 0.0
    tags = {"sqrt"}
    if "sum_of_squares" in x.tags:
        tags.add("norm")  # sqrt(sum(square(d))): a hand-written euclidean norm
    return Value(lo=lo, lo_open=x.positive and lo == 0, zero=x.zero, known=x.known,
                 tensor=x.tensor, tags=frozenset(tags))


def _nothing_but_zero(value: Value) -> bool:
    """0 everywhere: the number 0, or a tensor of zeros (`tf.zeros_like(x)`)."""
    return value.const == 0 or (value.known and value.lo == 0 and value.hi == 0)


def _relu_evidence(node: cst.CSTNode, note: str = "") -> Evidence:
    """A maximum with 0 (or a clip to it) of a value that can be negative: a relu."""
    return Evidence(node, "`{src}`", f"which is 0 wherever its input is not positive{note}",
                    "medium", producer="relu")


def maximum(a: Value, b: Value, call: cst.Call) -> Value:
    written = {v.const for v in (a, b) if v.const}
    dtype = a.dtype or b.dtype or "float32"
    a, b = held_against(a, b)
    lo, lo_open = (a.lo, a.lo_open) if a.lo >= b.lo else (b.lo, b.lo_open)
    if a.lo == b.lo:  # one strictly above the bound keeps the maximum strictly above it
        lo_open = a.lo_open or b.lo_open
    zero = None
    if a.zero and b.zero:
        zero = a.zero
    elif lo == 0 and not lo_open and (_nothing_but_zero(a) or _nothing_but_zero(b)):
        lost = "".join(f" ({c:g} is 0 in {dtype})" for c in written  # an epsilon underflowed
                       if stored(c, dtype) == 0)
        zero = _relu_evidence(call, lost)
    negative = a.negative if a.negative and b.negative else None
    tags: FrozenSet[str] = frozenset()
    if zero is not None and "difference" in (a.tags | b.tags):
        tags = frozenset({"clamped_difference"})  # `max(x2 - x1, 0)`: an overlap's extent
    return Value(lo=lo, hi=max(a.hi, b.hi), lo_open=lo_open, zero=zero, negative=negative,
                 known=a.known or b.known, tensor=True, tags=tags,
                 integral=a.whole and b.whole)


def clip(x: Value, low: Value, high: Value, node: cst.CSTNode) -> Value:
    # A constant bound is converted to the tensor's dtype: `1 - 1e-10` is 1.0 in float32.
    low, high = _held(low, x.dtype), _held(high, x.dtype)
    lo, lo_open = x.lo, x.lo_open
    if low.lo > lo:
        lo, lo_open = low.lo, low.lo_open
    hi, hi_open = x.hi, x.hi_open
    if high.hi < hi:
        hi, hi_open = high.hi, high.hi_open
    elif not high.known:
        hi_open = True  # an unknown upper clip (`1 - eps`) is a guard, not evidence
    zero = x.zero if low.known and low.lo <= 0 else None
    if zero is None and _nothing_but_zero(low) and x.lo < 0 and not (
            high.known and high.hi <= 0):
        # clip(x, 0, h) is min(max(x, 0), h): 0 wherever x is not positive, as a relu
        zero = _relu_evidence(node)
    negative = x.negative if low.known and low.lo < 0 else None
    bound = x.bound
    if (high.const is not None and x.hi > high.const) or (
            low.const is not None and x.lo < low.const):
        # It holds its constant bound wherever its input passes it.
        bound = Evidence(node, "the clip `{src}`", "which holds its bound wherever its "
                         "input passes it", "high" if x.known else "medium", producer="clip")
    return Value(lo=lo, hi=hi, lo_open=lo_open, hi_open=hi_open, zero=zero,
                 negative=negative, known=x.known or (low.known and high.known),
                 tensor=True, tags=x.tags & {"probability"},
                 integral=x.whole and low.whole and high.whole, bound=bound)


def held_against(a: Value, b: Value) -> Tuple[Value, Value]:
    """Two operands of an elementwise op, a constant one held in the other's dtype."""
    return _held(a, b.dtype), _held(b, a.dtype)


def _held(bound: Value, dtype: Optional[str]) -> Value:
    """A constant ``bound`` as a tensor of ``dtype`` holds it."""
    if not (bound.known and bound.lo == bound.hi) or math.isinf(bound.lo):
        return bound
    held = stored(bound.lo, dtype)
    if held == bound.lo:
        return bound
    return replace(bound, lo=held, hi=held, const=held if bound.const is not None else None)


def reduce(name: str, x: Value, call: cst.CSTNode, axis: bool = False) -> Value:
    """A sum, mean, max or min (``name``, canonical) of ``x`` (over some ``axis``, or all)."""
    zero = x.zero if x.zero is not None and x.zero.aggregate and (
        axis or not x.zero.per_row) else None
    tags = set()
    if "selected" in x.tags and name == "reduce_sum" and axis:
        # `reduce_sum(p * one_hot(y), axis)`: one entry of p per row, as a gather.
        zero = x.zero
        tags |= x.tags & PRODUCER_TAGS
    if zero is not None and zero.discrete and name == "reduce_mean":
        zero = replace(zero, discrete=False)  # a fraction: 0 or >= 1/n, not >= 1
    if zero is None and "square_of_difference" in x.tags and x.node is not None:
        zero = difference_evidence(x.node)
    if "mask" in x.tags and name == "reduce_sum":
        zero = Evidence(call, "the count `{src}`", "which is 0 when no element is selected",
                        "high", discrete=True, producer="count")
        tags.add("count")
    elif "mask_parameter" in x.tags and name in ("reduce_sum", "reduce_mean") and (
            zero is None):
        # The mean of a mask is its count over its size: 0 exactly when the sum is.
        what = "the count `{src}`" if name == "reduce_sum" else "the mask fraction `{src}`"
        zero = Evidence(call, what, "which is 0 when no element is selected "
                        "(a convention: a parameter named like a mask or labels, `mask`, "
                        "`*_mask`, `valid`, `weights`, `is_*`, `y_true` or `labels`, or cast "
                        "to float before the sum, holds 0/1 values: 0 for a batch with no "
                        "positive)", "medium", discrete=name == "reduce_sum",
                        convention=True, producer="count")
        tags.add("count")
    elif "mask_difference" in x.tags and name in ("reduce_sum", "reduce_mean") and (
            zero is None):
        zero = Evidence(call, "the count `{src}` of a mask minus a 0/1 tensor", "which is 0 "
                        "when the mask selects nothing beyond what the other tensor holds "
                        "(e.g. no pair besides the diagonal)", "medium", producer="count")
        tags.add("count")
    if "unit_product" in x.tags and name == "reduce_sum" and axis:
        # `sum(l2_normalize(a) * l2_normalize(b), axis)`: a cosine.
        return Value(lo=-1.0, hi=1.0, known=True, tensor=True, tags=frozenset({"cosine"}),
                     node=call, bound=cosine_evidence(call))
    if name in ("reduce_sum", "reduce_mean"):
        tags.add("sum")
    if x.tags & {"exp", "exp_scaled"} and name == "reduce_sum":
        tags.add("sum_exp")
        if "exp_unbounded" in x.tags:
            tags.add("sum_exp_unbounded")
    if name == "reduce_max":
        tags.add("max")
    elif name == "reduce_min":
        tags.add("min")
    if "square_of_difference" in x.tags:
        tags.add("mean_squared_error" if name == "reduce_mean" else "sum_of_squares")
    elif "square" in x.tags:
        tags.add("sum_of_squares")
    if name == "reduce_sum":
        lo = x.lo if x.lo >= 0 else -inf
        hi = inf if x.hi > 0 else x.hi
    else:
        lo, hi = x.lo, x.hi
    # A sum, maximum or minimum of whole numbers is one; a mean is a fraction.
    integral = x.whole and name in ("reduce_sum", "reduce_max", "reduce_min")
    return Value(lo=lo, hi=hi, lo_open=x.lo_open and lo == x.lo, zero=zero,
                 negative=x.negative, known=x.known, tensor=True, tags=frozenset(tags),
                 node=call, integral=integral)
