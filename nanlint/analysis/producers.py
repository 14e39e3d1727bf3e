"""What each TensorFlow/Keras op and layer yields, driven by the data of ``optable``.

An op's *transfer* (``exp``, ``reduce``, ``where``, ``cast``, ``layer`` ...) names how its
output follows from its arguments; the ranges and the reasons a producer can output 0 or a
negative value come from the table. These are the op model's transfer functions: each takes
the evaluator (``ev``), which gives the values of the arguments.
"""

from __future__ import annotations

import math
from math import inf
from typing import Callable, Dict, FrozenSet, Optional, Protocol, Set, Tuple

import libcst as cst

from nanlint import optable
from nanlint.analysis.arithmetic import (CONVENTIONAL, arithmetic, clip, divide,
                                         held_against, inner_of_normalized, maximum, negated,
                                         power, reduce, sqrt_like, square, subtract)
from nanlint.analysis.lattice import (UNKNOWN, Evidence, Value, constant, join, normalized,
                                     replace)
from nanlint.analysis.scopes import END, Scope
from nanlint.analysis.callsites import axis_argument, keyword_argument, op_argument
from nanlint.analysis.sources import (activation_name, activation_value, casts_to_integer,
                                      dtype_argument, float_cast_of_parameter, gradient,
                                      layer, table_value, zero_initializer)
from nanlint.analysis.tree import (MIRRORED, NEGATED, comparison, dotted_code, last_name,
                                  names_in)
from nanlint.analysis.resolver import Resolver
from nanlint.analysis.settings import Settings
from nanlint.optable import Op


class Evaluation(Protocol):
    """What the transfer functions ask of the evaluator that calls them with itself."""

    resolver: Resolver
    settings: Settings
    branch_calls: Dict[int, cst.Call]  # synthesized calls of function branches, kept alive

    def value(self, expr: cst.BaseExpression, scope: Scope, index: int) -> Value:
        ...


# Ops that return a tuple, and the op whose value each element has (from the same
# arguments): the variance of `tf.nn.moments` is 0 for a constant input like any variance.
TUPLE_RESULTS = {
    "tf.nn.moments": ("reduce_mean", "variance"),
    "tf.nn.weighted_moments": ("reduce_mean", "variance"),
    "ops.moments": ("reduce_mean", "variance"),
}


def output(ev: Evaluation, op: Op, call: cst.Call, scope: Scope, index: int) -> Value:
    """What ``call`` of ``op`` yields: its transfer's value, with its dtype and the op as
    its origin."""
    value = _transfer(ev, op, call, scope, index)
    dtype = dtype_argument(ev.resolver, call, scope, index)
    if op.transfer in ("like", "assign", "reduce", "sum", "square", "abs", "sqrt", "exp", "clip",
                       "maximum", "minimum", "add", "subtract", "multiply", "divide"):
        dtype = dtype or _first_dtype(ev, op, call, scope, index)
    if op.array or op.name.startswith("np."):  # a numpy array: float64 unless its input says
        return replace(value, origin=op.name, dtype=dtype or "float64", tensor=False)
    if value.origin == op.name and value.dtype == dtype:
        return value
    return replace(value, origin=op.name, dtype=dtype)


def _first_dtype(ev: Evaluation, op: Op, call: cst.Call, scope: Scope, index: int
                 ) -> Optional[str]:
    for position in range(min(2, max(1, len(op.args)))):
        expr = op_argument(call, op, position)
        if expr is not None:
            dtype = ev.value(expr, scope, index).dtype
            if dtype:
                return dtype
    return None


class Application:
    """One op applied: the call, its op, the place it is evaluated at and the evaluator
    that gives its arguments' values. What a transfer function is given."""

    __slots__ = ("ev", "op", "call", "scope", "index")

    def __init__(self, ev: Evaluation, op: Op, call: cst.Call, scope: Scope,
                 index: int) -> None:
        self.ev, self.op, self.call, self.scope, self.index = ev, op, call, scope, index

    def expr(self, position: int) -> Optional[cst.BaseExpression]:
        """The argument expression at ``position`` of the op's signature (or its keyword)."""
        return op_argument(self.call, self.op, position)

    def arg(self, position: int) -> Value:
        """The value of the argument at ``position``; unknown where it is not passed."""
        expr = op_argument(self.call, self.op, position)
        return self.ev.value(expr, self.scope, self.index) if expr is not None else UNKNOWN

    def value(self, expr: cst.BaseExpression) -> Value:
        """The value of another expression, at the place of the call."""
        return self.ev.value(expr, self.scope, self.index)


def _transfer(ev: Evaluation, op: Op, call: cst.Call, scope: Scope, index: int) -> Value:
    transfer = TRANSFERS.get(op.transfer)  # (none for the transfers of NO_VALUE)
    return transfer(Application(ev, op, call, scope, index)) if transfer else UNKNOWN


# -- the transfer functions, one for each ``Op.transfer`` --------------------------------------
# TensorFlow's float32 tanh is exactly ±1 from |x| = 7.94 on: of an input inside this it
# stays inside (-1, 1).
TANH_BELOW_ONE = 7.9


def _range(app: Application) -> Value:
    """The range (and the zero and negative reasons) of the op's table entry; a tanh of an
    input bounded inside ``TANH_BELOW_ONE`` does not reach ±1."""
    op, call = app.op, app.call
    value = table_value(op, call)
    if value.bound is not None and op.name == "tanh":
        x = app.arg(0)
        if -TANH_BELOW_ONE < x.lo and x.hi < TANH_BELOW_ONE:
            return replace(value, lo=math.tanh(x.lo), hi=math.tanh(x.hi), bound=None)
    if op.integral and all(app.expr(position) is None or app.arg(position).whole
                           for position in range(2, len(op.args))):
        value = replace(value, integral=True)
    return value


