"""The hazardous operations of a module, for `nanlint suspects` (``nanlint.suspects``).

Every operation with a singular point (``KINDS``: divisions, logs, roots, fractional powers,
exp, inverse trigonometry, norms, deviations, lgamma, float16 casts, learning rates) is
collected during the rules' walk, with what the value analysis knows of its operand, where
its value goes, and what the operand's form says whatever the names (``Sites._form``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

import libcst as cst

from nanlint.analysis import Analysis, Value
from nanlint.analysis.sinks import Reach
from nanlint.analysis.callsites import keyword_argument
from nanlint.analysis.tree import children, last_name


@dataclass(frozen=True)
class Kind:
    """A kind of hazardous operation: the rule (or family) it belongs to, and where it is
    singular: at an operand of 0, for a negative operand, for a huge one."""

    code: str
    name: str
    what: str  # "a division by", "the log of", ...: the message's words before the operand
    weight: float  # a small preference among kinds with the same evidence
    zero: bool = False
    negative: bool = False
    huge: bool = False
    gradient: bool = False  # singular in the gradient only (finite forward): needs a gradient


KINDS: Dict[str, Kind] = {kind.name: kind for kind in (
    Kind("NAN101", "division", "division by", 0.5, zero=True),
    Kind("NAN102", "log", "log of", 0.6, zero=True, negative=True),
    Kind("NAN102", "log1p", "log1p of", -0.5),
    Kind("NAN201", "sqrt", "square root of", 0.4, zero=True, negative=True, gradient=True),
    Kind("NAN101", "rsqrt", "reciprocal square root of", 0.4, zero=True, negative=True),
    Kind("NAN201", "pow", "fractional power of", 0.3, zero=True, negative=True,
         gradient=True),
    Kind("NAN104", "exp", "exp of", 0.2, huge=True),
    Kind("NAN201", "inverse-trig", "inverse trigonometric function of", 0.4, gradient=True),
    Kind("NAN202", "norm", "norm of", 0.3, zero=True, gradient=True),
    Kind("NAN201", "std", "standard deviation of", 0.3, zero=True, gradient=True),
    Kind("NAN101", "variance", "variance of", -0.5),
    Kind("NAN102", "gamma", "lgamma/digamma of", 0.2, zero=True),
    Kind("NAN401", "float16", "float16 cast of", 0.0),
    Kind("NAN301", "learning-rate", "learning rate", 0.0),
)}

# The last part of a call's qualified name (`tensorflow.math.log` → `log`) → its kind, for
# calls into these libraries. `divide_no_nan`, `log_softmax`, `softplus`, `xlogy` and the
# fused losses are guarded by construction and are not listed.
CALLS: Dict[str, str] = {
    **dict.fromkeys(("divide", "truediv", "realdiv", "div", "true_divide", "reciprocal"),
                    "division"),
    **dict.fromkeys(("log", "log2", "log10"), "log"),
    "log1p": "log1p", "sqrt": "sqrt", "rsqrt": "rsqrt", "pow": "pow", "power": "pow",
    **dict.fromkeys(("exp", "expm1", "exp2"), "exp"),
    **dict.fromkeys(("acos", "asin", "arccos", "arcsin", "acosh", "atanh", "arctanh"),
                    "inverse-trig"),
    **dict.fromkeys(("norm", "euclidean_norm"), "norm"),
    **dict.fromkeys(("reduce_std", "std", "nanstd"), "std"),
    **dict.fromkeys(("reduce_variance", "var", "variance", "moments"), "variance"),
    **dict.fromkeys(("lgamma", "digamma", "gammaln", "polygamma"), "gamma"),
}
LIBRARIES = frozenset({"tensorflow", "keras", "tf_keras", "numpy", "math", "scipy",
                       "operator", "tensorflow_probability"})
# The parameters that name an op's input when it is passed by keyword (`tf.log(x=p)`).
INPUTS = ("x", "input", "input_tensor", "a", "features", "t", "tensor", "value", "values",
          "logits")
# Distributions made from probabilities take their log (log_prob, entropy, sampling).
DISTRIBUTIONS = frozenset({"Categorical", "Bernoulli", "OneHotCategorical", "Multinomial",
                           "Binomial", "Geometric", "NegativeBinomial",
                           "RelaxedOneHotCategorical", "RelaxedBernoulli"})
SQUARES = frozenset({"square", "squared_difference", "subtract"})
MAXIMA = frozenset({"max", "maximum", "fmax", "amax"})  # `max(std, eps)` is at least eps
# Statistics that are 0 for an all-zero or a constant input (a dead row, a constant column):
# reductions, and the root of one (a deviation, an RMS, Adam's `sqrt(v)`).
STATISTICS = frozenset({"sqrt", "std", "reduce_std", "nanstd", "var", "reduce_variance",
                        "variance", "norm", "euclidean_norm", "reduce_sum", "sum", "nansum",
                        "reduce_mean", "mean", "average", "amax", "max", "reduce_max",
                        "count_nonzero", "trace", "reduce_prod", "prod"})
# Array methods with a singular point (`x.std(0)` of a constant column is 0).
METHODS: Dict[str, str] = {"std": "std", "var": "variance", "log": "log", "sqrt": "sqrt"}
CASTS = frozenset({"cast", "astype", "convert_to_tensor", "constant", "array", "asarray"})
OPTIMIZER = re.compile(r"(Optimizer|^SGD|^Adam\w*|^RMS[Pp]rop|^Adagrad|^Adadelta|^Adamax|"
                       r"^Nadam|^Ftrl|^Lion|^Momentum\w*|^GradientDescent\w*)$")
LEARNING_RATE_KEYWORDS = frozenset({"learning_rate", "lr"})
LEARNING_RATE = re.compile(r"(^|_)(learning_rate|lr)$", re.IGNORECASE)
# Names that give a tensor's size: at least 1 in practice (an empty batch aside).
SIZES = frozenset({"shape", "size", "len", "get_shape", "num_elements", "batch_size",
                   "n_samples", "num_samples", "count_params"})


@dataclass
class Site:
    node: cst.CSTNode  # the operation (a call, a binary operation, a literal)
    kind: Kind
    operand: Optional[cst.BaseExpression]
    value: Value
    reach: Reach
    statement: Optional[cst.CSTNode]
    note: str = ""  # what the operand is when that ranks it down (a size, a constant)
    form: str = ""  # what the operand's form says (a difference, a statistic), see _form
    rate: float = 0.0  # a learning rate's value


class Sites:
    """The hazardous operations of a module, collected during the rules' walk (the value
    analysis and gradient reach answer for the current function only then)."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.found: List[Site] = []

    def handlers(self) -> List[Tuple[type, Callable[[cst.CSTNode], None]]]:
        return [(cst.BinaryOperation, self.binary), (cst.AugAssign, self.augmented),
                (cst.Call, self.call), (cst.Assign, self.assign)]

    def assign(self, node: cst.Assign) -> None:
        """`learning_rate = 0.1`: a learning rate written where it is set."""
        if any(target.target.__class__ is cst.Name and LEARNING_RATE.search(
                target.target.value) for target in node.targets):
            self._learning_rate(node.value)

    def _learning_rate(self, expr: cst.BaseExpression) -> None:
        number = self.analysis.number(expr)
        if number is not None and number.value > 0:
            # Where the number is written: a module constant, a flag's default.
            self.add(number.node, "learning-rate", None, rate=number.value)

    def add(self, node: cst.CSTNode, kind_name: str, operand: Optional[cst.BaseExpression],
            rate: float = 0.0) -> None:
        analysis = self.analysis
        kind = KINDS[kind_name]
        value = analysis.value(operand) if operand is not None else Value()
        if operand is not None and _harmless_constant(value, kind):
            return
        note = ("its operand is a size" if kind.name == "division" and operand is not None
                and _is_size(operand) else "")
        statements = analysis.cursor.statements
        self.found.append(Site(node, kind, operand, value, analysis.reach(node),
                               statements[-1] if statements else None, note,
                               self._form(node, kind, operand), rate))

    def _form(self, node: cst.CSTNode, kind: Kind, operand: Optional[cst.BaseExpression]
              ) -> str:
        """Evidence from the form of the operand, whatever the names: a difference is 0
        where its sides are equal, a statistic for an all-zero or constant input; an exp
        whose result a log or a division takes is a hand-written softplus, softmax or
        sigmoid, inf once its input passes 88."""
        if kind.huge:
            return "hand-written" if self._inside_log_or_division(node) else ""
        if operand is None or not (kind.zero or kind.negative):
            return ""
        if self._tested_first(node):
            return "guarded: the expression tests its operand first"
        expr = operand
        if expr.__class__ is cst.Name:
            expr = self.analysis.definition(expr) or expr
        if expr.__class__ is cst.Call and self._call_name(expr) in MAXIMA and any(
                (number := self.analysis.number(arg.value)) is not None and number.value > 0
                for arg in expr.args):
            return "guarded: a maximum with a positive number"
        if expr.__class__ is cst.BinaryOperation and expr.operator.__class__ is cst.Subtract:
            return "difference"
        if kind.name in ("sqrt", "pow", "norm"):
            # A root of a sum of squares or of squared differences (a distance, an RMS) is
            # 0 where the points coincide or the input is all zero.
            for inner in _walk(expr):
                if (inner.__class__ is cst.BinaryOperation
                        and inner.operator.__class__ is cst.Subtract) or (
                        inner.__class__ is cst.Call and self._call_name(inner) in SQUARES):
                    return "distance"
        if expr.__class__ is cst.Call and self._call_name(expr) in STATISTICS and not (
                self._of_constants(expr)) and not (self._call_name(expr) in MAXIMA and sum(
                    arg.keyword is None for arg in expr.args) > 1):  # `max(a, b)`: no reduction
            return "statistic"
        return ""

    def _of_constants(self, call: cst.Call) -> bool:
        """`np.sqrt(2)`: a call whose data (its positional arguments, and the receiver of a
        method) are all numbers is a constant, not a statistic of data."""
        data = [arg.value for arg in call.args if arg.keyword is None]
        if self.analysis.qualified_name(call.func) is None and \
                call.func.__class__ is cst.Attribute:
            data.append(call.func.value)
        return bool(data) and all(self.analysis.number(d) is not None for d in data)

    def _call_name(self, call: cst.Call) -> str:
        """The last part of what a call calls: `reduce_sum` for `tf.math.reduce_sum`."""
        name = self.analysis.qualified_name(call.func)
        # else a builtin, a method, or a name the resolver does not know
        return name.rpartition(".")[2] if name else last_name(call.func)

    def _tested_first(self, node: cst.CSTNode) -> bool:
        """`0 if d == 0 else n / d`, `n / d if d > 0 else 0`: a conditional expression whose
        test compares something with 0 before the branch that holds ``node`` runs."""
        child, parent = node, self.analysis.parent(node)
        while parent is not None and not isinstance(parent, cst.BaseSmallStatement):
            if parent.__class__ is cst.IfExp and child is not parent.test and (
                    parent.test.__class__ is cst.Comparison):
                return any(self.analysis.number(target.comparator) is not None
                           for target in parent.test.comparisons)
            child, parent = parent, self.analysis.parent(parent)
        return False

    def _inside_log_or_division(self, node: cst.CSTNode) -> bool:
        child, parent = node, self.analysis.parent(node)
        while parent is not None and not isinstance(parent, cst.BaseSmallStatement):
            if parent.__class__ is cst.BinaryOperation and parent.operator.__class__ is \
                    cst.Divide and parent.right is child:
                return True
            if parent.__class__ is cst.Call:
                name = self.analysis.qualified_name(parent.func) or ""
                if CALLS.get(name.rpartition(".")[2]) in ("log", "division"):
                    return True
            child, parent = parent, self.analysis.parent(parent)
        return False

    def binary(self, node: cst.BinaryOperation) -> None:
        self._arithmetic(node, node.operator, node.left, node.right)

    def augmented(self, node: cst.AugAssign) -> None:
        self._arithmetic(node, node.operator, node.target, node.value)

    def _arithmetic(self, node: cst.CSTNode, operator: cst.CSTNode,
                    left: cst.BaseExpression, right: cst.BaseExpression) -> None:
        """`a / b`, `a /= b` (a division by b), `a ** p`, `a **= p` (a power of a)."""
        kind = operator.__class__
        if kind is cst.Divide or kind is cst.DivideAssign:
            self.add(node, "division", right)
        elif kind is cst.Power or kind is cst.PowerAssign:
            self._power(node, left, right)

    def _power(self, node: cst.CSTNode, base: cst.BaseExpression,
               exponent: cst.BaseExpression) -> None:
        number = self.analysis.number(exponent)
        if number is not None and number.value < 1 and number.value != 0:
            self.add(node, "sqrt" if number.value == 0.5 else "pow", base)

    def call(self, call: cst.Call) -> None:
        func = call.func
        qualified = self.analysis.qualified_name(func)
        if qualified is None:
            if func.__class__ is cst.Attribute and func.attr.value in METHODS:
                self.add(call, METHODS[func.attr.value], func.value)
            elif func.__class__ is cst.Attribute and func.attr.value == "astype":
                self._cast(call, func.value)
            return
        last = qualified.rpartition(".")[2]
        if qualified.partition(".")[0] not in LIBRARIES:
            return
        kind = CALLS.get(last)
        args = [arg for arg in call.args if arg.keyword is None]
        first = args[0].value if args else _keyword(call, *INPUTS)
        if kind == "division":
            operand = first if last == "reciprocal" else (args[1].value if len(args) > 1
                                                          else _keyword(call, "y"))
            self.add(call, kind, operand)
        elif kind == "pow":
            exponent = args[1].value if len(args) > 1 else _keyword(call, "y", "exponent")
            number = self.analysis.number(exponent) if exponent is not None else None
            if number is None or (number.value < 1 and number.value != 0):
                self.add(call, kind, first)
        elif kind is not None:
            self.add(call, kind, first)
        elif last in CASTS:
            self._cast(call, first)
        elif last in DISTRIBUTIONS and _keyword(call, "probs") is not None:
            self.add(call, "log", _keyword(call, "probs"))
        elif OPTIMIZER.search(last):
            rate = _keyword(call, *LEARNING_RATE_KEYWORDS) or first
            if rate is not None:
                self._learning_rate(rate)
        elif last.startswith("DEFINE_") or last == "add_argument":
            # A flag or command-line option named like a learning rate: its default.
            name = first.value.strip("'\"-") if first.__class__ is cst.SimpleString else ""
            default = _keyword(call, "default") or (args[1].value if len(args) > 1 else None)
            if default is not None and LEARNING_RATE.search(name):
                self._learning_rate(default)

    def _cast(self, call: cst.Call, operand: Optional[cst.BaseExpression]) -> None:
        if any(self.analysis.dtype_name(arg.value) == "float16" for arg in call.args):
            self.add(call, "float16", operand)


def _keyword(call: cst.Call, *names: str) -> Optional[cst.BaseExpression]:
    """The argument passed by the first of ``names`` the call uses."""
    return next((found for name in names
                 if (found := keyword_argument(call, name)) is not None), None)


def _harmless_constant(value: Value, kind: Kind) -> bool:
    """A literal or known constant away from the singular point: not a hazard at all."""
    if value.const is None:
        return False
    if kind.zero and value.const == 0:
        return False
    return not (kind.negative and value.const < 0)


def _is_size(expr: cst.BaseExpression) -> bool:
    """A shape, a length or a batch size (a name or an attribute's name): at least 1 in
    practice."""
    return any((node.__class__ is cst.Name and node.value in SIZES) or (
        node.__class__ is cst.Attribute and node.attr.value in SIZES) for node in _walk(expr))


def _walk(expr: cst.CSTNode) -> List[cst.CSTNode]:
    """``expr`` and every node below it."""
    found, stack = [], [expr]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(children(node))
    return found
