"""The hazardous operations of a module, for `nanlint suspects` (``nanlint.suspects``).

Every operation with a singular point (``KINDS``: divisions, logs, roots, fractional powers,
exp, inverse trigonometry, norms, deviations, lgamma, float16 casts, clipping by a global
norm, learning rates) is
collected during the rules' walk, with what the value analysis knows of its operand, where
its value goes, and what the operand's form says whatever the names (``Sites._form``). So is
every fill value, a constant too large for float16 or infinite that masks a tensor
(``Sites._fills``): `(1 - mask) * -1e9`, `tf.where(mask, x, float('-inf'))`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable, Dict, Iterator, List, Optional, Tuple

import libcst as cst

from nanlint.analysis import Analysis, Place, Value
from nanlint.analysis.lattice import python_number
from nanlint.optable import AXIS_KEYWORDS, DISTRIBUTIONS, METHOD_ARITY, RESOLVED_LIBRARIES
from nanlint.analysis.sinks import Reach, none
from nanlint.analysis.callsites import keyword_argument
from nanlint.analysis.constants import Number
from nanlint.analysis.scopes import Binding
from nanlint.analysis.precision import dtype_name, integer_dtype
from nanlint.branches import in_tested_branch, large_values_pass
from nanlint.analysis.tree import (TEXTS, array_receiver, children, descendants, dotted_code,
                                   is_a, last_name, literal, names_in)


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
    # `x ** p`, `pow(x, gamma)` of an exponent unknown or a parameter's default
    Kind("NAN201", "power", "power (its exponent may be below 1) of", 0.2, zero=True,
         negative=True, gradient=True),
    # `categorical_crossentropy(y, p)` of probabilities divides `p` by its row's sum.
    Kind("NAN101", "row-sum", "division by the row sum of", 0.5),  # an element at 0 is not
    # `x ** -0.5`: a division by `x ** 0.5`, inf at 0 in the value itself.
    Kind("NAN101", "negative-power", "negative power of", 0.4, zero=True),
    Kind("NAN104", "exp", "exp of", 0.2, huge=True),
    Kind("NAN201", "inverse-trig", "inverse trigonometric function of", 0.4, gradient=True),
    # `sqrtm(a @ b)`: a singular matrix (a covariance of fewer samples than features, a
    # product of such) has a root that is complex or not finite, whatever its entries' signs
    Kind("NAN201", "matrix-root", "matrix square root (not finite for a singular matrix) of",
         0.4),
    # `atan2(y, x)`: its gradient, (x, -y) / (x² + y²), is 0/0 = NaN where y and x are both 0
    Kind("NAN201", "atan2", "atan2 (its gradient is NaN where both arguments are 0) of", 0.3,
         zero=True, gradient=True),
    Kind("NAN202", "norm", "norm of", 0.3, zero=True, gradient=True),
    Kind("NAN201", "std", "standard deviation of", 0.3, zero=True, gradient=True),
    Kind("NAN101", "variance", "variance of", -0.5),
    Kind("NAN102", "gamma", "lgamma/digamma of", 0.2, zero=True),
    # The mean of an empty tensor is 0 / 0: a mean of a selection by a mask.
    Kind("NAN101", "empty-mean", "mean of the selection", 0.5),
    # A location-scale distribution's log density is `-log(scale) - (x - loc)² / 2scale²`.
    Kind("NAN101", "scale", "distribution scale", 0.5, zero=True),
    # `Poisson(rate)`, `Gamma(concentration, rate)`: the log density takes the log (or the
    # lgamma) of the parameter, -inf at 0 and NaN below it.
    Kind("NAN102", "rate", "distribution parameter (the density takes its log)", 0.4,
         zero=True, negative=True),
    Kind("NAN401", "float16", "float16 cast of", 0.0),
    Kind("NAN104", "fill", "fill value", 0.0),
    Kind("NAN302", "global-norm", "clipping by the global norm of", 0.0),
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
    "sqrtm": "matrix-root",
    **dict.fromkeys(("exp", "expm1", "exp2"), "exp"),
    **dict.fromkeys(("acos", "asin", "arccos", "arcsin", "acosh", "atanh", "arctanh"),
                    "inverse-trig"),
    **dict.fromkeys(("atan2", "arctan2"), "atan2"),
    **dict.fromkeys(("norm", "euclidean_norm"), "norm"),
    **dict.fromkeys(("reduce_std", "std", "nanstd"), "std"),
    **dict.fromkeys(("reduce_variance", "var", "variance", "moments"), "variance"),
    **dict.fromkeys(("lgamma", "digamma", "gammaln", "polygamma"), "gamma"),
    "clip_by_global_norm": "global-norm",
}
# The inverse functions finite on all of [-1, 1], singular in the gradient at its ends.
BOUNDED_INVERSES = frozenset({"acos", "asin", "arccos", "arcsin"})
# The parameters that name an op's input when it is passed by keyword (`tf.log(x=p)`).
INPUTS = ("x", "input", "input_tensor", "a", "features", "t", "tensor", "value", "values",
          "logits", "t_list")
# Means, and the selections that are empty where their mask is all false (`tf.where(c)` with
# one argument gives the indices where `c` holds).
MEANS = frozenset({"reduce_mean", "mean", "nanmean", "average"})
# Statistics of the entries that are not NaN: NaN where a whole slice is NaN (the mean of
# nothing; numpy's and TensorFlow's numpy `nanmean`, checked), as where missing values are NaN.
NAN_SKIPPING = frozenset({"nanmean", "nanmedian", "nanquantile", "nanpercentile"})
SELECTIONS = frozenset({"boolean_mask", "masked_select"})
# A graph collection's list: empty until something is added to it (no regularizer, no summary).
COLLECTIONS = frozenset({"get_collection", "get_collection_ref"})
# Location-scale distributions, `Normal(loc, scale)`: their log density divides by the scale
# and takes its log, so a scale of 0 is NaN in `log_prob` and in its gradient.
SCALED = frozenset({"Normal", "LogNormal", "Laplace", "Logistic", "Cauchy", "Gumbel",
                    "LogLogistic", "TruncatedNormal", "MultivariateNormalDiag", "HalfNormal",
                    "HalfCauchy", "StudentT"})
SCALE_KEYWORDS = ("scale", "scale_diag", "sigma")  # `sigma`: the old contrib `Normal(mu, sigma)`
# Distributions whose log density takes the log or the lgamma of a positive parameter, and
# the positions of those parameters (PyTorch, TensorFlow Probability and NumPyro agree).
RATED = {"Poisson": (0,), "Exponential": (0,), "Gamma": (0, 1), "Beta": (0, 1),
         "Dirichlet": (0,), "Chi2": (0,), "InverseGamma": (0, 1), "Kumaraswamy": (0, 1),
         "GammaPoisson": (0, 1), "NegativeBinomial": (0,), "NegativeBinomial2": (0, 1),
         "Weibull": (0, 1), "Pareto": (0, 1)}
RATE_KEYWORDS = ("rate", "concentration", "concentration1", "concentration0", "total_count",
                 "df", "mean")
# Those whose second positional parameter is the scale (`Normal(loc, scale)`).
LOCATED = SCALED - {"HalfNormal", "HalfCauchy", "StudentT"}
SQUARE_CALLS = frozenset({"square", "squared_difference"})
# What a distance takes under its root: squares, or differences (of points).
SQUARES = SQUARE_CALLS | {"subtract"}
# Statistics that are 0 for an all-zero or a constant input (a dead row, a constant column):
# reductions, and the root of one (a deviation, an RMS, Adam's `sqrt(v)`).
STATISTICS = frozenset({"sqrt", "std", "reduce_std", "nanstd", "var", "reduce_variance",
                        "variance", "norm", "euclidean_norm", "reduce_sum", "sum", "nansum",
                        "reduce_mean", "mean", "average", "amax", "max", "reduce_max",
                        "count_nonzero", "trace", "reduce_prod", "prod"})
# Names of box tensors, padded with all-zero rows to a fixed number of boxes.
BOX_NAME = re.compile(r"box|roi", re.IGNORECASE)
# An epsilon below this keeps a value above 0 by too little to guard a division by it (the
# quotient can still overflow).
EPSILON_FLOOR = 1e-6
# Elementwise ops that are 0 exactly where their input is.
ZERO_KEEPING = frozenset({"square", "abs", "absolute", "fabs"})
# Array methods with a singular point: a method of the value is its function (`x.std(0)`,
# PyTorch's `x.exp()`, `x.div_(m)` in place); as a module's (`backend.log(x)`), of its first
# argument. Those named as the functions of ``CALLS``, and these:
METHODS: Dict[str, str] = {**{name: kind for name, kind in CALLS.items()
                              if kind not in ("global-norm", "matrix-root")},
                           "var": "variance"}
CASTS = frozenset({"cast", "astype", "convert_to_tensor", "constant", "array", "asarray"})
OPTIMIZER = re.compile(r"(Optimizer|^SGD|^Adam\w*|^RMS[Pp]rop|^Adagrad|^Adadelta|^Adamax|"
                       r"^Nadam|^Ftrl|^Lion|^Momentum\w*|^GradientDescent\w*)$")
LEARNING_RATE_KEYWORDS = frozenset({"learning_rate", "lr"})
LEARNING_RATE = re.compile(r"(^|_)(learning_rate|lr)$", re.IGNORECASE)
# Names that give a tensor's size: at least 1 in practice (an empty batch aside).
SIZES = frozenset({"shape", "size", "len", "get_shape", "num_elements", "batch_size",
                   "n_samples", "num_samples", "count_params"})
# The keywords of the log functions (TensorFlow's, numpy's, PyTorch's, JAX's): a `log` given
# another (`step=`, `commit=`) is a logger's.
LOG_KEYWORDS = frozenset({"x", "input", "name", "out", "where", "dtype", "casting", "order",
                          "subok"})
# Where a best-so-far's start may be read, no arithmetic meeting it: a comparison, a return,
# a name it is handed to, a formatted string (and an element of a tuple returned).
SENTINEL_READS = (cst.Comparison, cst.ComparisonTarget, cst.Return, cst.AssignTarget,
                  cst.Assign, cst.FormattedStringExpression)
# Methods of a string that give a string.
STRING_METHODS = frozenset({"format", "join", "lower", "upper", "strip", "replace"})
# Calls that give a tensor's shape, whose entries are sizes.
SHAPE_CALLS = frozenset({"shape", "int_shape", "get_shape", "shape_list", "as_list"})
SHAPE_WORD = re.compile(r"(^|_)shape(_|$)|._size$")  # `input_shape`, `shape_list`, `grid_size`

# -- float16 -------------------------------------------------------------------------------
FLOAT16_NAMES = frozenset({"float16", "half"})
FLOAT16_MAX = 65504.0  # the largest finite float16
FLOAT16_OVERFLOW = 65520.0  # the smallest magnitude that rounds to inf in float16
# The largest finite value of each float dtype: the magnitude of `tf.float16.min`,
# `np.finfo(np.float32).max`.
DTYPE_MAX = {"float16": FLOAT16_MAX, "half": FLOAT16_MAX, "bfloat16": 3.39e38,
             "float32": 3.4028235e38, "float64": 1.79e308, "double": 1.79e308}
INFINITIES = frozenset({"inf", "Inf", "infty", "Infinity", "NINF", "PINF"})
# Literals that hold records, not numbers: what an op never takes (`run.log({"loss": l})`).
RECORDS = (cst.Dict, cst.DictComp, cst.Set, cst.SetComp)
INFINITE_TEXTS = frozenset({"inf", "-inf", "+inf", "infinity", "-infinity", "+infinity"})
# Selects that compute both values and keep one per element (`tf.where(c, a, b)`).
SELECTS = frozenset({"where", "where_v2", "select", "select_v2", "switch"})
# Calls that take a fill value among their arguments: selects and fills.
FILLS = frozenset({"where", "where_v2", "select", "select_v2", "fill", "full", "full_like",
                   "masked_fill", "masked_fill_", "pad"})
ONES = frozenset({"ones", "ones_like"})  # a fill times these is the fill, no 0 * inf
# Calls that add or multiply their two arguments.
ARITHMETIC = {"add": "sum", "subtract": "sum", "sub": "sum", "multiply": "product",
              "mul": "product"}
# Calls whose input a fill of -inf (or one that overflows to it) turns into NaN when a whole
# row is filled: exp(-inf - -inf).
SOFTMAXES = ("softmax", "log_softmax", "Softmax", "exp", "reduce_logsumexp", "logsumexp",
             "softmax_cross_entropy_with_logits", "sparse_softmax_cross_entropy_with_logits")
# Operands a float16 cast may take past 65504: sums, squares, variances, norms, products.
GROWS = frozenset({"reduce_sum", "sum", "nansum", "square", "reduce_variance", "var",
                   "variance", "moments", "norm", "global_norm", "euclidean_norm",
                   "reduce_euclidean_norm", "exp", "pow", "power", "matmul", "einsum",
                   "tensordot", "dot", "reduce_prod", "prod", "cumsum", "cumprod", "l2_loss"})
# Ops that keep their first argument's values: a sum reshaped is still a sum.
SHAPES = frozenset({"squeeze", "reshape", "expand_dims", "identity", "stop_gradient",
                    "transpose", "cast", "convert_to_tensor"})
KEEPS = SHAPES | {"array", "asarray", "float32", "float64"}
# Kinds whose result is inf at 0: an epsilon added to the result, not the operand, is no
# guard (`sqrt(v) + eps` is: the root is finite at 0).
MISPLACEABLE = frozenset({"log", "rsqrt", "negative-power"})
EPSILON_NAME = re.compile(r"\beps|epsilon|_eps\b", re.IGNORECASE)
# Ops that give their first argument (or receiver) a shape their other arguments name.
RESHAPES = frozenset({"reshape", "view", "expand", "broadcast_to", "tile", "repeat",
                      "expand_dims", "resize"})


USES = ("definition", "test", "sum", "select", "product")  # a fill's uses, least telling first


@dataclass(frozen=True)
class Fill:
    """A fill value: how large it is (inf for an infinity), its sign, whether it is a
    dtype's own extreme (`tf.float16.min`: a sum with it overflows in that dtype), how it
    masks (a "product" is 0 * fill where the mask is 0, else "select" or "sum") and the
    softmax, exp or logsumexp of its function, if any."""

    magnitude: float  # 0 for the extreme of a dtype the code does not name (`x.dtype.min`)
    negative: bool
    extreme: bool
    use: str  # "product", "select", "sum", "test" (`x == -inf`), "definition" (`NEG = -1e9`)
    softmax: Optional[cst.Call] = None
    dtype: str = ""  # the dtype it meets, see ``Sites._dtype_met``

    @property
    def infinite(self) -> bool:
        return self.magnitude == float("inf")

    def strength(self) -> Tuple[int, int, bool]:
        """For one fill used in several places: the use that shows the most."""
        return (("", "policy", "caller", "float16").index(self.dtype) if self.dtype != "float32"
                else -1, USES.index(self.use), self.softmax is not None)


@dataclass
class Site:
    node: cst.CSTNode  # the operation (a call, a binary operation, a literal)
    kind: Kind
    operand: Optional[cst.BaseExpression]
    value: Value
    # Where the value goes; None until ``Sites.reach`` is asked (most sites are covered by
    # a rule's report, and the hunt never asks for theirs).
    reach: Optional[Reach]
    statement: Optional[cst.CSTNode]
    note: str = ""  # what the operand is when that ranks it down (a size, a constant)
    form: str = ""  # what the operand's form says (a difference, a statistic), see _form
    rate: float = 0.0  # a learning rate's value
    fill: Optional[Fill] = None  # a fill value (kind "fill")
    # A cast to a dtype the code holds in a variable (`tf.cast(v, ori_dtype)`): a float16
    # cast only in a file that uses float16.
    dtype_unknown: bool = False
    where: Optional[Tuple[object, object]] = None  # the walk's place: ``Analysis.where``


class Sites:
    """The hazardous operations of a module, collected during the rules' walk (the value
    analysis and gradient reach answer for the current function only then)."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.found: List[Site] = []
        self._filled: Dict[int, Site] = {}  # the fill values listed, by where they are written
        self._torch: Optional[bool] = None  # whether the module imports PyTorch

    def handlers(self) -> List[Tuple[type, Callable[[cst.CSTNode], None]]]:
        return [(cst.BinaryOperation, self.binary), (cst.AugAssign, self.augmented),
                (cst.Call, self.call), (cst.Assign, self.assign),
                (cst.Comparison, self.comparison), (cst.Dict, self.dictionary),
                (cst.Param, self.parameter)]

    def parameter(self, node: cst.Param) -> None:
        """`def train(model, lr=0.1)`: a learning rate's default."""
        if node.default is not None and LEARNING_RATE.search(node.name.value):
            self._learning_rate(node.default)

    def dictionary(self, node: cst.Dict) -> None:
        """`{"learning_rate": 5e-4}`: a learning rate in a configuration."""
        for element in node.elements:
            key = getattr(element, "key", None)
            if key.__class__ is cst.SimpleString and LEARNING_RATE.search(
                    key.value.strip("'\"")):
                self._learning_rate(element.value)

    def assign(self, node: cst.Assign) -> None:
        """`learning_rate = 0.1`: a learning rate written where it is set. `NEG_INF =
        -1e30`, `MIN = np.finfo(np.float32).min`: a fill value, where it is defined (a
        negative one, an infinity or an extreme: a large positive number is mostly a size)."""
        if any(target.target.__class__ is cst.Name and LEARNING_RATE.search(
                target.target.value) for target in node.targets):
            self._learning_rate(node.value)
        elif node.value.__class__ in (cst.UnaryOperation, cst.Attribute, cst.Call,
                                      cst.BinaryOperation):
            found = self._fill_constant(node.value, 2)  # written here
            if found is not None and found[0] is node.value and (
                    found[2] or found[3] or found[1] == float("inf")) and not (
                    self._sentinel(node.value)):
                self._fill(node.value, found, "definition", [])

    def _sentinel(self, value: cst.BaseExpression) -> bool:
        """`best = float("inf")`, read only in comparisons and by `min`/`max` (`if loss <
        best`, `best = min(best, loss)`): a best-so-far's start, which no arithmetic
        meets."""
        readers = self.analysis.readers(value)
        if not readers or readers == [value]:
            return False
        for reader in readers:
            parent = self.analysis.parent(reader)
            if parent.__class__ is cst.Element:  # of a tuple returned or assigned
                holder = self.analysis.parent(self.analysis.parent(parent))
                if holder.__class__ in (cst.Return, cst.Assign):
                    continue
                return False
            if parent.__class__ in SENTINEL_READS:
                continue
            call = self.analysis.parent(parent) if parent.__class__ is cst.Arg else None
            if not (call.__class__ is cst.Call and call.func.__class__ is cst.Name
                    and call.func.value in ("min", "max", "print", "str", "float")):
                return False
        return True

    def _learning_rate(self, expr: cst.BaseExpression) -> None:
        number = self.analysis.number(expr)
        if number is not None and number.value > 0:
            # Where the number is written: a module constant, a flag's default.
            self.add(number.node, "learning-rate", None, rate=number.value)

    def add(self, node: cst.CSTNode, kind_name: str, operand: Optional[cst.BaseExpression],
            rate: float = 0.0, dtype_unknown: bool = False, form: str = "") -> None:
        analysis = self.analysis
        kind = KINDS[kind_name]
        if node.__class__ is cst.Call and analysis.parent(node).__class__ is cst.Expr and (
                not last_name(node.func).endswith("_")
                and keyword_argument(node, "out") is None):
            return  # a result nothing uses (`utils.log(x)` as a statement): no NaN goes on
            # (an in-place method, `x.div_(n)`, or a call writing through `out=` changes a
            # tensor: it stays)
        value = analysis.value(operand) if operand is not None else Value()
        if operand is not None and _harmless_constant(value, kind):
            return
        if operand is not None and python_number(value) and self._raises(node):
            return  # Python's arithmetic of Python numbers: it raises, it makes no NaN
        if kind.zero and value.known and value.zero is None and operand is not None and (
                self._zeros_of_unknown(operand)):
            value = replace(value, known=False)  # its zeros are its input's: not understood
        note = ("its operand is a size" if kind.name == "division" and operand is not None
                and (_is_size(operand, analysis.qualified_name)
                     or self._shape_read(operand, 3, last=True)) else "")
        statements = analysis.cursor.statements
        reach = None
        if kind.gradient and operand is not None and self._integer_cast(operand):
            reach = none("cast to an integer type")
        elif kind.gradient and operand is not None and self._shape_read(operand, 3):
            reach = none("a size read from a shape: an integer")
            value = replace(value, lo=max(value.lo, 0.0))  # and not below 0
        self.found.append(Site(node, kind, operand, value, reach,
                               statements[-1] if statements else None, note,
                               form or self._form(node, kind, operand), rate,
                               dtype_unknown=dtype_unknown, where=analysis.where()))

    def reach(self, site: Site) -> Reach:
        """Where the value of ``site`` goes (its gradient, for a hazard of the gradient),
        computed once, when first asked."""
        if site.reach is None:
            assert site.where is not None
            site.reach = self.analysis.reach_at(site.node, site.where, site.kind.gradient)
        return site.reach

    def _form(self, node: cst.CSTNode, kind: Kind, operand: Optional[cst.BaseExpression]
              ) -> str:
        """Evidence from the form of the operand, whatever the names: a difference is 0
        where its sides are equal, a statistic for an all-zero or constant input; an exp
        whose result a log or a division takes is a hand-written softplus, softmax or
        sigmoid, inf once its input passes 88."""
        if kind.huge:
            if self._inside_log_or_division(node):
                return "hand-written"
            if operand is not None and self._selected_away(node, operand):
                return "unselected"
            return "both signs" if operand is not None and self._mirrored(node, operand) else ""
        if kind.name == "float16":
            return "overflow" if operand is not None and self._grows(operand) else ""
        if kind.name in ("std", "variance") and node.__class__ is cst.Call and self._unbiased(
                node):
            return "unbiased"
        if operand is None or not (kind.zero or kind.negative):
            return ""
        if kind.name in MISPLACEABLE and self._epsilon_after(node) is not None:
            return "misplaced epsilon"
        if self._tested_first(node, operand):
            return "guarded: the expression tests its operand first"
        if kind.zero and self._in_branch(node) and in_tested_branch(self, node, operand):
            if in_tested_branch(self, node, operand, strict=True):
                return "guarded: it runs only where a test excludes a 0 operand (an if, a cond)"
            return ("partial guard: it runs only where a test keeps its operand at or above a "
                    "bound the file does not show above 0")
        expr = self._unwrapped(operand)
        if expr.__class__ is cst.Call and any(
                (number := self.analysis.number(value)) is not None and number.value > 0
                for value in self._compared(expr)):
            return "guarded: a maximum with a positive number"
        if expr.__class__ is cst.Call and self._call_name(expr) == "sqrt" and expr.args:
            # `sqrt(v + eps)`: the root of a value meant to be at least 0, plus an epsilon
            epsilon = self._added_epsilon(expr.args[0].value)
            if epsilon is not None:
                words = f"an epsilon {epsilon:g} under the root"
                return ("guarded: " if epsilon >= EPSILON_FLOOR else "partial guard: ") + words
        if kind.name == "division":
            # `x / (n + 1e-3)` of an `n` the analysis cannot bound: an epsilon added says
            # what the author took it to be (at least 0). (Not under a log: there a value
            # below 0 is NaN, and a difference plus an epsilon can be.)
            epsilon = self._added_epsilon(expr)
            if epsilon is not None:
                words = f"an epsilon {epsilon:g} added"
                return ("guarded: " if epsilon >= EPSILON_FLOOR else "partial guard: ") + words
        if kind.zero and self._box_component(operand, 1):
            return "box component"
        if expr.__class__ is cst.BinaryOperation and expr.operator.__class__ is cst.Subtract:
            # `1 - x²` is written for an x in [-1, 1] (a cosine, a correlation, a tanh: a
            # sine from a cosine): 0 at ±1, which such values reach, and below 0 past it.
            if literal(expr.left) == 1 and (self._is_square(expr.right) or (
                    expr.right.__class__ is cst.Call
                    and self._call_name(expr.right) in SQUARE_CALLS)):
                return "complement"
            return "difference"
        # A log of a square or an absolute value is a log of a magnitude: what it takes has
        # both signs (else it would not be squared), and passes 0 where it changes sign.
        if kind.name == "log" and any(self._is_square(inner) or (
                inner.__class__ is cst.Call and self._call_name(inner) in ZERO_KEEPING)
                for inner in (self._unwrapped(operand, 0), expr)):
            return "signed"
        if kind.zero and self._sum_of_squares(expr):
            return "distance"  # a length (under a root or not): 0 for a zero vector
        if kind.name in ("sqrt", "pow", "power", "norm"):
            # A root of a sum of squares or of squared differences (a distance, an RMS) is
            # 0 where the points coincide or the input is all zero. (Not for what a divisor
            # holds: the root of `n // b ** 2` is no distance.)
            if "sum_of_squares" in self.analysis.value(expr).tags:
                return "distance"  # `sqrt(np.dot(v, v))`
            for inner in _outside_divisors(expr):
                if (inner.__class__ is cst.BinaryOperation
                        and inner.operator.__class__ is cst.Subtract) or (
                        self._is_square(inner)) or (
                        inner.__class__ is cst.Call and self._call_name(inner) in SQUARES):
                    return "distance"
        if expr.__class__ is cst.Call and self._call_name(expr) in STATISTICS and not (
                self._of_constants(expr)) and not self._compared(expr):  # `max(a, b)`
            return "statistic"
        return ""

    def _raises(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` is computed by Python on Python numbers, which raises where an
        array op gives inf or NaN: `a / b`, `a // b`, `a % b`, `a ** p` of two (its operand
        is one, asked first), `math.log(x)`, `math.sqrt(x)`."""
        if node.__class__ is cst.BinaryOperation:
            return node.operator.__class__ in (cst.Divide, cst.FloorDivide, cst.Modulo,
                                               cst.Power) and all(
                python_number(self.analysis.value(side)) for side in (node.left, node.right))
        if node.__class__ is cst.Call:
            name = self.analysis.qualified_name(node.func) or ""
            return name.startswith("math.")
        return False

    def _compared(self, call: cst.Call) -> List[cst.BaseExpression]:
        """The values an elementwise maximum takes the largest of: the arguments of
        `tf.maximum(x, eps)`, `np.fmax(x, eps)` and the builtin `max(std, eps)`. A `max` or
        `amax` of a module or a method is a reduction (`np.amax(x, axis=1)`, `w.amax(dim=1)`,
        `x.max(1)`): its numbers are axes, no bound; so is the builtin's `max(values)`."""
        name = self._call_name(call)
        builtin = name == "max" and call.func.__class__ is cst.Name and len(call.args) > 1 and (
            self.analysis.qualified_name(call.func) in (None, "max", "builtins.max"))
        if name not in ("maximum", "fmax") and not builtin:
            return []
        return [arg.value for arg in call.args if arg.keyword is None or (
            arg.keyword.value not in AXIS_KEYWORDS and arg.keyword.value != "keepdims")]

    def _sum_of_squares(self, expr: cst.BaseExpression) -> bool:
        """`a ** 2 + b ** 2` (two terms or more, each a square): a squared length, 0 where
        every term is."""
        terms = []
        while expr.__class__ is cst.BinaryOperation and expr.operator.__class__ is cst.Add:
            terms.append(expr.right)
            expr = expr.left
        terms.append(expr)
        return len(terms) > 1 and all(self._is_square(term) or (
            term.__class__ is cst.Call and self._call_name(term) in SQUARE_CALLS)
            for term in terms)

    def _selection(self, expr: cst.BaseExpression, depth: int) -> Optional[cst.Call]:
        """A selection by a mask in ``expr`` or in what its names were assigned (``depth``
        assignments deep): `boolean_mask(x, m)`, or a `gather` of the indices `where(m)`
        gives. It is empty where the mask is all false (no positive box in a batch)."""
        for inner in (expr, *descendants(expr)):
            if inner.__class__ is cst.Call:
                name = self._call_name(inner)
                if name in SELECTIONS or (name in ("gather", "gather_nd") and any(
                        self._mask_indices(arg.value, depth) for arg in inner.args[1:])):
                    return inner
            elif inner.__class__ is cst.Name and depth > 0:
                assigned = self.analysis.definition(inner)
                if assigned is not None:
                    found = self._selection(assigned, depth - 1)
                    if found is not None:
                        return found
        return None

    def _mask_indices(self, expr: cst.BaseExpression, depth: int) -> bool:
        """Whether ``expr`` holds the indices of a mask's true entries (`where(m)`, a
        column of it, or a name assigned one ``depth`` assignments deep): none where the mask
        is all false."""
        for inner in (expr, *descendants(expr)):
            if inner.__class__ is cst.Call and self._call_name(inner) == "where" and len(
                    inner.args) == 1:
                return True
            if inner.__class__ is cst.Name and depth > 0:
                assigned = self.analysis.definition(inner)
                if assigned is not None and self._mask_indices(assigned, depth - 1):
                    return True
        return False

    def _empty_list(self, expr: cst.BaseExpression, depth: int
                    ) -> Optional[cst.BaseExpression]:
        """A Python list that can hold nothing, in ``expr`` or what its name was assigned:
        a comprehension with a filter (`[l for l in ls if l is not None]`), or over a graph
        collection (`get_collection(...)`, empty until something is added to it)."""
        kind = expr.__class__
        if kind is cst.ListComp or kind is cst.GeneratorExp:
            comp: Optional[cst.BaseCompFor] = expr.for_in
            while comp is not None:
                if comp.ifs or self._collection(comp.iter, depth):
                    return expr
                comp = comp.inner_for_in
            return None
        if self._collection(expr, 0):
            return expr
        if kind is cst.Name and depth > 0:
            assigned = self.analysis.definition(expr)
            if assigned is not None:
                return self._empty_list(assigned, depth - 1)
        return None

    def _collection(self, expr: cst.BaseExpression, depth: int) -> bool:
        if expr.__class__ is cst.Call:
            return self._call_name(expr) in COLLECTIONS
        if expr.__class__ is cst.Name and depth > 0:
            assigned = self.analysis.definition(expr)
            return assigned is not None and self._collection(assigned, depth - 1)
        return False

    def _whole_row_zero(self, expr: cst.BaseExpression) -> bool:
        """A prediction whose whole row can be 0: masked (a product), or a value whose 0
        survives a sum (a relu output); a plain parameter is a softmax's rows by design."""
        expr = self._unwrapped(expr, levels=1)
        if (expr.__class__ is cst.BinaryOperation and expr.operator.__class__ is cst.Multiply
                ) or (expr.__class__ is cst.Call and self._call_name(expr) == "multiply"):
            return True
        zero = self.analysis.value(expr).zero
        return zero is not None and zero.aggregate and not zero.convention

    def _from_logits(self, call: cst.Call) -> bool:
        flag = _keyword(call, "from_logits")
        return flag is not None and not (flag.__class__ is cst.Name and flag.value == "False")

    def _exponential(self, expr: cst.BaseExpression) -> bool:
        """`K.exp`, `tf.exp`, `"exponential"`, `keras.activations.exponential`."""
        if expr.__class__ is cst.SimpleString:
            return expr.value.strip("'\"") == "exponential"
        if expr.__class__ not in (cst.Name, cst.Attribute):
            return False
        name = (self.analysis.qualified_name(expr) or "").rpartition(".")[2]
        return name in ("exp", "exponential")

    def _integer_cast(self, expr: cst.BaseExpression) -> bool:
        """`tf.cast(x, tf.int32)`: an integer tensor takes no gradient."""
        expr = self._unwrapped(expr, levels=0)
        return expr.__class__ is cst.Call and self._call_name(expr) in ("cast", "astype") and (
            integer_dtype(_keyword(expr, "dtype") or (
                expr.args[-1].value if expr.args else None)))

    def _unwrapped(self, expr: cst.BaseExpression, levels: int = 3,
                   place: Optional[Place] = None) -> cst.BaseExpression:
        """What a name was assigned, through up to ``levels`` ops that keep their input's
        values (`np.array(adj.sum(1))` is a sum) or a part of them (`s[..., None]`, `s[0]`:
        an element of a sum is a sum), and divisions (`s / n` is 0 where `s` is: a mean is
        a sum). Names are resolved where the expression holding them stands."""
        if expr.__class__ is cst.Name:
            found = self.analysis.binding(expr.value, place)
            if found is not None and found[0].kind == "unpack":
                returned = self._returned(*found)
                if returned is not None:
                    return returned  # its names are the function's: not followed here
            elif found is not None and found[0].kind == "assign" and (
                    found[0].value is not None):
                expr, place = found[0].value, found[1]
        elif expr.__class__ is cst.Attribute:  # `self.std`, assigned once in the class
            assigned = self.analysis.attribute_values(expr)
            expr = assigned[0] if len(assigned) == 1 else expr
        elif expr.__class__ is cst.Subscript:  # `stats["peak"]`, `self.params["peak"]`
            entry = self.analysis.entry_definition(expr, place)
            if entry is not None:
                expr, place = entry[0], entry[1] or place
        if levels > 0 and expr.__class__ is cst.Call and expr.args and (
                self._call_name(expr) in KEEPS) and expr.args[0].keyword is None:
            return self._unwrapped(expr.args[0].value, levels - 1, place)
        if levels > 0 and expr.__class__ is cst.Call:
            # `log(sq(y))` of a function of this file with one return: what it returns
            results = self.analysis.results(expr.func, place or self.analysis.here())
            if len(results) == 1 and results[0][0].__class__ not in (cst.Tuple, cst.List):
                return self._unwrapped(results[0][0], levels - 1, results[0][1])
        if levels > 0 and expr.__class__ is cst.Subscript:
            return self._unwrapped(expr.value, levels - 1, place)
        if levels > 0 and expr.__class__ is cst.BinaryOperation and (
                expr.operator.__class__ is cst.Divide):
            return self._unwrapped(expr.left, levels - 1, place)
        base = self._positive_power(expr) if levels > 0 else None
        if base is not None:
            return self._unwrapped(base, levels - 1, place)
        return expr

    def _box_component(self, expr: cst.BaseExpression, depth: int) -> bool:
        """`boxes[..., 3]`, `gt_bbox[:, 2]`, or a name assigned one (``depth`` steps): a
        width, a height or a far corner of boxes, by the name, which is 0 for the all-zero
        rows that pad a box tensor to a fixed number of boxes."""
        if expr.__class__ is cst.Name and depth > 0:
            assigned = self.analysis.definition(expr)
            return assigned is not None and self._box_component(assigned, depth - 1)
        if expr.__class__ is not cst.Subscript or not expr.slice:
            return False
        index = expr.slice[-1].slice
        named = last_name(expr.value) if expr.value.__class__ is not cst.Subscript else ""
        return (BOX_NAME.search(named) is not None and index.__class__ is cst.Index
                and literal(index.value) in (2, 3))

    def _is_square(self, expr: cst.CSTNode) -> bool:
        """`x * x`, `x ** 2`, and the power calls `pow(x, 2)`, `x.pow(2)`, `np.power(x, 3)`:
        a power of at least 2."""
        if _square(expr):
            return True
        parts = self._power_parts(expr) if expr.__class__ is cst.Call else None
        exponent = parts[1] if parts is not None else None
        return exponent is not None and exponent.__class__ in (cst.Integer, cst.Float) and (
            float(exponent.evaluated_value) >= 2)

    def _positive_power(self, expr: cst.BaseExpression) -> Optional[cst.BaseExpression]:
        """The base of a power by a positive number (`s ** 0.5`, `pow(s, p)` with `p=1` by
        default, `s.pow(2)`): 0 exactly where its base is. Else None."""
        parts = self._power_parts(expr)
        if parts is None:
            return None
        number = self.analysis.number(parts[1])
        return parts[0] if number is not None and number.value > 0 else None

    def _power_parts(self, expr: cst.BaseExpression
                     ) -> Optional[Tuple[cst.BaseExpression, cst.BaseExpression]]:
        """(base, exponent) of `b ** e`, `pow(b, e)`, `np.power(b, e)` or `b.pow(e)`."""
        if expr.__class__ is cst.BinaryOperation and expr.operator.__class__ is cst.Power:
            return expr.left, expr.right
        if expr.__class__ is not cst.Call or self._call_name(expr) not in ("pow", "power"):
            return None
        args = [arg.value for arg in expr.args if arg.keyword is None]
        if expr.func.__class__ is cst.Attribute and len(args) == 1:
            return expr.func.value, args[0]
        return (args[0], args[1]) if len(args) == 2 else None

    def _returned(self, binding: Binding, where: Place) -> Optional[cst.BaseExpression]:
        """`feat, energy = fbank(x)` (an unpacking ``binding``): what the file's function
        returns in that place of its one returned tuple (through a name it assigns there),
        else None."""
        if len(binding.position) != 1 or binding.value.__class__ is not cst.Call:
            return None
        results = self.analysis.results(binding.value.func, where)
        if len(results) != 1 or results[0][0].__class__ not in (cst.Tuple, cst.List):
            return None
        (result, place), position = results[0], binding.position[0]
        if position >= len(result.elements) or result.elements[position].__class__ is \
                cst.StarredElement:
            return None
        piece = result.elements[position].value
        if piece.__class__ is cst.Name:
            bound = self.analysis.binding(piece.value, place)
            if bound is not None and bound[0].kind == "assign" and bound[0].value is not None:
                return bound[0].value
        return piece

    def _epsilon_after(self, node: cst.CSTNode) -> Optional[float]:
        """The epsilon (0 where only its name says so) added to the result of ``node``
        (`log(x) + 1e-6`, `v.rsqrt().add_(eps)`): a guard written where it guards nothing,
        which says that the operand was expected to reach the singular point."""
        parent = self.analysis.parent(node)
        if parent.__class__ is cst.BinaryOperation and parent.operator.__class__ is cst.Add:
            other = parent.right if parent.left is node else parent.left
        elif parent.__class__ is cst.Attribute and parent.value is node and (
                parent.attr.value in ("add", "add_")):
            call = self.analysis.parent(parent)
            args = getattr(call, "args", ())
            if call.__class__ is not cst.Call or len(args) != 1:
                return None
            other = args[0].value
        else:
            return None
        number = self.analysis.number(other)
        if number is None:  # `group["eps"]`, `self.epsilon`, a parameter `eps`: by its name
            found = (self.analysis.binding(other.value) if other.__class__ is cst.Name
                     else None)
            named = other.__class__ in (cst.Attribute, cst.Subscript) or (
                other.__class__ is cst.Name and (found is None or found[0].kind == "param"))
            return 0.0 if named and EPSILON_NAME.search(self.analysis.code(other)) else None
        return number.value if 0 < number.value < 1e-2 else None

    def _added_epsilon(self, expr: cst.BaseExpression) -> Optional[float]:
        """The positive number `x + eps` (or `eps + x`) adds, else None."""
        if expr.__class__ is not cst.BinaryOperation or expr.operator.__class__ is not cst.Add:
            return None
        for side in (expr.right, expr.left):
            value = self.analysis.value(side)
            if value.const is not None and value.const > 0:
                return value.const
        return None

    def _zeros_of_unknown(self, operand: cst.BaseExpression, depth: int = 0,
                          place: Optional[Place] = None) -> bool:
        """`square(x)`, `abs(x)`, `x ** 2`, `x * x`, `x.pow(p)` (p > 0) of an `x` the
        analysis does not know: 0 exactly where `x` is, so knowing the square says nothing
        of its zeros; nor does a value added to one (`1 - x ** 2 + eps`), nor a parameter
        the file's callers pass one (`f(abs(x))`)."""
        named = self._unwrapped(operand, levels=0, place=place)  # what a name holds
        for expr in (named, self._unwrapped(operand, levels=1, place=place)):
            if expr.__class__ is cst.Call and expr.args and expr.args[0].keyword is None and (
                    self._call_name(expr) in ZERO_KEEPING):
                inner = expr.args[0].value
            elif expr.__class__ is cst.BinaryOperation and _square(expr):
                inner = expr.left
            elif (power := self._positive_power(expr)) is not None:
                inner = power
            elif depth < 2 and expr.__class__ is cst.BinaryOperation and (
                    expr.operator.__class__ in (cst.Add, cst.Subtract)):
                return any(self._zeros_of_unknown(side, depth + 1, place)
                           for side in (expr.left, expr.right))
            else:
                continue
            return not self.analysis.value(inner).known
        if depth < 2 and named.__class__ is cst.Name:
            found = self.analysis.binding(named.value, place)
            passed = (self.analysis.arguments_of(named.value, found[1])
                      if found is not None and found[0].kind == "param" else None)
            return any(self._zeros_of_unknown(expr, depth + 1, at)
                       for expr, at in passed or ())
        return False

    def _of_constants(self, call: cst.Call) -> bool:
        """`np.sqrt(2)`: a call whose data (its positional arguments, and the receiver of a
        method) are all numbers is a constant, not a statistic of data."""
        data = [arg.value for arg in call.args if arg.keyword is None]
        if self.analysis.qualified_name(call.func) is None and \
                call.func.__class__ is cst.Attribute:
            data.append(call.func.value)
        return bool(data) and all(self.analysis.number(d) is not None for d in data)

    def _shape_read(self, expr: cst.BaseExpression, depth: int, last: bool = False) -> bool:
        """A size read from a tensor's shape (`x.shape[i]`, `tf.shape(x)[i]`,
        `K.int_shape(x)[i]`, `x.get_shape().as_list()[i]`, `x.size(i)`, `len(x)`), a cast,
        a root or a positive power of one, or a name assigned one (``depth`` steps): an
        integer, through which no gradient flows. With ``last``: of the last axis only, the
        width of a feature, a channel or a head, which the model's layers fix, so at least 1
        (the scale of attention, `sqrt(d_k)`); the leading axis can count what a selection
        keeps (the objects of an image: 0 for an image with none)."""
        if expr.__class__ is cst.Name:
            found = self.analysis.binding(expr.value) if depth > 0 else None
            if found is None or found[0].value is None:
                return False
            if found[0].kind == "unpack":  # `n, h, w, c = x.shape`
                return not last and self._whole_shape(found[0].value)
            return found[0].kind == "assign" and self._shape_read(found[0].value, depth - 1,
                                                                   last)
        base = self._positive_power(expr) if depth > 0 else None
        if base is not None:
            return self._shape_read(base, depth - 1, last)
        if expr.__class__ is cst.Call:
            name = self._call_name(expr)
            args = [arg.value for arg in expr.args if arg.keyword is None]
            if name == "size" and expr.func.__class__ is cst.Attribute:
                return len(args) == 1 and (not last or literal(args[0]) == -1)
            if name == "len" and expr.func.__class__ is cst.Name:
                return not last and len(args) == 1
            if name in ("prod", "reduce_prod") and len(args) == 1:  # `np.prod(x.shape)`
                return not last and self._whole_shape(args[0])
            if args and depth > 0 and name in ("sqrt", "cast", "float", "int", "to_float",
                                               "float32"):
                return self._shape_read(args[0], depth - 1, last)
            return False
        if expr.__class__ is not cst.Subscript or len(expr.slice) != 1 or (
                expr.slice[0].slice.__class__ is not cst.Index) or (
                last and literal(expr.slice[0].slice.value) != -1):
            return False
        return self._whole_shape(expr.value)

    def _whole_shape(self, expr: cst.BaseExpression) -> bool:
        """`x.shape`, `tf.shape(x)`, `K.int_shape(x)`, `x.get_shape().as_list()`."""
        return (expr.__class__ is cst.Attribute and expr.attr.value == "shape") or (
            expr.__class__ is cst.Call and self._call_name(expr) in SHAPE_CALLS)

    def _call_name(self, call: cst.Call) -> str:
        """The last part of what a call calls: `reduce_sum` for `tf.math.reduce_sum`."""
        name = self.analysis.qualified_name(call.func)
        # else a builtin, a method, or a name the resolver does not know
        return name.rpartition(".")[2] if name else last_name(call.func)

    def _in_branch(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` is inside something that runs only on a test, up to its function:
        an `if`'s block, a conditional expression, a lambda or a function defined in another
        (a cond's branches). Asked first: most sites are in none, and the test is dearer."""
        parents = self.analysis.module_index().parents
        child, parent = node, parents.get(id(node))
        while parent is not None:
            kind = parent.__class__
            if kind is cst.FunctionDef:
                outer = parents.get(id(parent))
                while outer is not None and outer.__class__ not in (cst.FunctionDef,
                                                                    cst.ClassDef, cst.Module):
                    outer = parents.get(id(outer))
                return outer.__class__ is cst.FunctionDef
            if kind is cst.ClassDef:
                return False
            if kind is cst.IfExp or kind is cst.Lambda or (
                    kind is cst.If and child is not parent.test):
                return True
            child, parent = parent, parents.get(id(parent))
        return False

    def source(self, node: cst.CSTNode) -> str:
        """The node's code on one line, as the rules write it (``nanlint.branches`` asks)."""
        return " ".join(self.analysis.code(node).split())

    def _tested_first(self, node: cst.CSTNode, operand: cst.BaseExpression) -> bool:
        """`0 if d == 0 else n / d`, `n / d if d > 0 else 0`: a conditional expression whose
        test compares with a number something the operand is computed from, before the
        branch that holds ``node`` runs (`n / d if step > 0 else 0` tests another value)."""
        for child, parent in self._enclosing(node):
            if parent.__class__ is cst.IfExp and child is not parent.test and (
                    parent.test.__class__ is cst.Comparison):
                return any(self.analysis.number(target.comparator) is not None
                           for target in parent.test.comparisons) and bool(
                    set(names_in(parent.test)) & set(names_in(operand)))
        return False

    def _enclosing(self, node: cst.CSTNode) -> Iterator[Tuple[cst.CSTNode, cst.CSTNode]]:
        """Each node from ``node`` up to its statement, with its parent (the index's
        parents read directly: every site asks, and most statements are shallow)."""
        parents = self.analysis.module_index().parents
        child, parent = node, parents.get(id(node))
        while parent is not None and not is_a(parent, cst.BaseSmallStatement):
            yield child, parent
            child, parent = parent, parents.get(id(parent))

    def _mirrored(self, node: cst.CSTNode, operand: cst.BaseExpression) -> bool:
        """Whether the statement's expression also takes the exp of ``-operand`` (or this
        one is of ``-x`` and it takes that of ``x``): a hand-written cosh, sinh or tanh,
        where one of the two overflows once the argument's magnitude passes 88, whatever
        its sign."""
        top = node
        for _, parent in self._enclosing(node):
            top = parent
        this = _negated(self.analysis.code(operand))
        for inner in descendants(top):
            if inner is not node and inner.__class__ is cst.Call and CALLS.get(
                    self._call_name(inner)) == "exp" and inner.args:
                other = _negated(self.analysis.code(inner.args[0].value))
                if other[0] != this[0] and other[1] == this[1]:
                    return True
        return False

    def _selected_away(self, node: cst.CSTNode, operand: cst.BaseExpression) -> bool:
        """Whether the exp ``node`` is taken everywhere and then replaced where a test of
        its input says the exp is large: `where(x > t, a, exp(x))`, or `(1 - m) * exp(x)`
        with `m = cast(x > t)`, itself or through the name it is assigned. There the exp is
        inf all the same, and 0 * inf is NaN: in the masked sum's value, in the gradient of
        `where`. The exp's input must grow or fall with the tested name (`x`, `x / a`,
        `-2 * x`), and the test be one comparison."""
        for use in (node, *self.analysis.readers(node)):
            for child, parent in self._enclosing(use):
                if parent.__class__ is cst.Call and self._call_name(parent) in SELECTS:
                    args = [arg.value for arg in parent.args]
                    if len(args) != 3 or child is args[0]:
                        return False
                    return self._unselected(operand, args[0], child is args[1], 1)
                if parent.__class__ is cst.BinaryOperation and (
                        parent.operator.__class__ is cst.Multiply):
                    other = parent.right if parent.left is child else parent.left
                    if self._unselected(operand, other, True, 1):
                        return True
        return False

    def _unselected(self, operand: cst.BaseExpression, test: cst.BaseExpression,
                    chosen: bool, depth: int) -> bool:
        """Whether a select by ``test`` (a comparison; a mask cast from one, `1 - mask`, or
        a name assigned one of these, ``depth`` steps) takes the exp of ``operand`` where
        the test is ``chosen`` and not where the operand is large."""
        large = large_values_pass(self, test, operand, depth, strict=False)
        return large is not None and large != chosen

    def _inside_log_or_division(self, node: cst.CSTNode) -> bool:
        for child, parent in self._enclosing(node):
            if parent.__class__ is cst.BinaryOperation and parent.operator.__class__ is \
                    cst.Divide and parent.right is child:
                return True
            if parent.__class__ is cst.Call:
                name = self.analysis.qualified_name(parent.func) or ""
                if CALLS.get(name.rpartition(".")[2]) in ("log", "division"):
                    return True
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
            if not (_text(right) or _text(left)):  # `root / "model.pb"`: a path joined
                self.add(node, "division", right)
        elif kind is cst.Power or kind is cst.PowerAssign:
            self._power(node, left, right)
        elif kind is cst.Multiply or kind is cst.MultiplyAssign:
            self._fills(left, right, "product")
        elif kind in (cst.Add, cst.Subtract, cst.AddAssign, cst.SubtractAssign):
            self._fills(left, right, "sum")
            if kind is cst.Subtract and "sum_of_squares" in self.analysis.value(left).tags:
                zero = self.analysis.value(node).zero
                if zero is not None and zero.producer == "variance":
                    # `E[x²] - E[x]²`: negative by rounding near a constant input, where a
                    # root, a log or `rsqrt(var + eps)` downstream is NaN
                    self.add(node, "variance", None, form="rounding")

    def _power(self, node: cst.CSTNode, base: cst.BaseExpression,
               exponent: cst.BaseExpression) -> None:
        kind = _exponent_kind(self.analysis.number(exponent))
        if kind is not None:
            self.add(node, kind, base)

    def call(self, call: cst.Call) -> None:
        func = call.func
        called = last_name(func)
        rate = _keyword(call, *LEARNING_RATE_KEYWORDS)
        if rate is not None:  # `Adam(learning_rate=0.1)`, `train(model, lr=0.5)`
            self._learning_rate(rate)
        activation = _keyword(call, "activation")
        if activation is not None and self._exponential(activation):
            # `Dense(n, activation=K.exp)`: the exp of a linear output, which nothing bounds
            self.add(call, "exp", None, form="unbounded")
        if called in FILLS:
            values = [arg.value for arg in call.args]
            for value in values:
                found = self._fill_constant(value)
                if found is not None:
                    self._fill(value, found, "select", [v for v in values[1:] if v is not value])
        elif called in ARITHMETIC and len(call.args) == 2:
            self._fills(call.args[0].value, call.args[1].value, ARITHMETIC[called])
        elif called in ("equal", "not_equal") and len(call.args) == 2:
            self._test(call.args[0].value)
            self._test(call.args[1].value)
        if CALLS.get(called) == "log" and any(
                arg.keyword is not None and arg.keyword.value not in LOG_KEYWORDS
                for arg in call.args):
            return  # `tracker.log(metrics, step=i)`: a logger's, not the function
        qualified = self.analysis.qualified_name(func)
        if qualified is None:
            if func.__class__ is cst.Attribute and func.attr.value == "astype":
                self._cast(call, func.value, _keyword(call, "dtype") or (
                    call.args[0].value if call.args else None))
            elif func.__class__ is cst.Attribute and func.attr.value == "add_argument":
                self._option(call)  # argparse's parser
            elif func.__class__ is cst.Attribute and func.attr.value == "half" and (
                    not call.args):  # PyTorch's cast to float16
                self.add(call, "float16", func.value)
            elif func.__class__ is cst.Attribute and not any(
                    _text(arg.value) or _record(arg.value)
                    for arg in call.args):  # `logger.log(msg)`, `run.log({...})`: no op
                self._method(call, func)
            return
        last = qualified.rpartition(".")[2]
        if last.startswith("_foreach_"):  # PyTorch's op over a list of tensors, in place or not
            last = last[len("_foreach_"):].rstrip("_")
        if qualified.partition(".")[0] not in RESOLVED_LIBRARIES:
            if last == "cast":  # a backend's own cast is a cast
                args = [arg.value for arg in call.args if arg.keyword is None]
                self._cast(call, args[0] if args else None, _keyword(call, "dtype") or (
                    args[1] if len(args) > 1 else None))
                return
            # Another library's function is taken at its name (`znp.log(p)`, `jnp.sqrt(v)`,
            # an `AdamW(...)`), unless it takes text (`logging.log(level, msg)`).
            callee = self.analysis.callee(call)
            if callee is None or callee.kind != "external" or any(
                    _text(arg.value) or _record(arg.value)
                    for arg in call.args) or (
                    "log" in last and "log" in qualified.rpartition(".")[0].lower()):
                return  # (a logging module's `log(msg)`: `infolog.log`, `logger.log`)
        kind = CALLS.get(last)
        args = [arg for arg in call.args if arg.keyword is None]
        first = args[0].value if args else _keyword(call, *INPUTS)
        if last in NAN_SKIPPING and first is not None:
            self.add(call, "empty-mean", first, form="all NaN")
        elif last in MEANS and first is not None:
            selection = self._selection(first, 2)
            if selection is not None:
                self.add(call, "empty-mean", selection, form="selection")
            else:
                listed = self._empty_list(first, 2)
                if listed is not None:
                    self.add(call, "empty-mean", listed, form="empty list")
        if last == "categorical_crossentropy" and len(args) > 1 and not self._from_logits(call) \
                and self._whole_row_zero(args[1].value):
            # Keras divides the prediction by its row's sum first: NaN for an all-zero row.
            self.add(call, "row-sum", args[1].value)
        if kind == "division":
            operand = first if last == "reciprocal" else (args[1].value if len(args) > 1
                                                          else _keyword(call, "y"))
            self.add(call, kind, operand)
        elif kind == "pow":
            exponent = args[1].value if len(args) > 1 else _keyword(call, "y", "exponent")
            found = _exponent_kind(self.analysis.number(exponent) if exponent is not None
                                   else None)
            if found is not None:
                self.add(call, found, first)
        elif kind == "exp" and first is not None and _imaginary(first):
            return  # `exp(1j * phase)`: on the unit circle, whatever the phase
        elif kind is not None:
            self.add(call, kind, first)
        elif last in CASTS:
            self._cast(call, first, _keyword(call, "dtype") or (
                args[1].value if last == "cast" and len(args) > 1 else None))
        elif last in DISTRIBUTIONS and _keyword(call, "probs") is not None:
            self.add(call, "log", _keyword(call, "probs"))
        elif last in RATED:
            self._rate(call, [args[i].value for i in RATED[last] if i < len(args)] + [
                arg.value for arg in call.args
                if arg.keyword is not None and arg.keyword.value in RATE_KEYWORDS])
        elif last in SCALED:
            scale = _keyword(call, *SCALE_KEYWORDS)
            if scale is None and last in LOCATED and len(args) > 1:
                scale = args[1].value
            if scale is not None:
                self.add(call, "scale", scale)
        elif OPTIMIZER.search(last):
            if rate is None and first is not None:  # `SGD(0.1)`
                self._learning_rate(first)
        elif last.startswith("DEFINE_") or last == "add_argument":
            self._option(call)

    def _rate(self, call: cst.Call, parameters: List[cst.BaseExpression]) -> None:
        """The first parameter of a distribution whose log its density takes that is not a
        constant away from 0 (one site per distribution)."""
        kind = KINDS["rate"]
        for parameter in parameters:
            if not _harmless_constant(self.analysis.value(parameter), kind):
                self.add(call, "rate", parameter)
                return

    def _option(self, call: cst.Call) -> None:
        """A flag or command-line option named like a learning rate (`flags.DEFINE_float(
        "learning_rate", 0.1, ...)`, argparse's `parser.add_argument("--lr", default=0.1)`):
        its default."""
        args = [arg.value for arg in call.args if arg.keyword is None]
        flag = last_name(call.func) != "add_argument"  # `DEFINE_float(name, default, help)`
        names = [arg.evaluated_value.strip("-").replace("-", "_")
                 for arg in (args[:1] if flag else args)
                 if arg.__class__ is cst.SimpleString and isinstance(arg.evaluated_value, str)]
        default = _keyword(call, "default") or (args[1] if flag and len(args) > 1 else None)
        if default is not None and any(LEARNING_RATE.search(name) for name in names):
            self._learning_rate(default)

    def _unbiased(self, call: cst.Call) -> bool:
        """Whether a standard deviation or variance divides by n - 1: asked for (`ddof=1`,
        `correction=1`, `unbiased=True`), or PyTorch's default (`torch.std(x)`, and an
        array's `x.var(0)` in a file that imports torch; numpy's default divides by n)."""
        for keyword in ("unbiased", "correction", "ddof"):
            given = keyword_argument(call, keyword)
            if given is not None:  # a parameter passed on (`unbiased=unbiased`): the default's
                if given.__class__ is cst.Name and given.value in ("True", "False"):
                    return given.value == "True"
                number = self.analysis.number(given)
                if number is not None:
                    return number.value >= 1
        qualified = self.analysis.qualified_name(call.func) or ""
        if qualified:
            return qualified.startswith("torch.")
        if self._torch is None:
            self._torch = any(
                alias.name.value == "torch" or dotted_code(alias.name).startswith("torch.")
                for node in descendants(self.analysis.module)
                if node.__class__ is cst.Import for alias in node.names)
        return self._torch

    def _method(self, call: cst.Call, func: cst.Attribute) -> None:
        """`x.log()`, `x.std(0)`, `x.pow(0.5)`, `x.div_(m)`: an array's method, the function
        of the value (`self.norm(x)` is an object's: a layer); `backend.log(x)`,
        `backend.pow(x, 0.5)`: a module's function of its arguments."""
        name = func.attr.value
        base = name[:-1] if name.endswith("_") else name  # `_`: in place
        kind = "empty-mean" if base in NAN_SKIPPING else METHODS.get(base)
        if kind is None or dotted_code(func.value) in ("self", "cls"):
            return
        args = [arg.value for arg in call.args if arg.keyword is None]
        receiver = array_receiver(call, METHOD_ARITY.get(base, 0))
        if receiver is None:  # a module's function of its arguments
            if not args:
                return
            receiver, args = args[0], args[1:]
        if kind == "division":
            divisor = receiver if name.startswith("reciprocal") else (
                args[0] if args else _keyword(call, "other"))
            if divisor is not None:
                self.add(call, kind, divisor)
        elif kind == "pow":
            exponent = args[0] if args else _keyword(call, "exponent")
            found = _exponent_kind(self.analysis.number(exponent) if exponent is not None
                                   else None)
            if found is not None:
                self.add(call, found, receiver)
        else:
            self.add(call, kind, receiver, form="all NaN" if kind == "empty-mean" else "")

    def _cast(self, call: cst.Call, operand: Optional[cst.BaseExpression],
              dtype: Optional[cst.BaseExpression]) -> None:
        """A cast to float16; or to a dtype held in a variable (`tf.cast(v, ori_dtype)`,
        `x.astype(self.dtype)`) of an operand that can pass 65504 (a sum, a variance): a
        float16 cast where the file uses float16 (``Site.dtype_unknown``)."""
        if any(dtype_name(arg.value) in FLOAT16_NAMES for arg in call.args):
            self.add(call, "float16", operand)
        elif dtype is not None and operand is not None and _variable_dtype(dtype) and (
                self._grows(operand)):
            self.add(call, "float16", operand, dtype_unknown=True)

    def _grows(self, expr: cst.BaseExpression, place=None, depth: int = 0) -> bool:
        """A sum, a square, a variance, a norm, an exp or a matrix product (of whatever
        names), through names and shape ops: a value that passes 65504, float16's maximum,
        long before float32's."""
        if depth > 4:
            return False
        kind = expr.__class__
        if kind is cst.Name:
            found = self.analysis.binding(expr.value, place)
            if found is None or found[0].kind != "assign" or found[0].value is None:
                return False
            return self._grows(found[0].value, found[1], depth + 1)
        if kind is cst.BinaryOperation:
            operator = expr.operator.__class__
            # `E[x²] - E[x]²`: a variance written out; `a @ b`, as `matmul(a, b)`
            if self._is_square(expr) or operator is cst.MatrixMultiply:
                return True
            return operator in (cst.Add, cst.Subtract) and (
                self._grows(expr.left, place, depth + 1)
                or self._grows(expr.right, place, depth + 1))
        if kind is not cst.Call:
            return False
        name = self._call_name(expr)
        if name in GROWS:
            return True
        args = [arg.value for arg in expr.args if arg.keyword is None]
        if name in SHAPES and args:
            return self._grows(args[0], place, depth + 1)
        # A mean of squares: a second moment.
        return name in ("reduce_mean", "mean") and any(
            (inner.__class__ is cst.Call and self._call_name(inner) in GROWS)
            or self._is_square(inner) for arg in args for inner in descendants(arg))

    # -- fill values ------------------------------------------------------------------------
    def _fills(self, left: cst.BaseExpression, right: cst.BaseExpression, use: str) -> None:
        """`(1 - mask) * -1e9`, `logits + NEG_INF`: a fill value on either side of a product
        or a sum whose other side is not a constant too."""
        for fill, other in ((left, right), (right, left)):
            found = self._fill_constant(fill)
            if found is not None and self._fill_constant(other) is None and literal(
                    other) is None:
                self._fill(fill, found, use, [other])

    def _fill(self, expr: cst.BaseExpression, found: Tuple[cst.BaseExpression, float, bool,
                                                            bool],
              use: str, partners: List[cst.BaseExpression]) -> None:
        """List the fill value ``expr`` stands for (``found``: see ``_fill_constant``) where
        it is written, with what its use shows of the dtype it meets (``partners``: the
        values it is combined with)."""
        written, magnitude, negative, extreme = found
        analysis = self.analysis
        function = analysis.in_function()
        owner = analysis.function_of(written)
        # A helper that returns a fill may choose it per dtype (`tf.float16.min` for
        # float16, `-1e9` else): what it is combined with here says nothing of its dtype.
        # The fill's own cast counts too: `tf.cast(-1e9, x.dtype)` takes the caller's dtype.
        dtype = self._dtype_met([*(partners if owner is None or owner is function else []),
                                 expr])
        if use == "product":
            factor = partners[0]
            value = analysis.value(factor)
            if value.positive or value.hi < 0 or value.const not in (None, 0) or (
                    factor.__class__ is cst.Call and last_name(factor.func) in ONES):
                use = "select"  # `tf.ones_like(x) * -1e9`: the fill itself, no 0 * inf
        softmax = next((call for call in analysis.calls_named(*SOFTMAXES)
                        if analysis.function_of(call) is function), None) if use not in (
                            "test", "definition") else None
        fill = Fill(magnitude, negative, extreme, use, softmax, dtype)
        known = self._filled.get(id(written))
        if known is not None:
            if fill.strength() <= known.fill.strength():
                return
            self.found.remove(known)
        statements = analysis.cursor.statements
        site = Site(written, KINDS["fill"], written, Value(), analysis.reach(expr),
                    statements[-1] if statements else None, fill=fill)
        self._filled[id(written)] = site
        self.found.append(site)

    def _dtype_met(self, partners: List[cst.BaseExpression]) -> str:
        """The dtype a fill meets, from the values it is combined with: "float16" or
        "float32" where the analysis knows it, "caller" where one is cast to a dtype held in
        a variable (`cast(mask, inputs.dtype)`: float16 under a float16 policy), "policy"
        where a float16 policy the file sets is in force, else ""."""
        caller = ""
        for partner in partners:
            dtype = self.analysis.value(partner).dtype
            if dtype in FLOAT16_NAMES:
                return "float16"
            if dtype in ("float32", "float64", "double", "bfloat16"):
                return "float32"
            if not caller and any(inner.__class__ is cst.Call and self._dtype_held(inner)
                                  for inner in descendants(partner)):
                caller = "caller"
        # Under a float16 policy set in the file, layers compute in float16.
        return caller or ("policy" if self.analysis.dtype_policy() is not None else "")

    def _dtype_held(self, call: cst.Call) -> bool:
        """A cast to a dtype held in a variable: `tf.cast(x, y.dtype)`, `x.astype(dt)`."""
        name = last_name(call.func)
        if name not in ("cast", "astype"):
            return False
        args = [arg.value for arg in call.args if arg.keyword is None]
        dtype = _keyword(call, "dtype") or (args[0] if name == "astype" and args else (
            args[1] if len(args) > 1 else None))
        return dtype is not None and _variable_dtype(dtype)

    def comparison(self, node: cst.Comparison) -> None:
        """`x == -np.inf`: a test for an infinity (``fill`` sites of use "test")."""
        if any(target.operator.__class__ in (cst.Equal, cst.NotEqual)
               for target in node.comparisons) and not self._branches(node):
            for side in (node.left, *(target.comparator for target in node.comparisons)):
                self._test(side)

    def _branches(self, node: cst.Comparison) -> bool:
        """Whether ``node`` is (part of) what Python tests to choose the code that runs: an
        `if`, a `while`, a conditional expression, an `assert`. It compares a Python value
        (`if alpha == np.inf:`, an option), not the elements of a tensor."""
        parents = self.analysis.module_index().parents
        child, parent = node, parents.get(id(node))
        while parent.__class__ in (cst.BooleanOperation, cst.UnaryOperation):
            child, parent = parent, parents.get(id(parent))
        return parent.__class__ in (cst.If, cst.While, cst.IfExp, cst.Assert) and (
            getattr(parent, "test", None) is child)

    def _test(self, expr: cst.BaseExpression) -> None:
        found = self._fill_constant(expr, 2)  # written in the test
        if found is not None and found[1] == float("inf"):
            self._fill(expr, found, "test", [])

    def _fill_constant(self, expr: cst.BaseExpression, depth: int = 0, place=None
                       ) -> Optional[Tuple[cst.BaseExpression, float, bool, bool]]:
        """Where a constant that can only be a fill value is written, its magnitude, its
        sign and whether it is a dtype's own extreme: a number too large for float16 (65520
        or more: `-1e4` is finite there, and no hazard), an infinity (`float('-inf')`,
        `-np.inf`, `math.inf`) or a dtype's extreme (`tf.float16.min`,
        `np.finfo(np.float32).min / 100`, `x.dtype.min`), also through names (two steps at
        most: this runs on every operand of a sum or a product) and a function of the module
        that returns it; else None."""
        kind = expr.__class__
        if kind is cst.Float or kind is cst.Integer:
            value = literal(expr)
            return (expr, abs(value), False, False) if value is not None and (
                abs(value) >= FLOAT16_OVERFLOW) else None
        if kind is cst.UnaryOperation:
            inner = self._fill_constant(expr.expression, depth, place)
            if inner is None or expr.operator.__class__ is not cst.Minus:
                return inner if expr.operator.__class__ is cst.Plus else None
            return expr, inner[1], not inner[2], inner[3]
        if kind is cst.Attribute:
            named = self._named_constant(expr)
            return (expr, *named) if named is not None else None
        if kind is cst.Call:
            return self._called_constant(expr, depth, place)
        if kind is cst.Name:
            value, where = self._bound(expr, depth, place)
            return self._fill_constant(value, depth + 1, where) if value is not None else None
        if kind is cst.BinaryOperation and expr.operator.__class__ in (cst.Multiply,
                                                                        cst.Divide):
            # `np.finfo(np.float32).min / 100`, `-1e9 * 2`: a fill scaled by a number (the
            # number first: a long product of tensors is not walked again at each factor)
            inner, scale = None, literal(expr.right)
            if scale:
                inner = self._fill_constant(expr.left, depth, place)
            elif expr.operator.__class__ is cst.Multiply:
                scale = literal(expr.left)
                inner = self._fill_constant(expr.right, depth, place) if scale else None
            if inner is not None and scale:
                magnitude = inner[1] / abs(scale) if expr.operator.__class__ is cst.Divide \
                    else inner[1] * abs(scale)
                return (expr, magnitude, inner[2] != (scale < 0), False) if (
                    magnitude >= FLOAT16_OVERFLOW) else None
        return None

    def _bound(self, name: cst.Name, depth: int, place
               ) -> Tuple[Optional[cst.BaseExpression], object]:
        """What ``name`` was assigned (or a parameter's default), and where, within two
        steps; (None, None) otherwise."""
        if depth > 1:
            return None, None
        found = self.analysis.binding(name.value, place)
        if found is None:
            return None, None
        binding, where = found
        if binding.kind == "assign":
            return binding.value, where
        if binding.kind == "param" and binding.node.__class__ is cst.Param:
            return binding.node.default, where
        return None, None

    def _called_constant(self, call: cst.Call, depth: int, place
                         ) -> Optional[Tuple[cst.BaseExpression, float, bool, bool]]:
        """`float('-inf')`, `np.float32('inf')`, `tf.constant(-1e9)`, and a function of the
        module that returns a fill value (the first it returns, where it is written)."""
        called = last_name(call.func)
        if called != "float" and called not in DTYPE_MAX and called not in CASTS and (
                depth > 0 or call.func.__class__ is not cst.Name):
            return None
        args = [arg.value for arg in call.args if arg.keyword is None]
        if called == "float" or called in DTYPE_MAX:
            text = args[0].evaluated_value if args and args[0].__class__ is \
                cst.SimpleString else None
            if isinstance(text, str) and text.strip().lower() in INFINITE_TEXTS:
                return call, float("inf"), text.strip().startswith("-"), False
            return None
        if called in CASTS:
            return self._fill_constant(args[0], depth, place) if args else None
        found = self.analysis.binding(call.func.value, place)
        if found is None or found[0].kind != "def":
            return None
        for result, where in self.analysis.results(call.func, found[1]):
            constant = self._fill_constant(result, depth + 1, where)
            if constant is not None:
                return constant
        return None

    def _named_constant(self, expr: cst.Attribute) -> Optional[Tuple[float, bool, bool]]:
        """`np.inf`, `math.inf`, `np.NINF`; `tf.float16.min`, `np.finfo(np.float32).max`,
        `x.dtype.min`: a dtype's extreme, of magnitude 0 when the code does not name the
        dtype (it is the extreme of whatever dtype the values have)."""
        attr = expr.attr.value
        if attr in INFINITIES:
            qualified = self.analysis.qualified_name(expr) or ""
            if qualified.partition(".")[0] in RESOLVED_LIBRARIES or qualified.startswith((
                    "jax.", "torch.")):
                return float("inf"), attr == "NINF", False
            return None
        if attr not in ("min", "max"):
            return None
        owner = expr.value
        if owner.__class__ is cst.Call and last_name(owner.func) == "finfo":
            owner = owner.args[0].value if owner.args else owner
        elif not (dtype_name(owner) or (owner.__class__ is cst.Attribute
                                        and owner.attr.value == "dtype")):
            return None
        return DTYPE_MAX.get(dtype_name(owner) or "", 0.0), attr == "min", True



def _variable_dtype(dtype: cst.BaseExpression) -> bool:
    """A dtype held in a variable or read from a value (`ori_dtype`, `x.dtype`,
    `self.compute_dtype`, `K.floatx()`), not one the code names."""
    return dtype.__class__ in (cst.Name, cst.Attribute, cst.Call) and dtype_name(
        dtype) is None and not integer_dtype(dtype) and not (
            dtype.__class__ is cst.Name and dtype.value in ("int", "float", "bool", "str"))


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


def _text(expr: cst.BaseExpression) -> bool:
    """A string, or one formatted (`"step %i" % i`, `"loss " + str(x)`, `"{}".format(x)`,
    `"_".join(parts)`), or made by `str(x)` or a date's `strftime` (a path's part)."""
    if expr.__class__ is cst.BinaryOperation and expr.operator.__class__ in (cst.Modulo,
                                                                             cst.Add):
        return _text(expr.left)
    if expr.__class__ is cst.Call and expr.func.__class__ is cst.Attribute:
        method = expr.func.attr.value
        return method == "strftime" or (method in STRING_METHODS and _text(expr.func.value))
    if expr.__class__ is cst.Call and expr.func.__class__ is cst.Name:
        return expr.func.value == "str"
    return expr.__class__ in TEXTS


def _square(expr: cst.CSTNode) -> bool:
    """`x * x`, `x ** 2`, `x ** 3`: a power of at least 2."""
    if expr.__class__ is not cst.BinaryOperation:
        return False
    operator = expr.operator.__class__
    if operator is cst.Power:
        exponent = expr.right
        return exponent.__class__ in (cst.Integer, cst.Float) and float(
            exponent.evaluated_value) >= 2
    return operator is cst.Multiply and expr.left.__class__ is cst.Name and (
        expr.right.__class__ is cst.Name) and expr.left.value == expr.right.value


def _is_size(expr: cst.BaseExpression,
             qualified: Callable[[cst.BaseExpression], Optional[str]]) -> bool:
    """A shape, a length or a batch size (a name or an attribute's name, or one named as a
    shape: `input_shape`, `K.int_shape(w)`): at least 1 in practice. A difference is not
    one, whatever it subtracts: `n - k` is 0 when all n are counted, `n - 1` when there is
    one."""
    found = False
    nodes = list(descendants(expr))
    keywords = {id(node.keyword) for node in nodes if node.__class__ is cst.Arg}
    for node in nodes:  # the shape a value is given is not the value: `m.reshape((n, -1))`
        if node.__class__ is cst.Call and last_name(node.func) in RESHAPES:
            given = node.args if qualified(node.func) is None else node.args[1:]  # a method
            keywords.update(id(inner) for arg in given for inner in descendants(arg))
    for node in nodes:
        if id(node) in keywords:
            continue  # `output_shape=` names a parameter: no value read
        if (node.__class__ is cst.BinaryOperation and node.operator.__class__ is cst.Subtract
                ) or (node.__class__ is cst.Call and last_name(node.func) == "subtract"):
            return False
        name = (node.value if node.__class__ is cst.Name else node.attr.value
                if node.__class__ is cst.Attribute else None)
        found = found or (name is not None and (name in SIZES or bool(SHAPE_WORD.search(name))))
    return found


def _outside_divisors(expr: cst.BaseExpression) -> Iterator[cst.CSTNode]:
    """The nodes of ``expr``, but for those of a divisor (the right side of `/`, `//`, `%`)
    and of an exponent."""
    stack: List[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        yield node
        if node.__class__ is cst.BinaryOperation and node.operator.__class__ in (
                cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power):
            stack.append(node.left)
        else:
            stack.extend(children(node))


def _record(expr: cst.BaseExpression) -> bool:
    """A dict or a set, written or made by `dict(...)`: what a logger records
    (`run.log({"loss": l})`, `wandb.log(dict(loss=l))`), not a number."""
    return expr.__class__ in RECORDS or (
        expr.__class__ is cst.Call and expr.func.__class__ is cst.Name
        and expr.func.value in ("dict", "set"))


def _imaginary(expr: cst.BaseExpression) -> bool:
    """An imaginary literal times a real factor or more (`2j * np.pi * theta`, `-1j * a`):
    the exp of it has magnitude 1, whatever the factors."""
    while expr.__class__ is cst.UnaryOperation:
        expr = expr.expression
    if expr.__class__ is cst.Imaginary:
        return True
    return expr.__class__ is cst.BinaryOperation and expr.operator.__class__ is (
        cst.Multiply) and (_imaginary(expr.left) or _imaginary(expr.right))


def _exponent_kind(number: Optional[Number]) -> Optional[str]:
    """What a power with this exponent is: a root (0.5), a fractional power (below 1), or a
    negative one (a division). An exponent from 1 up, or 0, makes none, unless it is
    unknown or a parameter's default (the caller may pass any): then it can be any."""
    exponent = None if number is None else number.value
    if exponent is None or exponent >= 1 or exponent == 0:
        chosen = number is None or number.via.startswith("the default of the parameter")
        return "power" if chosen else None
    return "sqrt" if exponent == 0.5 else "negative-power" if exponent < 0 else "pow"


def _negated(code: str) -> Tuple[bool, str]:
    """(whether ``code`` is a negation, what it negates), spaces and outer brackets aside:
    `-x` and `-(x)` are (True, "x"), `x` is (False, "x")."""
    text = "".join(code.split())
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    if text.startswith("-"):
        inner = text[1:]
        while inner.startswith("(") and inner.endswith(")"):
            inner = inner[1:-1]
        return True, inner
    return False, text