# Logits that span at most this much (a tanh, a cosine over a temperature of 0.05 or more):
# a softmax of them is at least exp(-SPAN) / n, a normal float32 for any n below 1e20, and
# a sigmoid of a value at least -SPAN is at least exp(-SPAN). Neither underflows to 0.
SPAN = 40.0
# A sigmoid of a value at most this is below 1 in float32 (1 - 3e-7; from 17 on it is 1).
SIGMOID_BELOW_ONE = 15.0


def _squash(app: Application) -> Value:
    """``softmax`` and ``sigmoid``: their table range, which reaches 0 by underflow; but not
    for an input the analysis bounds (softmax: its whole spread; sigmoid: from below, and
    from above for 1 - sigmoid)."""
    value = _range(app)
    x = app.arg(0)
    if x.tags & CONVENTIONAL:
        return value  # a range by convention bounds nothing
    low = x.hi - x.lo if app.op.name == "softmax" else -x.lo
    if value.zero is not None and low <= SPAN:
        value = replace(value, lo_open=True, zero=None)
    if app.op.name == "sigmoid" and x.hi <= SIGMOID_BELOW_ONE:
        value = replace(value, hi_open=True)
    return value


def _negate(app: Application) -> Value:
    return negated(app.arg(0))


def _matmul_transfer(app: Application) -> Value:
    a, b = app.arg(0), app.arg(1)
    call = app.call
    bounded = inner_of_normalized(a, b, call)
    if bounded is not None:
        return bounded
    if _self_inner(app.op, call):  # `np.dot(v, v)`, `v.dot(v)`, `np.vdot(x, x)`: |v|²
        return Value(lo=0.0, known=True, tensor=True, node=call,
                     tags=frozenset({"inner", "sum_of_squares"}))
    value = _matmul(app.ev, app.op, call, a, b, app.scope, app.index)
    tags = {"inner", "gram_matrix"} if _gram_matrix(app.ev, app.op, call, app.scope,
                                                    app.index) else {"inner"}
    return replace(value, tags=value.tags | tags)


def _any(app: Application) -> Value:
    return Value(known=True, tensor=True)


def _log(app: Application) -> Value:
    """A log's range is not followed, but for a constant (`log(2.0)`, folded) and one form:
    the log of a hand-written `1 + exp(z)` (softplus) is exactly 0 once `z < -16.6`, where
    float32 rounds `1 + exp(z)` to 1 (``tf.nn.softplus`` computes it without that
    rounding): evidence where `z` is shown to reach that far (``_reaches_far_below``)."""
    x = app.arg(0)
    if x.const is not None and x.const > 0:  # `tf.math.log(2.0)`: a constant
        return replace(constant(math.log(x.const)), tensor=True)
    if "one_plus_exp" in x.tags and x.lo == 1.0 and _reaches_far_below(app, x.node):
        return Value(lo=0.0, known=True, tensor=True, node=app.call, zero=Evidence(
            app.call, "the hand-written softplus `{src}`", "which is exactly 0 once the exp's "
            "argument is below -16.6: float32 rounds 1 + exp(z) to 1 there", "medium",
            producer="softplus_rounding"))
    if x.known and 0 < x.hi < inf:
        # The log grows: of a value at most 1 (a probability) it is at most 0, whatever
        # its 0s make of its lower end.
        return Value(hi=math.log(x.hi), known=True, tensor=True)
    return Value(known=True, tensor=True)


def _reaches_far_below(app: Application, exp: Optional[cst.CSTNode]) -> bool:
    """Whether the argument of ``exp`` is shown to reach far below 0: a linear output (a
    matmul, a dense layer) or a raw network output, which nothing bounds."""
    if exp.__class__ is not cst.Call or not exp.args:
        return False
    z = app.value(exp.args[0].value)
    return z.huge is not None or "linear" in z.tags


def _diagonal(app: Application) -> Value:
    if "gram_matrix" in app.arg(0).tags:
        # The diagonal of `x @ x^T`: each row's squared norm, 0 for an all-zero row.
        return Value(lo=0.0, known=True, tensor=True, tags=frozenset({"sum_of_squares"}),
                     node=app.call)
    return UNKNOWN


def _like(app: Application) -> Value:
    """Like its first argument (``assign``: like the value it assigns, the second; ``filled``:
    the value it fills with, the second)."""
    op = app.op
    x = app.arg(0 if op.transfer == "like" else 1)
    return replace(x, tensor=True, layer=None, integral=op.integral is not False and (
        x.integral), tags=x.tags | {"max"} if "max" in op.tags else x.tags)


def _selected(app: Application) -> Value:
    """``boolean_mask(x, m)``: elements of x. Where the mask keeps only x's non-zero elements
    (``x != 0``, ``x > 0``, a name assigned one of these), none of them is 0."""
    x = replace(app.arg(0), tensor=True, layer=None)
    kept, mask = app.expr(0), app.expr(1)
    if isinstance(mask, cst.Name):
        binding, _ = app.ev.resolver.resolve(mask.value, app.scope, app.index)
        mask = binding.value if binding is not None and binding.kind == "assign" else None
    test = comparison(mask)
    if kept is None or test is None or not test[0].deep_equals(kept) or (
            app.value(test[2]).const != 0 or test[1] not in ("!=", ">")):
        return x
    return replace(x, zero=None, lo=max(x.lo, 0.0) if test[1] == ">" else x.lo,
                   lo_open=test[1] == ">" or x.lo_open)


