"""The value lattice: what an expression can be, and the evidence for why.

A :class:`Value` is an interval the value is known to lie in (used to prove guards:
``x + eps``, ``maximum(x, c)``, clipping) and *evidence* that it can really reach a bad
point — exactly 0 (``zero``) or below 0 (``negative``). Evidence comes only from producers
that are known to output such values; :data:`UNKNOWN` has none. This module is the bottom of
the analysis: it imports nothing of nanlint.
"""

from __future__ import annotations

import math
import struct

from dataclasses import dataclass
from math import inf
from typing import Any, FrozenSet, Optional, Sequence, Tuple, TypeVar

import libcst as cst

CONFIDENCE_ORDER = {"low": 0, "medium": 1, "high": 2}
# Tags that say which producer a value's zero evidence is the output of (NAN103 asks them).
PRODUCER_TAGS = frozenset({"softmax", "sigmoid"})
DTYPES = frozenset({"float16", "bfloat16", "float32", "float64", "half", "double"})
# The words a dtype is spelled with in source (``tf.half`` is float16).
DTYPE_WORDS = {"float16": ("float16", "half"), "float64": ("float64", "double")}
FLOAT16 = frozenset(DTYPE_WORDS["float16"])  # the names of the float16 dtype
WIDE = frozenset({"float64", "double"})


def stored(number: float, dtype: Optional[str] = None) -> float:
    """``number`` as a tensor of ``dtype`` holds it (rounded to nearest even): a Python
    constant that meets a tensor is converted to the tensor's dtype, float32 unless it is
    known to be wider (``1 - 1e-10`` is 1.0 in float32)."""
    if dtype in WIDE:
        return number
    try:
        if dtype in FLOAT16:
            return struct.unpack("<e", struct.pack("<e", number))[0]
        single = struct.unpack("<f", struct.pack("<f", number))[0]
    except OverflowError:
        return math.copysign(math.inf, number)
    if dtype == "bfloat16":
        bits = struct.unpack("<I", struct.pack("<f", single))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return single
INTEGER_DTYPES = frozenset(f"{sign}int{bits}" for sign in ("", "u") for bits in (8, 16, 32, 64))


R = TypeVar("R")


def replace(record: R, **changes: Any) -> R:
    """``dataclasses.replace`` for the lattice's records (no ``__post_init__``, every field
    set by ``__init__``): the fields are copied, not passed through ``__init__`` by name,
    which made ``dataclasses.replace`` a tenth of a dense file's value analysis."""
    new = object.__new__(record.__class__)
    fields = new.__dict__
    fields.update(record.__dict__)
    if not changes.keys() <= fields.keys():
        raise TypeError(f"no such field: {sorted(changes.keys() - fields.keys())}")
    fields.update(changes)
    return new


@dataclass(frozen=True)
class Evidence:
    """Why a value can be 0 (or negative): a producer, and what it does."""

    node: cst.CSTNode  # the producer: its line is reported, its source quoted
    what: str  # "the output of `{op}`" — {op} is the callee's source, {src} the node's
    why: str  # "which underflows to exactly 0 in float32"
    confidence: str = "high"
    aggregate: bool = True  # survives a sum or a mean
    per_row: bool = False  # 0 in a row (an example) but not in all rows at once
    discrete: bool = False  # a count: exactly 0 or >= 1
    convention: bool = False  # only a naming convention (a parameter called `y_pred`)
    tiny: bool = False  # approaches 0 continuously (underflow, a variance): not exactly 0 only
    producer: str = ""  # what made it: a canonical op name, "difference", "count", ...
    name: Optional[str] = None  # the variable through which the value reached the use
    # The call through which it entered the function that uses it, and that function's
    # name: the step between a producer in one function and a use in another.
    step: Optional[Tuple[cst.CSTNode, str]] = None

    def weaker(self, confidence: str) -> "Evidence":
        if CONFIDENCE_ORDER[confidence] < CONFIDENCE_ORDER[self.confidence]:
            return replace(self, confidence=confidence)
        return self


