"""Where values start: what a layer's activation yields, the state a metric keeps, the
gradients a tape returns, a parameter cast to a float; the dtype arguments of a call.

Functions of the resolver alone, used by the op model's transfer functions (``producers``)
and the evaluator: none of them needs the value of another expression.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from nanlint import optable
from nanlint.analysis.callsites import argument_expression
from nanlint.analysis.resolver import Resolver
from nanlint.analysis.lattice import UNKNOWN, Evidence, Value
from nanlint.analysis.precision import dtype_name, integer_dtype
from nanlint.analysis.scopes import Scope, dotted_parts
from nanlint.analysis.tree import descendants
from nanlint.optable import Op, Reason


def gradient(call: cst.Call, resolver: Optional[Resolver] = None,
             scope: Optional[Scope] = None, index: int = 0) -> Value:
    """The output of `tf.gradients`, `tape.gradient`, `tape.jacobian`, `compute_gradients`:
    0 wherever a relu is dead. Not so the gradient of a function of the file with respect to
    an input it computes (a gradient penalty's interpolate) where every unit of the function
    keeps a non-zero slope (``_slopes_never_zero``)."""
    computed = resolver is not None and scope is not None and _computed_input(
        resolver, call, scope, index)
    if computed and _slopes_never_zero(resolver, call, scope, index):
        return Value(known=True, tensor=True, tags=frozenset({"gradient"}), node=call)
    if computed:
        # An input always touches the output: its gradient is 0 in an example whose every
        # path is flat, and over the whole batch only where the model is flat on all of it.
        evidence = Evidence(call, "the gradient `{src}`", "which is exactly 0 in an example "
                            "wherever the units between it and the output are flat there "
                            "(a dead relu)", "high", producer="gradient", per_row=True)
    else:
        evidence = Evidence(call, "the gradient `{src}`", "which is exactly 0 wherever a "
                            "relu is dead or a variable does not touch the differentiated "
                            "value", "high", producer="gradient")
    return Value(zero=evidence, known=True, tensor=True, tags=frozenset({"gradient"}),
                 node=call)


# Activations whose slope is never 0 (an input gradient through them is never exactly 0),
# and those with a flat part (a dead relu, a clip), by the words of their names.
_SLOPED = frozenset({"lrelu", "elu", "selu", "tanh", "sigmoid", "softplus", "gelu", "swish",
                     "silu", "mish"})
_FLAT = frozenset({"relu6", "hard_sigmoid", "hard_tanh", "clip_by_value", "crelu", "clip"})


def _computed_input(resolver: Resolver, call: cst.Call, scope: Scope, index: int) -> bool:
    """`gradients(D(x), [x])` with respect to an input of the model, not its variables: an
    `x` computed by arithmetic (an interpolate of real and generated samples), or one a
    tape watches (`tape.watch(x)`: a tape records variables on its own)."""
    args = [arg.value for arg in call.args]
    if len(args) < 2:
        return False
    wrt = args[1]
    if isinstance(wrt, (cst.List, cst.Tuple)) and len(wrt.elements) == 1:
        wrt = wrt.elements[0].value
    if not isinstance(wrt, cst.Name):
        return False
    bound, _ = resolver.resolve(wrt.value, scope, index)
    if bound is not None and bound.kind == "assign" and isinstance(
            bound.value, cst.BinaryOperation):
        return True
    return scope.node is not None and any(
        isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "watch" and node.args
        and isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == wrt.value
        for node in descendants(scope.node))


def _slopes_never_zero(resolver: Resolver, call: cst.Call, scope: Scope, index: int) -> bool:
    """`gradients(D(x), [x])` with `x` computed by arithmetic (an interpolate of real and
    generated samples) and `D` a function of the file (followed through the functions of
    the file it calls, two deep) whose activations all keep a non-zero slope (leaky relu,
    elu, tanh, ...) and none is flat anywhere (a relu, a clip): every path from `x` to the
    output carries gradient, so the input gradient is not exactly 0."""
    target = call.args[0].value
    if isinstance(target, cst.Name):
        bound, _ = resolver.resolve(target.value, scope, index)
        target = bound.value if bound is not None and bound.kind == "assign" else None
    if not isinstance(target, cst.Call) or not isinstance(target.func, cst.Name):
        return False
    words: set = set()
    if not _activation_words(resolver, target.func.value, scope, index, 2, words):
        return False
    sloped = any(w in _SLOPED or "leaky" in w for w in words)
    flat = any(w in _FLAT or ("relu" in w and "leaky" not in w and w != "lrelu")
               for w in words)
    return sloped and not flat


def _activation_words(resolver: Resolver, name: str, scope: Scope, index: int, depth: int,
                      words: set) -> bool:
    """Add to ``words`` the lower-cased names called and the strings written in the function
    ``name`` of the file, and in the functions of the file it calls; False where ``name``
    is not such a function."""
    bound, where = resolver.resolve(name, scope, index)
    if bound is None or bound.kind != "def" or not isinstance(bound.node, cst.FunctionDef):
        return False
    for node in descendants(bound.node.body):
        if isinstance(node, cst.Call):
            called = node.func.attr.value if isinstance(node.func, cst.Attribute) else (
                node.func.value if isinstance(node.func, cst.Name) else "")
            words.add(called.lower())
            if isinstance(node.func, cst.Name) and depth > 0 and where is not None:
                _activation_words(resolver, called, where, bound.index, depth - 1, words)
        elif isinstance(node, cst.SimpleString):
            words.add(node.value.strip("'\"").lower())
    return True


def log_density(call: cst.Call) -> Value:
    """``dist.log_prob(x)`` and the other ``optable.LOG_DENSITY_METHODS``."""
    return Value(known=True, tensor=True, tags=frozenset({"log_probability"}), node=call)


def update_gradient(param: cst.Param) -> Value:
    """The gradient an optimizer's update method receives (``optable.UPDATE_METHODS``)."""
    evidence = Evidence(param, "`{src}`, the gradient an optimizer's update receives",
                        "which is exactly 0 wherever a relu is dead or a variable does not "
                        "touch the loss", "medium", producer="gradient")
    return Value(zero=evidence, known=True, tensor=True, tags=frozenset({"gradient"}))


def is_update_gradient(name: str, function: cst.FunctionDef, cls: Optional[cst.ClassDef]
                       ) -> Optional[cst.Param]:
    """``grad`` of ``def _resource_apply_dense(self, grad, var)`` in a subclass of an
    optimizer (a base class named like ``Optimizer``, ``OptimizerV2``): that parameter."""
    params = function.params.params
    if (cls is None or function.name.value not in optable.UPDATE_METHODS or len(params) < 2
            or params[1].name.value != name):
        return None
    bases = [(dotted_parts(base.value) or [""])[-1] for base in cls.bases]
    if not any(b.startswith("Optimizer") or b.endswith("Optimizer") for b in bases):
        return None
    return params[1]


def dtype_argument(resolver: Resolver, call: cst.Call, scope: Scope, index: int) -> Optional[str]:
    """``dtype=tf.float16`` or ``dtype="float16"``, or the dtype of ``tf.cast(x, D)``."""
    expr = _dtype_expression(resolver, call, scope, index)
    if expr is None:
        return None
    return dtype_name(expr)


def casts_to_integer(resolver: Resolver, call: cst.Call, scope: Scope, index: int) -> bool:
    """``tf.cast(x, tf.int32)``, ``dtype="int64"``: an integer dtype (whole numbers)."""
    return integer_dtype(_dtype_expression(resolver, call, scope, index))


def _dtype_expression(resolver: Resolver, call: cst.Call, scope: Scope, index: int
                      ) -> Optional[cst.BaseExpression]:
    expr = resolver.keyword(call, "dtype")
    callee = resolver.callee(call.func, scope, index)
    if expr is None and callee is not None and callee.op is not None and (
            callee.op.transfer == "cast") and len(call.args) > 1:
        expr = call.args[1].value
    return expr


# A trained weight: initialized with both signs, and it takes both as it learns.
_TRAINED_WEIGHT = Value(tensor=True, tags=frozenset({"variable"}))


def state_variable(resolver: Resolver, call: cst.Call, scope: Scope, index: int) -> Value:
    """``self.add_weight(..., initializer="zeros")`` that is not trained (a metric's
    state, or ``trainable=False``): 0 until it is updated, and again after each reset."""
    trainable = resolver.keyword(call, "trainable")
    if trainable is None:
        metric = scope.cls is not None and any(
            (dotted_parts(base.value) or [""])[-1].endswith("Metric")
            for base in scope.cls.bases)
        if not metric:
            return _TRAINED_WEIGHT  # a layer's weight: trainable by default
    elif not (isinstance(trainable, cst.Name) and trainable.value == "False"):
        return _TRAINED_WEIGHT
    if not zero_initializer(resolver, resolver.keyword(call, "initializer"), scope, index):
        return Value(tensor=True)
    evidence = Evidence(call, "a state variable made by `{op}`", "which starts at 0 (a "
                        "zeros initializer) and is 0 again after every reset, until an "
                        "update", "medium",
                        producer="state")
    return Value(zero=evidence, known=True, tensor=True, tags=frozenset({"state"}))


def zero_initializer(resolver: Resolver, expr: Optional[cst.BaseExpression], scope: Scope,
                      index: int) -> bool:
    if isinstance(expr, cst.SimpleString):
        return expr.evaluated_value in optable.ZERO_INITIALIZERS
    if isinstance(expr, cst.Call):
        expr = expr.func
    if expr is None:
        return False
    callee = resolver.callee(expr, scope, index)
    return callee is not None and callee.op is not None and (
        callee.op.name == "zeros_initializer")


def float_cast_of_parameter(resolver: Resolver, call: cst.Call, op: Op, scope: Scope,
                             index: int) -> bool:
    """``tf.cast(labels, tf.float32)`` of a parameter: summed, it counts by convention."""
    expr = resolver.argument(call, op, 0)
    if not isinstance(expr, cst.Name):
        return False
    binding, _ = resolver.resolve(expr.value, scope, index)
    if binding is None or binding.kind != "param":
        return False
    dtype = dtype_argument(resolver, call, scope, index)
    spelling = resolver.code(call.func).rsplit(".", 1)[-1]
    return dtype in ("float32", "float16", "float64") or spelling in ("to_float",
                                                                       "cast_to_floatx")


def gradient_method(resolver: Resolver, call: cst.Call, scope: Scope, index: int) -> bool:
    """``tape.gradient(y, x)``, ``opt.compute_gradients(loss)``: a method that returns
    gradients, not a module's function (``np.gradient``)."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    least = optable.GRADIENT_METHODS.get(func.attr.value)
    if least is None or len([a for a in call.args if not a.star]) < least:
        return False
    parts = dotted_parts(func.value)
    if parts:
        binding, _ = resolver.resolve(parts[0], scope, index)
        if binding is not None and binding.kind == "import":
            return False
    return True


def layer(resolver: Resolver, op: Op, call: cst.Call, scope: Scope, index: int) -> Value:
    if op.activation is not None:
        activation = op.activation
    else:
        expr = resolver.keyword(call, "activation")
        if expr is None and "activation" in op.args:
            expr = resolver.argument(call, op, op.args.index("activation"))
        activation = activation_name(resolver, expr, scope, index)
    if activation is None:
        return UNKNOWN
    return Value(layer=activation, node=call)


def activation_name(resolver: Resolver, expr: Optional[cst.BaseExpression], scope: Scope,
                     index: int) -> Optional[str]:
    if expr is None or (isinstance(expr, cst.Name) and expr.value == "None"):
        return "linear"  # no activation: a linear output
    if isinstance(expr, cst.SimpleString):
        return optable.ACTIVATION_STRINGS.get(expr.evaluated_value)
    if isinstance(expr, cst.Name):  # `activation=activation`: a parameter, a variable
        binding, where = resolver.resolve(expr.value, scope, index)
        if binding is not None and where is not None and binding.kind == "param":
            activation = resolver.within(where)
            if activation is None or activation.scope is not where:
                resolver.param_readers.add(id(where.node))
                return None
            argument = argument_expression(expr.value, activation)
            if argument is None:
                return None
            value, (at, at_index) = argument
            return resolver.outside(lambda: activation_name(resolver, value, at, at_index))
        if binding is not None and where is not None and binding.kind == "assign" and (
                isinstance(binding.value, cst.SimpleString)):
            return activation_name(resolver, binding.value, where, binding.index)
    callee = resolver.callee(expr, scope, index)
    if callee is not None and callee.kind == "op" and callee.op is not None:
        return callee.op.name
    return None


def activation_value(activation: str, node: cst.CSTNode) -> Value:
    op = optable.TABLE.by_name.get(activation)
    if op is None:
        return UNKNOWN
    if op.transfer == "exp":
        return Value(lo=0.0, lo_open=True, known=True, tensor=True, tags=frozenset({"exp"}))
    return table_value(op, node, "the output of `{src}`")


def table_value(op: Op, node: cst.CSTNode, what: str = "the output of `{op}`") -> Value:
    def evidence(reason: Optional[Reason]) -> Optional[Evidence]:
        if reason is None:
            return None
        return Evidence(node, what, reason.why, reason.confidence, reason.aggregate,
                        reason.discrete, tiny=reason.tiny, producer=op.name)
    bound = None
    tags = frozenset(op.tags)
    if op.name in _BOUND_REACHED:
        bound = Evidence(node, what, _BOUND_REACHED[op.name], "high", producer=op.name)
    elif op.name == "l2_normalize":
        tags = tags | {"unit"}  # a dot of two such rows is a cosine
    return Value(lo=op.lo, hi=op.hi, lo_open=op.lo_open, hi_open=op.hi_open,
                 zero=evidence(op.zero), negative=evidence(op.negative), known=True,
                 tensor=True, tags=tags, node=node, bound=bound)


# Ops whose output reaches the ends of its range (±1), and why (the lattice's ``bound``).
_BOUND_REACHED = {
    "tanh": "which saturates to exactly ±1 in float32 once |x| passes 7.9",
    "cosine_similarity": "which is ±1 for parallel vectors",
}