def _epsilon(app: Application) -> Value:
    return replace(constant(app.ev.settings.epsilon), tensor=True)


def _exp(app: Application) -> Value:
    x = app.arg(0)
    if x.const is not None:
        try:
            return replace(constant(math.exp(x.const)), tensor=True)
        except OverflowError:
            return UNKNOWN
    tags = {"exp"}
    if x.hi == inf:
        tags.add("exp_unbounded")  # nothing bounds the argument: exp can overflow
    if x.zero is not None:  # exp(0) = 1: `exp(x) - 1` is 0 there, and below 0 for x < 0
        tags.add("one_at_zero")
        if x.lo < 0:
            tags.add("below_one")
        if x.hi > 0:
            tags.add("above_one")
    return Value(lo=0.0, lo_open=True, known=True, tensor=True, tags=frozenset(tags),
                 node=app.call)


def _squared_difference(app: Application) -> Value:
    """(x - y)², whatever names x and y have."""
    a, b = app.arg(0), app.arg(1)
    return square(subtract(a, b, a.known and b.known, True, app.call), app.call, "square")


def _square(app: Application) -> Value:
    """``square``, ``abs`` and ``norm``: non-negative, 0 where the input is."""
    if app.op.transfer != "norm":
        return square(app.arg(0), app.call, app.op.transfer)
    axis = axis_argument(app.call, 1 if app.op.method else 2)
    return square(app.arg(0), app.call, "norm", _over_axes(axis))


def _over_axes(axis: Optional[cst.BaseExpression]) -> bool:
    """An axis passed, not `axis=None` (over all axes, as none)."""
    return axis is not None and not (isinstance(axis, cst.Name) and axis.value == "None")


def _sqrt(app: Application) -> Value:
    return sqrt_like(app.arg(0))


def _pow(app: Application) -> Value:
    return power(app.arg(0), app.arg(1), app.call)


def _reduce(app: Application) -> Value:
    op, call = app.op, app.call
    axis = axis_argument(call, 0 if op.method else 1)  # `axis=None`: over all axes, as none
    over_axes = _over_axes(axis)
    x = app.arg(0)
    value = reduce(op.name, x, call, over_axes)
    reached = _attained_tags(x)
    if op.name in ("reduce_sum", "reduce_max") and reached and (
            not over_axes or ATTAINED + "*" in reached
            or ATTAINED + _axis_code(app.ev, axis) in reached):
        # A mask of where a tensor reaches its extreme, summed along that axis (or all):
        # it holds that element, so the count is at least 1.
        return Value(lo=1.0, known=True, tensor=True, integral=True,
                     tags=frozenset({"count"}), node=call)
    if op.name == "reduce_mean" and "unit" in x.tags and axis.__class__ is cst.Integer and (
            axis.value == "0"):
        # The mean of normalized rows (a centroid): its norm is at most 1, so its inner
        # product with a normalized row lies in [-1, 1] (Cauchy-Schwarz).
        value = replace(value, tags=value.tags | {"ball"})
    if "one_hot" in x.tags and op.name in ("reduce_sum", "reduce_mean") and (
            value.zero is None and _leading_axes(axis)):
        # Summed over the rows (not the classes): how many rows have each class.
        what = "the per-class count" if op.name == "reduce_sum" else "the class share"
        value = replace(value, zero=Evidence(
            call, what + " `{src}`", "which is 0 for a class that no row of the "
            "batch has", "medium", discrete=op.name == "reduce_sum", producer="count"),
                        tags=value.tags | {"count"})
    return value


def _sum(app: Application) -> Value:
    """A sum of the first argument's elements (segments, a trace)."""
    return reduce("reduce_sum", app.arg(0), app.call, True)


def _prod(app: Application) -> Value:
    """A product of its elements: 0 where one of them is."""
    x = app.arg(0)
    if x.lo < 0:
        return Value(known=x.known, tensor=True)
    return Value(lo=0.0, hi=1.0 if x.hi <= 1 else inf, zero=x.zero, known=x.known,
                 tensor=True)


def _arithmetic(app: Application) -> Value:
    """``add``, ``subtract``, ``multiply``, ``divide``: as the operators."""
    return arithmetic(app.op.transfer.capitalize(), app.arg(0), app.arg(1), app.call)


def _divide_no_nan(app: Application) -> Value:
    a, b = app.arg(0), app.arg(1)
    value = divide(a, b, a.known and b.known, True, app.call)
    return replace(value, zero=a.zero or b.zero)


def _maximum(app: Application) -> Value:
    return maximum(app.arg(0), app.arg(1), app.call)


def _minimum(app: Application) -> Value:
    return smaller(app.arg(0), app.arg(1))


def smaller(a: Value, b: Value) -> Value:
    """The elementwise minimum of two values."""
    a, b = held_against(a, b)
    return Value(lo=min(a.lo, b.lo), hi=min(a.hi, b.hi), zero=a.zero or b.zero,
                 negative=a.negative or b.negative, known=a.known and b.known,
                 tensor=True, integral=a.whole and b.whole)


def _clip(app: Application) -> Value:
    return clip(app.arg(0), app.arg(1), app.arg(2), app.call)