@dataclass(frozen=True)
class Value:
    lo: float = -inf
    hi: float = inf
    lo_open: bool = False  # lo itself is excluded (exp: (0, inf))
    hi_open: bool = False
    zero: Optional[Evidence] = None
    negative: Optional[Evidence] = None
    known: bool = False  # produced by something the analysis understands
    tensor: bool = False  # a TensorFlow / Keras value
    tags: FrozenSet[str] = frozenset()
    const: Optional[float] = None
    layer: Optional[str] = None  # a Keras layer object: the activation it applies
    node: Optional[cst.CSTNode] = None  # the expression that produced it, when tagged
    origin: Optional[str] = None  # the canonical op whose call produced it (through names)
    dtype: Optional[str] = None  # "float16", "bfloat16", "float32", ... when known
    # A mask that is 1 exactly where the value whose zero evidence is this node is 0 (or
    # <= 0): `x + mask * eps` adds something positive where x is 0, so it guards x.
    guards: Optional[cst.CSTNode] = None
    # Evidence that it can be huge in either direction (a network's raw regression output,
    # which nothing bounds): exp of it overflows. Kept through structure ops and arithmetic
    # with other values; dropped where the interval bounds it (a clip, a minimum, a shift).
    huge: Optional[Evidence] = None
    # Proven to hold whole numbers only (a 0/1 mask, a one-hot row, a count, an integer
    # dtype), so that with ``lo >= 0`` it is 0 or at least 1: see ``is_count``. Only what
    # the analysis proves sets it; a naming convention never does.
    integral: bool = False
    # Evidence that it reaches the ends of its interval (±1): a tanh saturates, a cosine is
    # 1 for a vector with itself (and, computed, passes it by rounding: producer "cosine"),
    # a clip holds its bounds. `1 - x`, `acos(x)`, `asin(x)` are singular there.
    bound: Optional[Evidence] = None

    @property
    def positive(self) -> bool:
        return self.lo > 0 or (self.lo == 0 and self.lo_open)

    @property
    def nonnegative(self) -> bool:
        return self.lo >= 0

    @property
    def whole(self) -> bool:
        """Proven to hold whole numbers only (``integral``, or an integer constant)."""
        const = self.const
        return self.integral or (const is not None and const - const == 0
                                 and const == int(const))

    @property
    def is_count(self) -> bool:
        """Proven to be 0 or at least 1 everywhere: whole numbers, none negative."""
        return self.whole and self.lo >= 0

    @property
    def can_be_zero(self) -> bool:
        return self.zero is not None

    @property
    def can_be_negative(self) -> bool:
        return self.negative is not None


UNKNOWN = Value()

# Where exp leaves the finite numbers: (the argument above which it is inf, the one below
# which it is exactly 0), rounded as messages say them. numpy computes in float64 unless its
# input is of a narrower type; TensorFlow in float32.
EXP_LIMITS = {"float32": (88, -104), "float64": (709, -745)}


def exp_limits(dtype: Optional[str]) -> Tuple[str, int, int]:
    """(the dtype the limits are of, above, below): float32's unless ``dtype`` is float64."""
    name = dtype if dtype in EXP_LIMITS else "float32"
    return (name, *EXP_LIMITS[name])


def normalized(value: Value) -> Value:
    """Drop evidence that the interval rules out."""
    if value.huge is not None and value.lo > -inf and value.hi < inf:
        value = replace(value, huge=None)
    zero, negative = value.zero, value.negative
    if zero is not None and (value.positive or value.hi < 0 or (value.hi == 0 and value.hi_open)):
        zero = None
    if negative is not None and value.lo >= 0:
        negative = None
    if zero is value.zero and negative is value.negative:
        return value
    return replace(value, zero=zero, negative=negative)


def constant(number: float) -> Value:
    return Value(lo=number, hi=number, known=True, const=number)


def written_in_place(value: Value, whole: bool = False) -> Value:
    """An array written item by item after it is made holds its first value only where
    nothing is written: its 0 is no longer all of it (a sum of it is not 0), and its range is
    unknown. ``whole``: updated as a whole (`self.total += x`): its first value holds until
    the first update. A span's one 0 (`arange(n)` starts at it) is an item: gone."""
    zero = value.zero
    if zero is not None and zero.producer == "span":
        zero = None  # `r = arange(n)`, `r[0] = 1`: its one 0 is an item, what is written
    if zero is not None:
        why = zero.why if zero.producer != "zeros" else (
            "which stays 0 until it is first updated" if whole else
            "which stays 0 wherever nothing is written into it")
        zero = replace(zero, why=why, aggregate=False,
                       confidence="medium" if zero.confidence == "high" else zero.confidence)
    return Value(zero=zero, tensor=value.tensor, node=value.node, origin=value.origin)


