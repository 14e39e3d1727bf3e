"""What happens to a value where it is used: the facts gradient reach is built on.

:class:`Reach` says where a value can go (a differentiated objective, somewhere unknown, or
nowhere a gradient is taken, and why). The tables below say, as data, which calls end a
value without a gradient (metrics, summaries, logs, fetches, assertions, casts to integers,
``argmax``...), which calls are objectives (``minimize``, ``tape.gradient``, ``add_loss``), and
which arguments are conditions or indices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import FrozenSet, Optional

import libcst as cst

from nanlint.analysis.defuse import dotted
from nanlint.optable import ARRAY_METHODS, LOG_DENSITY_METHODS, unaliased

NONE, UNKNOWN, OBJECTIVE = 0, 1, 2


@dataclass(frozen=True)
class Reach:
    level: int
    why: str = ""  # for NONE: where the value ends, "in a metric", "only logged", ...
    # Only for UNKNOWN: the module's functions whose callers, all outside the module, are
    # the only unknown places the value goes (what they return is the value's way out);
    # empty where anything else is unknown (an attribute of an object, a value passed
    # around), and at every other level.
    callers: FrozenSet[str] = frozenset()

    @property
    def gradient(self) -> bool:
        """The value may reach a differentiated objective (or nothing says it cannot)."""
        return self.level != NONE


REACHES_OBJECTIVE = Reach(OBJECTIVE)
REACH_UNKNOWN = Reach(UNKNOWN)
NOWHERE = Reach(NONE)  # no path at all (a loop-carried value that never leaves the loop)


def join(a: Reach, b: Reach) -> Reach:
    if b.level > a.level or (b.level == a.level == NONE and not a.why):
        return b
    if a.level == b.level == UNKNOWN and a.callers != b.callers:
        # only callers elsewhere where both are so; anything else unknown stays unknown
        return REACH_UNKNOWN if not (a.callers and b.callers) else Reach(
            UNKNOWN, callers=a.callers | b.callers)
    return a


def called_elsewhere(function: str) -> Reach:
    """The reach of what a module's function returns when the module does not call it:
    its callers, outside the module, decide."""
    return Reach(UNKNOWN, callers=frozenset({function}))


def none(why: str) -> Reach:
    return Reach(NONE, why)


IN_METRIC = none("in a metric")
# A `(y_true, y_pred)` function named as an accuracy: Keras gives metrics a loss's signature,
# and an accuracy, unlike an F1, a precision or an IoU, has no soft form trained as a loss.
METRIC_NAME = re.compile(r"accuracy|(^|_)acc(_|$)")
# Parameters only a TF1 metric takes (`tf.metrics.*(labels, predictions, weights,
# metrics_collections, updates_collections, name)`): its `labels` make it no objective.
METRIC_PARAMETERS = frozenset({"metrics_collections", "updates_collections"})
# Where an Estimator's model function hands over its evaluation metrics
# (`EstimatorSpec(eval_metric_ops=...)`, `TPUEstimatorSpec(eval_metrics=...)`).
METRIC_KEYWORDS = frozenset({"eval_metric_ops", "eval_metrics"})
LOGGED = none("only logged")
SUMMARIZED = none("only summarized")
FETCHED = none("only fetched by sess.run")
EVALUATED = none("only evaluated by `K.function`")
ASSERTED = none("in an assertion")
COMPARED = none("in a comparison")
CONDITION = none("in a condition")
NUMPY = none("converted to a NumPy value")
CUT = none("after an op without gradient")
STOPPED = none("after stop_gradient")
ASSIGNED = none("assigned to a variable")
CUSTOM = none("under @tf.custom_gradient")
IN_TEST = none("in a test")
# A Keras model's evaluation step: no gradient is taken there, but it is no test; its loss
# is the `val_loss` a user watches.
IN_EVALUATION = none("in an evaluation step")
EVALUATION_METHODS = frozenset({"test_step", "test_on_batch", "test_function"})
# The logits of a categorical sampler: integer draws (no gradient), and a logit of -inf is a
# probability of exactly 0, which the sampler honours.
SAMPLED = none("only the logits of a sampler")
_SAMPLERS = frozenset({"multinomial", "categorical", "stateless_categorical"})

# -- what calls do with their arguments ----------------------------------------------------
# Method names: objectives (argument 0 or the keyword), and where other arguments go.
OBJECTIVE_METHODS = {"minimize": "loss", "compute_gradients": "loss", "get_gradients": "loss",
                      "gradient": "target", "jacobian": "target", "batch_jacobian": "target",
                      "add_loss": "losses", "compute_loss": ""}
METRIC_METHODS = frozenset({"update_state", "result", "reset_state", "reset_states",
                             "merge_state"})
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "critical",
                          "exception", "log"})
_ASSIGN_METHODS = frozenset({"assign", "assign_add", "assign_sub", "scatter_update",
                             "scatter_add", "scatter_nd_update"})
CONTAINER_METHODS = frozenset({"append", "extend", "insert", "add", "update", "write"})
# Attributes of a tensor that carry no gradient (as values, or as methods called).
NO_GRADIENT_ATTRIBUTES = frozenset({"numpy", "eval", "item", "tolist", "shape", "dtype",
                                     "get_shape", "ndim", "name", "device", "op", "graph",
                                     "detach"})
# An array's methods whose result is computed from the array, gradient included: the op
# model's (`x.mean()`, `x.pow(2)`, `x.log()`) and those that keep its values (a new shape,
# order or type, a copy, a clamp). The value goes on to the call's result, as through
# `tf.reduce_mean(x)`.
CARRYING_METHODS = frozenset({
    *ARRAY_METHODS, "var", "logsumexp", "log_softmax", "cumsum", "clamp_min",
    "clamp_max", "astype", "reshape", "view", "view_as", "flatten", "ravel", "squeeze",
    "unsqueeze", "expand", "expand_as", "transpose", "permute", "contiguous", "copy", "clone",
    "float", "double", "half", "to", "type", "type_as", "masked_fill", "repeat", "flip",
    # a distribution's densities and divergences, of the parameters it was made from
    *LOG_DENSITY_METHODS, "prob", "entropy", "cross_entropy", "kl_divergence"})
# TF/Keras functions (last name) whose output has no gradient, or that consume the value.
_CUT_FUNCTIONS = frozenset({
    "argmax", "argmin", "argsort", "round", "rint", "floor", "ceil", "sign", "floordiv",
    "floor_divide", "floor_div", "equal", "not_equal", "greater", "greater_equal", "less",
    "less_equal", "logical_and", "logical_or", "logical_not", "logical_xor", "is_nan",
    "is_inf", "is_finite", "isnan", "isinf", "isfinite", "shape", "shape_n", "size", "rank",
    "count_nonzero", "unique", "searchsorted", "bincount", "in_top_k", "reduce_all",
    "reduce_any", "to_int32", "to_int64", "histogram_fixed_width", "top_k_indices",
    "zeros_like", "ones_like", "empty_like",  # of the shape alone
})
_INTEGER_DTYPES = re.compile(r"\b(u?int(8|16|32|64)|bool)\b")
# Arguments that are conditions or indices: (last name -> positions and keywords).
_INDEX_ARGUMENTS = {"where": (0, "condition"), "where_v2": (0, "condition"),
                    "switch": (0, "condition"), "cond": (0, "pred"),
                    "gather": (1, "indices"), "gather_nd": (1, "indices"),
                    "one_hot": (0, "indices"), "boolean_mask": (1, "mask"),
                    "sequence_mask": (0, "lengths")}
BUILTINS_WITHOUT_GRADIENT = {"print": LOGGED, "float": NUMPY, "int": CUT, "bool": CUT,
                              "str": LOGGED, "repr": LOGGED, "format": LOGGED, "len": CUT,
                              "round": CUT, "isinstance": CUT, "type": CUT, "id": CUT,
                              "hasattr": CUT, "range": CUT}
PASSING_BUILTINS = frozenset({"list", "tuple", "sum", "max", "min", "abs", "zip", "enumerate",
                               "sorted", "reversed", "dict", "set", "iter", "next", "map"})
# Methods that the framework calls: their results go to unknown callers.
FRAMEWORK_METHODS = frozenset({"call", "__call__", "build", "get_config", "forward",
                                "compute_output_shape", "predict_step"})
OBJECTIVE_FUNCTIONS = frozenset({"train_step", "compute_loss"})
# A method of a value that differentiates it: PyTorch's `loss.backward()`.
DIFFERENTIATING_METHODS = frozenset({"backward"})


def normalized(qualified: str) -> str:
    """``qualified`` with TensorFlow's and Keras's aliases of a module rewritten, as the op
    table reads them (`tensorflow._api.v1.keras.backend` is `keras.backend`)."""
    return unaliased(qualified)



def sink(func: cst.BaseExpression, qualified: str, last: str, method: bool,
          call: cst.Call, arg: cst.Arg, position: Optional[int],
          keyword: Optional[str]) -> Optional[Reach]:
    """Where calls end a value: metrics, summaries, logs, fetches, cuts; else None."""
    tensorflow = qualified.startswith(("tensorflow.", "keras."))
    if method and last in METRIC_METHODS:
        return IN_METRIC
    if qualified.startswith("tensorflow.metrics.") or (
            qualified.startswith("keras.metrics.") and last[:1].isupper()):
        return IN_METRIC
    if keyword in METRIC_KEYWORDS:
        return IN_METRIC
    if ".summary." in qualified or qualified.startswith("tensorflow.summary"):
        return SUMMARIZED
    if last in ("add_to_collection", "add_to_collections") and (
            position == 1 or keyword == "value") and _summaries(call):
        return SUMMARIZED  # TF1's summaries collection (not `losses`: those are summed)
    if qualified == "tensorflow.print" or qualified.startswith(
            ("logging.", "absl.logging.", "tensorflow.logging.")):
        return LOGGED
    if method and last in _LOG_METHODS and "log" in dotted(func.value).lower():
        return LOGGED
    if (last.startswith("assert") and last != "assert_all_finite") or last == "Assert":
        return ASSERTED
    if last == "stop_gradient":
        return STOPPED
    if last == "control_dependencies":
        return none("a control dependency")
    if method and last == "run" and ("sess" in dotted(func.value).lower()
                                     or "Session" in qualified):
        return FETCHED
    if qualified == "keras.backend.function":
        return EVALUATED  # the function it makes runs the graph: NumPy values come out
    if method and last in _ASSIGN_METHODS:
        return ASSIGNED
    if qualified.startswith(("numpy.", "math.")):
        return NUMPY
    if tensorflow or (not qualified and last in ("cast", "argmax")):
        if last in _SAMPLERS and (position == 0 or keyword == "logits"):
            return SAMPLED
        if last in _CUT_FUNCTIONS:
            return CUT
        if last == "cast" and (position == 0 or keyword == "x") and _to_integers(call):
            return none("cast to an integer type")
        index = _INDEX_ARGUMENTS.get(last)
        if index is not None and (position == index[0] or keyword == index[1]):
            return none("a condition or an index")
    return None


def _summaries(call: cst.Call) -> bool:
    """Whether an `add_to_collection` call names a collection of summaries
    (`tf.GraphKeys.SUMMARIES`, `"train_summaries"`)."""
    name = next((a.value for a in call.args if a.keyword is None or a.keyword.value in (
        "name", "names")), None)
    text = (name.evaluated_value if isinstance(name, cst.SimpleString)
            else dotted(name) if name is not None else "")
    return isinstance(text, str) and "summar" in text.lower()


def _to_integers(call: cst.Call) -> bool:
    """Whether a `cast` call's dtype is an integer or boolean type."""
    dtype = [a.value for a in call.args if a.keyword is None][1:2] or [
        a.value for a in call.args if a.keyword and a.keyword.value == "dtype"]
    text = (dtype[0].evaluated_value if dtype and isinstance(
        dtype[0], cst.SimpleString) else dotted(dtype[0]) if dtype else "")
    return isinstance(text, str) and bool(_INTEGER_DTYPES.search(text))


# Whose output TensorFlow gives no gradient back to the inputs, besides the _CUT_FUNCTIONS
# and the samplers (checked under TensorFlow). `tf.py_function` is not one: in eager mode
# its gradient is taken through the Python function.
_OPAQUE = frozenset({"stop_gradient", "numpy_function", "py_func"})


def without_gradient(call: cst.Call, last: str) -> bool:
    """Whether the output of a TensorFlow or Keras call ``last`` passes no gradient back to
    its inputs: `stop_gradient`, `numpy_function`, a cast to an integer or boolean type,
    rounding, comparisons, `argmax`, a sampler's draws."""
    return (last in _OPAQUE or last in _CUT_FUNCTIONS or last in _SAMPLERS
            or (last == "cast" and _to_integers(call)))