def _cast(app: Application) -> Value:
    op, call, resolver = app.op, app.call, app.ev.resolver
    x = app.arg(0)
    if float_cast_of_parameter(resolver, call, op, app.scope, app.index):
        x = replace(x, tags=x.tags | {"mask_parameter"})
    if "always" in x.tags:
        # A test that every element passes (`d > 0` of a `d` kept above 0): all ones.
        return Value(lo=1.0, hi=1.0, known=True, tensor=True, integral=True)
    if "bool" in x.tags:
        # Where it marks a tensor's extreme, each row holds a 1: its zeros vanish in a sum
        # (over the extreme's axis; the other axes are not told apart).
        evidence = Evidence(call, "the mask `{src}`", "which is 0 wherever the "
                            "condition is false", "high", discrete=True,
                            producer="mask", aggregate=not _attained_tags(x))
        return Value(lo=0.0, hi=1.0, zero=evidence, known=True, tensor=True,
                     tags=frozenset({"mask"}) | _attained_tags(x), guards=x.guards,
                     integral=op.integral is not False)
    # A cast to an integer dtype truncates to whole numbers; a float cast keeps them.
    integral = op.integral is not False and (
        x.whole or casts_to_integer(resolver, call, app.scope, app.index))
    return replace(x, tensor=True, layer=None, integral=integral)


def _bool(app: Application) -> Value:
    call, scope, index = app.call, app.scope, app.index
    guards = None
    callee = app.ev.resolver.callee(call.func, scope, index)
    qualified = callee.qualified if callee is not None else None
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    tags = frozenset({"bool"})
    if qualified and qualified.rsplit(".", 1)[-1] in ("equal", "less_equal", "less") and len(
            positional) == 2:
        guards = zeros_marked(app.ev, positional[0], positional[1], scope, index,
                              qualified.rsplit(".", 1)[-1])
    if qualified and len(positional) == 2:
        tags |= comparison_tags(app.ev, positional[0], positional[1],
                                qualified.rsplit(".", 1)[-1], scope, index)
    return Value(lo=0.0, hi=1.0, known=True, tensor=True, tags=tags, guards=guards,
                 integral=True)


def _diag(app: Application) -> Value:
    """The argument on the diagonal, 0 elsewhere."""
    x = app.arg(0)
    return Value(lo=min(x.lo, 0.0), hi=max(x.hi, 0.0), known=x.known, tensor=True,
                 tags=x.tags & {"binary"}, integral=x.whole)


def _join(app: Application) -> Value:
    """``concat`` / ``stack`` of a list: an element can be anywhere."""
    call = app.call
    expr = app.expr(0)
    second = call.args[1] if len(call.args) > 1 and call.args[1].keyword is None else None
    if second is not None and not isinstance(expr, (cst.List, cst.Tuple)) and (
            isinstance(second.value, (cst.List, cst.Tuple)) or isinstance(expr, cst.Integer)):
        expr = second.value  # TF < 1.0: `tf.concat(axis, values)`
    if isinstance(expr, (cst.List, cst.Tuple)) and expr.elements:
        parts = [app.value(e.value) for e in expr.elements]
        joined = join(parts)
        if any("mask_parameter" in p.tags for p in parts):
            # Evidence like a zero: some elements are the mask's.
            joined = replace(joined, tags=joined.tags | {"mask_parameter"})
        if len({p.zero is None for p in parts}) > 1:
            # A zero of some parts only: what a subscript selects may be another part's.
            joined = replace(joined, tags=joined.tags | {"unlike_parts"})
        return replace(joined, tensor=True, layer=None)
    if isinstance(expr, cst.Name):  # a list grown by `append` (``Evaluator._grown_list``)
        return replace(app.value(expr), tensor=True, layer=None)
    return Value(tensor=True)


def _einsum(app: Application) -> Value:
    call = app.call
    if any(a.star for a in call.args):
        return Value(tensor=True)  # `einsum(f, *operands)`: no operand to judge
    first = call.args[0].value if call.args else None
    if first is not None and first.__class__ in (cst.List, cst.Tuple):
        # Mesh TensorFlow's `einsum([a, b], output_shape=...)`: the operands in a list
        operands = [app.value(element.value) for element in first.elements]
    else:
        operands = [app.value(a.value) for a in call.args[1:] if a.keyword is None]
    if operands and all(o.nonnegative for o in operands):
        return Value(lo=0.0, known=True, tensor=True,
                     zero=next((o.zero for o in operands if o.zero), None))
    return table_value(app.op, call)


def _where(app: Application) -> Value:
    """A select. A constant branch (`tf.ones_like(x)`, `1.`) where the condition tests the
    other branch (`where(x > 0, x, 1.)`) handles the special case on purpose — the "safe"
    idiom — so neither is evidence of a zero or a negative. A condition on something
    else (`where(y_true == 1, y_pred, 1.)`) keeps the other's evidence. A branch the
    condition compares with a constant is narrowed by it (``_taken``). `tf.cond` and
    `K.switch` may take functions: their results are the branches."""
    ev, scope, index = app.ev, app.scope, app.index
    condition = app.expr(0)
    branches = [_taken(ev, condition, app.expr(1), True, scope, index),
                _taken(ev, condition, app.expr(2), False, scope, index)]
    fixed = [b.known and b.lo == b.hi for b in branches]
    if any(fixed):
        exprs = [app.expr(1), app.expr(2)]
        branches = [replace(b, zero=None, negative=None) if is_fixed or (
            condition is None or expr is None
            or _tests(ev, condition, expr, b, scope, index)) else b
            for b, expr, is_fixed in zip(branches, exprs, fixed)]
    joined = replace(join(branches), tensor=True)
    if all(_nonzero(b) for b in branches):
        joined = replace(joined, tags=joined.tags | {"nonzero"})
    if any(fixed) and any("max" in b.tags for b in branches):
        # `where(is_finite(m), m, 0)`: a maximum with its infinities replaced.
        joined = replace(joined, tags=joined.tags | {"max"})
    return joined