def python_number(value: Value) -> bool:
    """A Python number, not an array: a literal, a number `range` counts, a parameter
    annotated `int`, `float` or `bool`, and Python's arithmetic of them (the evaluator tags
    these "python_number")."""
    return "python_number" in value.tags or (value.const is not None and not value.tensor)


def join(values: Sequence[Value]) -> Value:
    """The union of several possible values (branches, several returns)."""
    if not values:
        return UNKNOWN
    if len(values) == 1:
        return values[0]
    lo, hi = min(v.lo for v in values), max(v.hi for v in values)
    tags = frozenset.intersection(*(v.tags for v in values))
    if any("probability" in v.tags for v in values) and all(
            "probability" in v.tags or (v.known and 0 <= v.lo == v.hi <= 1) for v in values):
        tags |= {"probability"}  # `where(y == 0, p, zeros_like(p))`: still a probability
    if all(v.tags & {"exp", "exp_scaled"} for v in values):
        tags |= {"exp_scaled"}  # `e = exp(z)`, then `e = e * mask` under a test: an exp scaled
    carriers = [v for v in values if v.zero]
    if len(carriers) == 1 and carriers[0].tags & PRODUCER_TAGS - tags:
        # Only one branch can be 0: where the value is 0, it is that branch's producer
        # (`self.p = softmax(z)` in one method, `self.p = clip(self.p, ...)` in another).
        tags |= carriers[0].tags & PRODUCER_TAGS | {"one_branch"}
    return Value(
        lo=lo, hi=hi, lo_open=all(v.lo_open for v in values if v.lo == lo),
        hi_open=all(v.hi_open for v in values if v.hi == hi),
        zero=carriers[0].zero if carriers else None,
        negative=next((v.negative for v in values if v.negative), None),
        huge=next((v.huge for v in values if v.huge), None),
        bound=next((v.bound for v in values if v.bound), None),
        known=all(v.known for v in values), tensor=any(v.tensor for v in values),
        tags=tags, integral=all(v.whole for v in values),
        layer=next((v.layer for v in values if v.layer), None),
        node=_joined_node(values),
        origin=values[0].origin if all(v.origin == values[0].origin for v in values) else None,
    )


def _joined_node(values: Sequence[Value]) -> Optional[cst.CSTNode]:
    """The expression that produced every branch, when they agree (`e = exp(z)`, then
    `e = e * mask` under a test: both are that exp's), else a layer's."""
    first = values[0].node
    if first is not None and all(v.node is first for v in values):
        return first
    return next((v.node for v in values if v.layer), None)


def difference_evidence(node: cst.CSTNode) -> Evidence:
    return Evidence(node, "built from the difference `{src}`",
                    "which is 0 wherever both sides are equal", "medium", tiny=True,
                    producer="difference")


def cosine_evidence(node: cst.CSTNode) -> Evidence:
    """A dot product of two l2-normalized vectors: 1 for a vector with itself (the diagonal
    of a similarity matrix), and computed it passes 1 by rounding (in float32 and float64
    alike)."""
    return Evidence(node, "the cosine `{src}` of l2-normalized vectors", "which is ±1 for "
                    "parallel vectors (a vector with itself) and passes it by rounding",
                    "medium", producer="cosine")


def render(evidence: Evidence, code, where_is) -> str:
    """``\\`y_conv\\` is the output of \\`tf.nn.softmax\\` (line 60), which underflows ...``.

    ``code(node)`` is the node's source; ``where_is(node)`` names the node's place
    ("line 60", in a notebook "cell 2, line 3").
    """
    node = evidence.node
    op = code(node.func) if isinstance(node, cst.Call) else ""
    src = _short(code(node))
    what = evidence.what.format(op=op, src=src)
    place = where_is(node)
    where = f" ({place})" if place else ""
    if evidence.step is not None and evidence.name:
        call, function = evidence.step
        through = where_is(call)
        preposition = "in" if through and through.startswith("cell") else "on"
        through = f" through the call {preposition} {through}" if through else ""
        return (f"`{evidence.name}` in `{function}()` receives {what}{where}{through}, "
                f"{evidence.why}")
    if evidence.name:
        return f"`{evidence.name}` is {what}{where}, {evidence.why}"
    return f"it is {what}{where}, {evidence.why}"


def _short(source: str, limit: int = 60) -> str:
    source = " ".join(source.split())
    return source if len(source) <= limit else source[: limit - 3] + "..."