def _taken(ev: Evaluation, condition: Optional[cst.BaseExpression],
           branch: Optional[cst.BaseExpression], holds: bool, scope: Scope, index: int) -> Value:
    """A select's branch, where the select takes it: where the condition compares the
    branch itself with a constant (`where(d > 0, d, 1.)`, `where(d == 0, 1., d)`), what the
    comparison says of it there (``holds``: the condition is true there) narrows it."""
    value = _branch(ev, branch, scope, index)
    compared = comparison(condition)
    if compared is None or branch is None:
        return value
    left, operator, right = compared
    if ev.value(left, scope, index).const is not None:
        left, operator, right = right, MIRRORED[operator], left
    bound = ev.value(right, scope, index).const
    if bound is None or not _same(ev, left, branch, scope, index):
        return value
    if not holds:
        operator = NEGATED[operator]
    lo, hi, lo_open, hi_open = value.lo, value.hi, value.lo_open, value.hi_open
    if operator in (">", ">=") and bound >= lo:
        lo, lo_open = bound, operator == ">"
    elif operator in ("<", "<=") and bound <= hi:
        hi, hi_open = bound, operator == "<"
    elif operator == "==":
        return constant(bound)
    elif operator == "!=":  # an end of the interval is left out; 0 is, where it is the end
        lo_open = lo_open or bound == lo
        hi_open = hi_open or bound == hi
        if bound == 0:
            value = replace(value, zero=None, tags=value.tags | {"nonzero"})
    return normalized(replace(value, lo=lo, hi=hi, lo_open=lo_open, hi_open=hi_open))


def _same(ev: Evaluation, a: cst.BaseExpression, b: cst.BaseExpression, scope: Scope,
          index: int) -> bool:
    """Whether two expressions are one value: the same name, or the same code."""
    if a.__class__ is cst.Name and b.__class__ is cst.Name:
        return a.value == b.value
    return ev.resolver.code(a) == ev.resolver.code(b)


def _nonzero(value: Value) -> bool:
    """Shown never to be 0: positive, negative, a constant other than 0, or tested."""
    return (value.positive or value.hi < 0 or (value.hi == 0 and value.hi_open)
            or "nonzero" in value.tags or (value.const is not None and value.const != 0))


def _gradient(app: Application) -> Value:
    return gradient(app.call, app.ev.resolver, app.scope, app.index)


def _map(app: Application) -> Value:
    """The function's results, stacked."""
    return replace(_branch(app.ev, app.expr(0), app.scope, app.index), tensor=True,
                   layer=None)


def _span(app: Application) -> Value:
    """`linspace(a, b, n)`, `range(a, b)`: between the start and the stop, the start
    itself first; `range(n)` and `arange(n)` start at 0, below ``n``. A start of 0 is a 0."""
    call = app.call
    if any(arg.star for arg in call.args):
        return Value(tensor=True)
    positional = [arg.value for arg in call.args if arg.keyword is None]
    start_expr, stop_expr = app.expr(0), app.expr(1)
    if stop_expr is None and len(positional) == 1 and keyword_argument(call, "start") is None:
        start, stop = constant(0.0), app.value(positional[0])  # `range(n)`: from 0
    elif start_expr is None or stop_expr is None:
        return Value(tensor=True)
    else:
        start, stop = app.value(start_expr), app.value(stop_expr)
    zero = None
    if start.const == 0:
        zero = Evidence(call, "`{src}`", "whose first value is its start, 0", "high",
                        aggregate=False, discrete=True, producer="span")
    known = start.known and stop.known
    return Value(lo=min(start.lo, stop.lo) if known else -inf,
                 hi=max(start.hi, stop.hi) if known else inf, zero=zero, known=known,
                 tensor=True, integral=start.whole and stop.whole)


def _uniform(app: Application) -> Value:
    """[minval, maxval), by default [0, 1)."""
    low, high = app.expr(1), app.expr(2)
    lo = app.value(low).const if low is not None else 0.0
    hi = app.value(high).const if high is not None else 1.0
    return Value(lo=-inf if lo is None else lo, hi=inf if hi is None else hi,
                 hi_open=True, known=lo is not None and hi is not None, tensor=True)


def _variable(app: Application) -> Value:
    call = app.call
    trainable = keyword_argument(call, "trainable")
    initial = app.arg(0)
    if initial.known and initial.lo == initial.hi == 0 or any(
            zero_initializer(app.ev.resolver, expr, app.scope, app.index)
            for expr in (app.expr(0), keyword_argument(call, "initializer"))):
        # `tf.Variable(0)`, a zeros initializer, trainable or not: a counter, an
        # accumulator, or a weight that training moves from 0 only once its first gradient
        # is applied.
        return Value(zero=Evidence(call, "the variable `{src}`", "which starts at 0, and is 0 "
                                   "until something assigns it", "medium", aggregate=False,
                                   producer="variable"),
                     known=True, tensor=True, tags=frozenset({"variable"}))
    if isinstance(trainable, cst.Name) and trainable.value == "False":
        return replace(initial, tensor=True)  # it holds what it was given
    dtype = keyword_argument(call, "dtype")
    dtype_text = (str(dtype.evaluated_value) if isinstance(dtype, cst.SimpleString)
                  else dotted_code(dtype) or "") if dtype is not None else ""
    if initial.zero is not None or "int" in dtype_text:
        # It holds its initial value until something assigns it (an integer variable is
        # never trained): `K.variable(total_steps)` of a parameter that is 0 by default.
        return replace(initial, tensor=True, const=None, tags=initial.tags | {"variable"})
    if initial.known and -inf < initial.lo <= 0 <= initial.hi < inf and (
            initial.lo < initial.hi):
        # `tf.Variable(tf.random.uniform([], 0.0, 2.0))`: it can start at 0.
        why = ("a trainable variable whose initial value can be 0 (its range is "
               f"[{initial.lo:g}, {initial.hi:g}]), and that training can move through 0")
        return Value(zero=Evidence(call, "the variable `{src}`", why, "high",
                                   aggregate=False, producer="variable"),
                     known=True, tensor=True, tags=frozenset({"variable"}))
    # Training moves it across 0 (a sign a log or a root cannot take), but landing on
    # exactly 0 needs an exact step: no evidence of 0 itself.
    return Value(negative=Evidence(call, "the variable `{src}`", "a trainable variable that "
                                   "training can move below 0", "medium", aggregate=False,
                                   producer="variable"),
                 known=True, tensor=True, tags=frozenset({"variable"}))


def _layer(app: Application) -> Value:
    return layer(app.ev.resolver, app.op, app.call, app.scope, app.index)


def _layer_fn(app: Application) -> Value:
    """``activation=`` (tf.layers) or ``activation_fn=`` (slim)."""
    op, call = app.op, app.call
    position = next((i for i, name in enumerate(op.args) if name == "activation"), None)
    expr = (app.expr(position) if position is not None
            else keyword_argument(call, "activation"))
    expr = expr if expr is not None else keyword_argument(call, "activation_fn")
    if expr is None and op.activation is None:
        return UNKNOWN  # the default is not known (a slim.arg_scope may set it)
    activation = (activation_name(app.ev.resolver, expr, app.scope, app.index)
                  if expr is not None else op.activation)
    return activation_value(activation, call) if activation else UNKNOWN


# Transfers whose call makes an object, not a value: an initializer (``object``), a layer that
# applies a function (``apply``: what calling it yields, the resolver's ``made_callee`` says).
NO_VALUE = frozenset({"object", "apply"})
# ``Op.transfer`` -> its function: every transfer of the op table has one, or is in NO_VALUE.
TRANSFERS: Dict[str, Callable[[Application], Value]] = {
    "range": _range, "squash": _squash, "negate": _negate, "matmul": _matmul_transfer,
    "any": _any, "log": _log, "diagonal": _diagonal, "like": _like, "assign": _like,
    "filled": _like,
    "selected": _selected,
    "epsilon": _epsilon,
    "exp": _exp, "squared_difference": _squared_difference, "square": _square, "abs": _square,
    "norm": _square, "sqrt": _sqrt, "pow": _pow, "reduce": _reduce, "sum": _sum,
    "prod": _prod, "add": _arithmetic, "subtract": _arithmetic, "multiply": _arithmetic,
    "divide": _arithmetic, "divide_no_nan": _divide_no_nan, "maximum": _maximum,
    "minimum": _minimum, "clip": _clip, "cast": _cast, "bool": _bool, "diag": _diag,
    "join": _join, "einsum": _einsum, "where": _where, "gradient": _gradient, "map": _map,
    "uniform": _uniform, "span": _span, "variable": _variable, "layer": _layer,
    "layer_fn": _layer_fn,
}


def _matmul(ev: Evaluation, op: Op, call: cst.Call, a: Value, b: Value, scope: Scope,
            index: int) -> Value:
    left, right = op_argument(call, op, 0), op_argument(call, op, 1)
    if a.zero is not None and a.zero.aggregate and left is not None and (
            right is not None and left.deep_equals(right)):
        # `K.batch_dot(x, x)`: x dotted with itself is 0 where x is all zeros (its
        # sign depends on the axes: a squared norm, or a Gram matrix).
        return replace(table_value(op, call), zero=a.zero)
    if a.nonnegative and b.nonnegative:  # e.g. square(x) @ square(scale)
        return Value(lo=0.0, known=True, tensor=True, zero=a.zero or b.zero)
    fixed = table_value(op, call)
    if a.tags & {"square", "sum_of_squares"} and "variable" not in b.tags:
        callee = ev.resolver.callee(call.func, scope, index)
        spelling = optable.spelling_of(callee.qualified or "") if callee else None
        if spelling in optable.WINDOW_SUMS:  # a windowed sum of squares
            fixed = replace(fixed, tags=fixed.tags | {"sum_of_squares"})
    for weights, other in ((a, b), (b, a)):
        if weights.nonnegative and other.negative is None and not (
                other.tags & {"variable", "linear"}):
            # Non-negative weights (a softmax, a square, a count): the product has the other
            # operand's sign (attention times 0/1 labels is not negative; a fixed window over
            # squares is not), not a linear output's, unless the other is a trained weight
            # or a linear output itself.
            return replace(fixed, negative=None)
    return fixed


def _self_inner(op: Op, call: cst.Call) -> bool:
    """A vector's dot with itself, its squared norm: `dot`, `vdot` or `inner` of one
    expression twice (numpy's `dot` of an array with itself is read as a vector's; a
    matrix's square is written `matmul` or `@`)."""
    left, right = op_argument(call, op, 0), op_argument(call, op, 1)
    return (last_name(call.func) in ("dot", "vdot", "inner") and left is not None
            and right is not None and left.deep_equals(right))


def _gram_matrix(ev: Evaluation, op: Op, call: cst.Call, scope: Scope, index: int) -> bool:
    """``matmul(x, transpose(x))``, ``matmul(x, x, transpose_b=True)`` (or the transpose
    first): the inner products of the rows (or columns) of one matrix."""
    left, right = op_argument(call, op, 0), op_argument(call, op, 1)
    if left is None or right is None:
        return False
    flipped = sum(flag.__class__ is cst.Name and flag.value == "True" for flag in (
        keyword_argument(call, "transpose_a"), keyword_argument(call, "transpose_b")))
    if flipped == 1 and left.deep_equals(right):
        return True
    for one, other in ((left, right), (right, left)):
        if one.__class__ is cst.Call and one.args:
            callee = ev.resolver.callee(one.func, scope, index)
            spelling = optable.spelling_of(callee.qualified or "") if callee else None
            if spelling in optable.TRANSPOSES and one.args[0].value.deep_equals(other):
                return flipped == 0
    return False


def tuple_element(ev: Evaluation, call: cst.Call, position: int, scope: Scope, index: int
                   ) -> Optional[Value]:
    """The element at ``position`` of the tuple an op returns (``mean, variance =
    tf.nn.moments(x, axes)``): the value of the op ``TUPLE_RESULTS`` names there, from
    the same arguments. None for a call that returns no known tuple."""
    callee = ev.resolver.callee(call.func, scope, index)
    if callee is None or not callee.qualified:
        return None
    names = TUPLE_RESULTS.get(optable.spelling_of(callee.qualified) or "")
    if names is None or not 0 <= position < len(names):
        return None
    return output(ev, optable.TABLE.by_name[names[position]], call, scope, index)


def _branch(ev: Evaluation, expr: Optional[cst.BaseExpression], scope: Scope, index: int) -> Value:
    """A branch of a select: a value, or a function (a lambda, a def) that returns it."""
    if expr is None:
        return UNKNOWN
    if isinstance(expr, cst.Lambda):
        return ev.value(expr.body, ev.resolver.scope_for(expr, scope), END)
    if isinstance(expr, (cst.Name, cst.Attribute)):
        callee = ev.resolver.callee(expr, scope, index)
        if callee is not None and callee.kind in ("function", "lambda"):
            call = ev.branch_calls.get(id(expr))
            if call is None:
                call = ev.branch_calls[id(expr)] = cst.Call(func=expr)
            return ev.value(call, scope, index)
    return ev.value(expr, scope, index)


def _tests(ev: Evaluation, condition: cst.BaseExpression, branch: cst.BaseExpression,
           value: Value, scope: Scope, index: int) -> bool:
    """Whether a select's ``condition`` tests its ``branch``: they share a variable
    (`where(x > 0, x, 1.)`, also through one assignment: `h = relu(x)`,
    `where(x > 0, h, 1.)`), or an operand of the condition carries the branch's
    evidence (`where(tf.equal(norm, 0.), 1., norm)`)."""
    if value.zero is None and value.negative is None:
        return True  # nothing to keep
    if _names(ev, condition, scope, index) & _names(ev, branch, scope, index):
        return True
    marks = {id(e.node) for e in (value.zero, value.negative) if e is not None}
    operands = [condition]
    while operands:
        operand = operands.pop()
        found = ev.value(operand, scope, index)
        if any(e is not None and id(e.node) in marks for e in (found.zero, found.negative)):
            return True
        if isinstance(operand, cst.Comparison):
            operands += [operand.left, *(c.comparator for c in operand.comparisons)]
        elif isinstance(operand, cst.BooleanOperation):
            operands += [operand.left, operand.right]
        elif isinstance(operand, cst.UnaryOperation):
            operands.append(operand.expression)
        elif isinstance(operand, cst.Call):
            operands += [a.value for a in operand.args if not a.star]
    return False


def _names(ev: Evaluation, expr: cst.BaseExpression, scope: Scope, index: int) -> Set[str]:
    """The variables ``expr`` reads, and those their assignments read (one level)."""
    names: Set[str] = set()
    for name in names_in(expr):
        for binding, where in ev.resolver.reaching(name, scope, index):
            if binding.kind in ("assign", "param", "augassign", "unpack", "element",
                                "unknown"):
                names.add(name)
                if binding.kind == "assign" and binding.value is not None:
                    names.update(names_in(binding.value))
    return names


# `x == reduce_max(x, axis, keepdims=True)` (or `>=`; the minimum with `==` or `<=`): true at
# one element at least along that axis, the extreme itself, so its sum there is >= 1. The tag
# carries the axis as written ("" for all axes).
ATTAINED = "attained:"
_EXTREMES = {"reduce_max": ("equal", "greater_equal", "Equal", "GreaterThanEqual"),
             "reduce_min": ("equal", "less_equal", "Equal", "LessThanEqual")}


def attained(ev: Evaluation, left: cst.BaseExpression, right: cst.BaseExpression,
             comparison: str, scope: Scope, index: int) -> FrozenSet[str]:
    """``{ATTAINED + axis}`` where ``left`` compared with ``right`` (``comparison``: the op's
    name or the operator's class name) marks where ``left`` reaches its own maximum or
    minimum along an axis (``right`` that extreme, written there or assigned to a name)."""
    if comparison in _REFLEXIVE and _pairwise(ev, left, right, scope, index):
        return frozenset({ATTAINED + "*"})  # the diagonal: every row and column holds one
    extreme = right
    if extreme.__class__ is cst.Name:
        binding, _ = ev.resolver.resolve(extreme.value, scope, index)
        extreme = binding.value if binding is not None and binding.kind == "assign" else None
    if extreme.__class__ is not cst.Call or not extreme.args:
        return frozenset()
    callee = ev.resolver.callee(extreme.func, scope, index)
    op = None
    if callee is not None and callee.kind == "op":
        op = callee.op
    elif callee is not None and callee.kind == "external" and callee.qualified:
        op = optable.named_like_op(callee.qualified)  # a compat wrapper's `reduce_max`
    if op is None or comparison not in _EXTREMES.get(op.name, ()) or not (
            extreme.args[0].value.deep_equals(left)):
        return frozenset()
    axis = axis_argument(extreme)
    return frozenset({ATTAINED + (_axis_code(ev, axis) if axis is not None else "")})


def comparison_tags(ev: Evaluation, left: cst.BaseExpression, right: cst.BaseExpression,
                    comparison: str, scope: Scope, index: int) -> FrozenSet[str]:
    """What a comparison's 0/1 value is known to hold, whatever its spelling (an op's name or
    the operator's class name): ``attained`` tags, and "always" where every element passes
    (``always_true``)."""
    tags = attained(ev, left, right, comparison, scope, index)
    return tags | {"always"} if always_true(ev, left, right, comparison, scope,
                                            index) else tags


def always_true(ev: Evaluation, left: cst.BaseExpression, right: cst.BaseExpression,
                comparison: str, scope: Scope, index: int) -> bool:
    """Whether ``left`` compared with ``right`` (``comparison``: the op's name or the
    operator's class name) holds everywhere, by the two values' ranges: `d > 0` of a `d` kept
    above 0 (`sqrt(maximum(x, 1e-12))`), `p < 2` of a probability."""
    a, b = ev.value(left, scope, index), ev.value(right, scope, index)
    if not (a.known and b.known) or a.zero is not None or a.negative is not None:
        return False
    # Closed bounds only: an open one is a limit float32 reaches (an exp's 0, a sigmoid's 1).
    if comparison in ("greater", "GreaterThan"):
        return a.lo > b.hi
    if comparison in ("greater_equal", "GreaterThanEqual"):
        return a.lo >= b.hi and not a.lo_open
    if comparison in ("less", "LessThan"):
        return a.hi < b.lo
    if comparison in ("less_equal", "LessThanEqual"):
        return a.hi <= b.lo and not a.hi_open
    if comparison in ("not_equal", "NotEqual") and b.const == 0:
        return a.lo > 0 or a.hi < 0
    return False


# Comparisons every value passes against itself (the op's name or the operator's class).
_REFLEXIVE = frozenset({"equal", "greater_equal", "less_equal", "Equal", "GreaterThanEqual",
                        "LessThanEqual"})


def _pairwise(ev: Evaluation, left: cst.BaseExpression, right: cst.BaseExpression,
              scope: Scope, index: int) -> bool:
    """Whether ``left`` and ``right`` lay one vector out along the two axes of a matrix, to
    compare every element with every other: `x` and `transpose(x)` or `x.T` (of a column
    `x`), `expand_dims(x, 0)` and `expand_dims(x, 1)`, `x[None, :]` and `x[:, None]`. The
    comparison's diagonal compares each element with itself."""
    def laid(expr: cst.BaseExpression) -> Tuple[cst.BaseExpression, str]:
        """What ``expr`` lays out and how: its vector, and "as is", "turned" or the axis it
        adds."""
        if expr.__class__ is cst.Attribute and expr.attr.value == "T":
            return expr.value, "turned"
        if expr.__class__ is cst.Call and expr.args:
            name = last_name(expr.func)
            if name in ("transpose", "matrix_transpose") and len(expr.args) == 1:
                return expr.args[0].value, "turned"
            if name in ("expand_dims", "unsqueeze") and len(expr.args) == 2:
                return expr.args[0].value, ev.resolver.code(expr.args[1].value)
        if expr.__class__ is cst.Subscript and len(expr.slice) == 2 and all(
                part.slice.__class__ is cst.Slice or dotted_code(part.slice.value) == "None"
                for part in expr.slice):  # `x[:, None]` adds axis 1, `x[None, :]` axis 0
            added = [i for i, part in enumerate(expr.slice) if part.slice.__class__ is cst.Index]
            if len(added) == 1:
                return expr.value, str(added[0])
        return expr, "as is"
    (a, how_a), (b, how_b) = laid(left), laid(right)
    # the layouts first: most comparisons pair none, and a vector's code costs a generation
    return {how_a, how_b} in ({"as is", "turned"}, {"0", "1"}, {"0", "-1"}) and (
        ev.resolver.code(a) == ev.resolver.code(b))


def _attained_tags(value: Value) -> FrozenSet[str]:
    return frozenset(tag for tag in value.tags if tag.startswith(ATTAINED))


def _axis_code(ev: Evaluation, axis: cst.BaseExpression) -> str:
    return "".join(ev.resolver.code(axis).split())


def zeros_marked(ev: Evaluation, left: cst.BaseExpression, right: cst.BaseExpression,
                  scope: Scope, index: int, operator: str = "equal") -> Optional[cst.CSTNode]:
    """For ``left == 0``, ``left <= c`` (c >= 0) or ``left < c`` (c > 0): the producer of
    ``left``'s zero evidence, whose zeros a mask of this comparison marks (with others)."""
    const = ev.value(right, scope, index).const
    if const is None or not (const == 0 if operator == "equal" else (
            const >= 0 if operator == "less_equal" else const > 0)):
        return None
    zero = ev.value(left, scope, index).zero
    return zero.node if zero is not None else None


def _leading_axes(axis: Optional[cst.BaseExpression]) -> bool:
    """An axis written as non-negative integers (``0``, ``[0, 1]``): leading axes, not the
    last one, where a one-hot keeps its classes."""
    items = ([element.value for element in axis.elements]
             if isinstance(axis, (cst.List, cst.Tuple)) else [axis])
    return bool(items) and all(item.__class__ is cst.Integer for item in items)
