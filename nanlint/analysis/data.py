"""Data and uses: the scale of input data (``E[|x|^2]`` of an array, where the code shows
it), and every ``name.method(...)`` call of a module. Used by the facade (``Analysis.moment``,
``Analysis.method_calls``); given the resolver (bindings, callees at a place, what a
class assigns to an attribute of ``self``), the constants and the call sites, it asks them
nothing else.

A training rule needs the scale of the data to turn a learning rate into a divergence (SGD
on a mean squared error diverges once ``lr * 2 * E[|x|^2] > 2``) and to call data "raw". The
scale is known only where the code writes it: a literal range (``np.random.uniform(-10,
10, n)``, ``np.arange(100)``, ``np.linspace(a, b, n)``, ``np.random.randn``, a literal list),
a dataset whose values are known (``keras.datasets.boston_housing``), and constant
arithmetic on them (``x * 2 + 1``, ``x / 255``); with the span of the values where those
pin it down (float16 holds at most 65504). Anything else — a file, a standardization,
a call nanlint cannot see — has no known scale, and the question's answer is None.
"""

from __future__ import annotations

import math
import dataclasses
from dataclasses import dataclass
from typing import FrozenSet, Optional, Sequence, Set, Tuple

import libcst as cst

from nanlint.analysis.defuse import dotted
from nanlint.analysis.sinks import without_gradient
from nanlint.analysis.tree import visit

# E[|x|^2] and E[x] per feature of known datasets' training inputs, as stored (unscaled);
# "features" is the number of values per example (a linear model's fan-in).
#   boston_housing: 13 features, TAX ~ 408 +- 168 and B ~ 357 +- 91 dominate: the sum of
#   mean^2 + var over the features is ~3.4e5. california_housing (keras 3): 8 features,
#   population ~ 1425 +- 1130 dominates (~3.4e6). mnist / fashion_mnist: 784 pixels of
#   0..255, E[x^2] ~ 7.3e3 / 1.3e4 per pixel. cifar10/100: 3072 values, E[x^2] ~ 2.6e4.
#   The span is the least and greatest value (boston_housing: TAX reaches 711), None where
#   not pinned down.
DATASETS = {
    "boston_housing": (3.4e5 / 13, 70.0, 13, (0.0, 711.0)),
    "california_housing": (3.4e6 / 8, 200.0, 8, None),
    "mnist": (7.3e3, 33.3, 784, (0.0, 255.0)),
    "fashion_mnist": (1.3e4, 72.9, 784, (0.0, 255.0)),
    "cifar10": (2.6e4, 120.7, 3072, (0.0, 255.0)),
    "cifar100": (2.6e4, 121.9, 3072, (0.0, 255.0)),
}
# Calls and methods that keep the values of their first argument (or receiver).
KEEP = frozenset({"numpy.asarray", "numpy.array", "numpy.reshape", "numpy.float32",
                  "numpy.float64", "numpy.squeeze", "numpy.expand_dims",
                  "tensorflow.constant", "tensorflow.convert_to_tensor", "tensorflow.cast",
                  "tensorflow.reshape", "tensorflow.compat.v1.constant",
                  "tensorflow.compat.v1.convert_to_tensor", "tensorflow.compat.v1.cast",
                  "tensorflow.compat.v1.reshape", "keras.ops.convert_to_tensor",
                  "keras.ops.cast", "keras.ops.reshape"})
KEEP_METHODS = frozenset({"astype", "reshape", "copy", "squeeze", "flatten", "ravel", "T",
                          "to_numpy"})


@dataclass(frozen=True)
class Origin:
    """Where a name's data comes from, followed backwards through assignments, tuple
    unpacking (``path`` selects in a tuple value: ``(x, y), _ = load_data()`` makes x
    ``(0, 0)``), subscripts (``sliced``: fewer examples), ``.values`` and ``.T``: the first
    expression that is none of these, or the parameter (``expr`` None, ``param`` set) or
    other binding (``expr`` None) the name stops at."""

    expr: Optional[cst.BaseExpression]
    place: object
    path: Tuple[int, ...] = ()
    sliced: bool = False
    param: bool = False


def origin(resolver, expr: cst.BaseExpression, place, path: Tuple[int, ...] = (),
           limit: int = 12) -> Optional[Origin]:
    """The backward walk the data questions share (``DataMoments``, NAN401's raw sources):
    None where it runs past ``limit`` steps or a name has no binding."""
    sliced = False
    for _ in range(limit):
        if isinstance(expr, cst.Name):
            found = resolver.binding(expr.value, place)
            if found is None:
                return None
            binding, where = found
            if binding.kind in ("assign", "unpack") and binding.value is not None:
                expr, place, path = binding.value, where, (*binding.position, *path)
                continue
            return Origin(None, where, path, sliced, param=binding.kind == "param")
        if isinstance(expr, cst.Subscript) or (
                isinstance(expr, cst.Attribute) and expr.attr.value == "T"):
            expr, sliced = expr.value, True
        elif isinstance(expr, cst.Attribute) and expr.attr.value == "values":
            expr = expr.value  # a pandas column or frame as an array
        elif isinstance(expr, (cst.Tuple, cst.List)) and path:
            if path[0] >= len(expr.elements):
                return None
            expr, path = expr.elements[path[0]].value, path[1:]
        else:
            return Origin(expr, place, path, sliced)
    return None


@dataclass(frozen=True)
class Moment:
    """What an array's values are: per feature, the mean of the squares and the mean; the
    number of features per example; where that is written, in words."""

    square: float  # E[x^2] of one feature
    mean: float  # E[x]
    features: int  # values per example (the fan-in of a linear model on it)
    source: cst.CSTNode  # the call or literal that makes the data
    what: str  # "`np.random.uniform(-10, 10, 100)`"
    count: Optional[int] = None  # examples in the array, where the code writes it
    span: Optional[Tuple[float, float]] = None  # the least and greatest value, where known

    @property
    def total(self) -> float:
        """E[|x|^2] of one example: the curvature of a linear least-squares fit is twice
        the largest eigenvalue of E[x x^T], which for data of this kind is about this."""
        return self.square * self.features

    @property
    def largest(self) -> float:
        """The largest magnitude a value reaches, about (the root of the mean square)."""
        return math.sqrt(self.square)

    @property
    def extreme(self) -> Optional[float]:
        """The largest magnitude the values reach (an end of ``span``), where known."""
        return max(abs(self.span[0]), abs(self.span[1])) if self.span is not None else None


def _uniform(low: float, high: float) -> Tuple[float, float]:
    return (low * low + low * high + high * high) / 3.0, (low + high) / 2.0


def _sorted(a: float, b: float) -> Tuple[float, float]:
    return (a, b) if a <= b else (b, a)


def _count(size: Optional[cst.BaseExpression], number) -> Optional[int]:
    """Examples in an array of shape ``size``: its first dimension (or the size itself)."""
    if isinstance(size, (cst.Tuple, cst.List)):
        size = size.elements[0].value if size.elements else None
    found = number(size) if size is not None else None
    return int(found.value) if found is not None and 1 <= found.value < 1e9 else None


def _with(moment: Moment, **changes) -> Moment:
    return dataclasses.replace(moment, **changes)


def _features(size: Optional[cst.BaseExpression], number) -> int:
    """Values per example of an array of shape ``size``: all dimensions after the first."""
    if isinstance(size, (cst.Tuple, cst.List)) and len(size.elements) > 1:
        total = 1
        for element in size.elements[1:]:
            found = number(element.value)
            if found is None or not 1 <= found.value < 1e9:
                return 1
            total *= int(found.value)
        return total
    return 1


class DataMoments:
    """Answers ``moment(expr, place)`` for one module, through the resolver and the
    constants."""

    def __init__(self, resolver, constants) -> None:
        self.resolver = resolver
        self.constants = constants

    def moment(self, expr: cst.BaseExpression, place=None) -> Optional[Moment]:
        place = place or self.resolver.here()
        return self._moment(expr, place, 0, ())

    # -- following the data backwards -------------------------------------------------------
    def _number(self, expr: Optional[cst.BaseExpression], place):
        if expr is None:
            return None
        return self.constants.number(expr, place.scope, place.index)

    def _moment(self, expr: cst.BaseExpression, place, depth: int,
                path: Tuple[int, ...]) -> Optional[Moment]:
        if depth > 12:
            return None
        found = origin(self.resolver, expr, place, path)
        if found is None or found.expr is None:
            return None
        moment = self._produced(found.expr, found.place, depth + 1, found.path)
        return _with(moment, count=None) if moment is not None and found.sliced else moment

    def _produced(self, expr: cst.BaseExpression, place, depth: int,
                  path: Tuple[int, ...]) -> Optional[Moment]:
        """The moments of data an expression makes: a literal table, arithmetic, a call."""
        if isinstance(expr, (cst.Tuple, cst.List)) and not path:
            return self._literal(expr.elements, place, expr)  # `x_train = [32, 53, 61]`
        if isinstance(expr, cst.BinaryOperation):
            return self._arithmetic(expr, place, depth)
        if isinstance(expr, cst.Call):
            return self._call(expr, place, depth, path)
        return None

    def _arithmetic(self, expr: cst.BinaryOperation, place, depth: int) -> Optional[Moment]:
        """Data times, over, plus or minus a constant: its moments follow."""
        operator = expr.operator
        left, right = self._number(expr.left, place), self._number(expr.right, place)
        if left is None and right is not None:
            data, constant = self._moment(expr.left, place, depth, ()), right.value
            data_left = True
        elif right is None and left is not None:
            data, constant = self._moment(expr.right, place, depth, ()), left.value
            data_left = False
        else:
            return None
        if data is None:
            return None
        span = data.span
        if isinstance(operator, cst.Multiply):
            square, mean = data.square * constant ** 2, data.mean * constant
            span = _sorted(span[0] * constant, span[1] * constant) if span else None
        elif isinstance(operator, cst.Divide) and data_left and constant != 0:
            square, mean = data.square / constant ** 2, data.mean / constant
            span = _sorted(span[0] / constant, span[1] / constant) if span else None
        elif isinstance(operator, (cst.Add, cst.Subtract)):
            # s * x + t: E[(s x + t)^2] = E[x^2] + 2 s t E[x] + t^2
            subtract = isinstance(operator, cst.Subtract)
            s = -1.0 if subtract and not data_left else 1.0
            t = -constant if subtract and data_left else constant
            square = data.square + 2 * s * t * data.mean + t * t
            mean = s * data.mean + t
            span = _sorted(s * span[0] + t, s * span[1] + t) if span else None
        else:
            return None
        text = " ".join(self.resolver.code(expr).split())
        return Moment(square, mean, data.features, data.source,
                      f"`{text[:57] + '...' if len(text) > 60 else text}`", data.count, span)

    def _call(self, call: cst.Call, place, depth: int,
              path: Tuple[int, ...]) -> Optional[Moment]:
        qualified = (self.resolver.qualified_at(call.func, place) or "")
        positional = [a.value for a in call.args if a.keyword is None and not a.star]

        def arg(position: int, *names: str) -> Optional[cst.BaseExpression]:
            for a in call.args:
                if a.keyword is not None and a.keyword.value in names:
                    return a.value
            return positional[position] if position < len(positional) else None

        def num(position: int, default: Optional[float], *names: str) -> Optional[float]:
            expr = arg(position, *names)
            if expr is None:
                return default
            found = self._number(expr, place)
            return found.value if found is not None else None

        def count(size: Optional[cst.BaseExpression]) -> Optional[int]:
            return _count(size, lambda e: self._number(e, place))

        text = " ".join(self.resolver.code(call).split())
        what = f"`{text[:57] + '...' if len(text) > 60 else text}`"
        shape = cst.Tuple([cst.Element(p) for p in positional]) if positional else None
        if qualified in ("numpy.random.uniform", "numpy.random.RandomState.uniform"):
            low, high = num(0, 0.0, "low"), num(1, 1.0, "high")
            if low is None or high is None:
                return None
            square, mean = _uniform(low, high)
            features = _features(arg(2, "size"), lambda e: self._number(e, place))
            return Moment(square, mean, features, call, what, count(arg(2, "size")),
                          _sorted(low, high))
        if qualified in ("numpy.random.rand", "numpy.random.random", "numpy.random.random_sample"):
            return Moment(1 / 3, 0.5, 1 if len(positional) < 2 else _features(
                shape, lambda e: self._number(e, place)), call, what, count(shape), (0.0, 1.0))
        if qualified == "numpy.random.randn":
            return Moment(1.0, 0.0, 1 if len(positional) < 2 else _features(
                shape, lambda e: self._number(e, place)), call, what, count(shape))
        if qualified == "numpy.random.normal":
            loc, scale = num(0, 0.0, "loc"), num(1, 1.0, "scale")
            if loc is None or scale is None:
                return None
            features = _features(arg(2, "size"), lambda e: self._number(e, place))
            return Moment(loc * loc + scale * scale, loc, features, call, what,
                          count(arg(2, "size")))
        if qualified == "numpy.arange":
            start, stop, step = num(0, None, "start"), num(1, None, "stop"), num(2, 1.0, "step")
            if start is None or step is None or step == 0:
                return None
            if stop is None:
                if len(positional) > 1 or arg(1, "stop") is not None:
                    return None
                start, stop = 0.0, start
            number_of = int(math.ceil((stop - start) / step))
            if not 0 < number_of <= 10_000_000:
                return None
            # sum of (start + k step)^2 for k < number_of, in closed form
            k1 = number_of * (number_of - 1) / 2
            k2 = (number_of - 1) * number_of * (2 * number_of - 1) / 6
            total = number_of * start * start + 2 * start * step * k1 + step * step * k2
            return Moment(total / number_of, start + step * (number_of - 1) / 2, 1, call, what,
                          number_of, _sorted(start, start + step * (number_of - 1)))
        if qualified == "numpy.linspace":
            low, high = num(0, None, "start"), num(1, None, "stop")
            if low is None or high is None:
                return None
            square, mean = _uniform(low, high)
            return Moment(square, mean, 1, call, what, count(arg(2, "num")) if arg(2, "num")
                          is not None else 50, _sorted(low, high))
        if qualified.endswith(".load_data") and qualified.startswith(
                ("keras.", "tensorflow.keras.", "tf_keras.")):
            dataset = qualified.split(".")[-2]
            if dataset not in DATASETS or (path and path[-1] != 0) or (path and path[0] != 0):
                return None  # (x, y), (x_test, y_test): only x is known
            square, mean, features, span = DATASETS[dataset]
            return Moment(square, mean, features, call, what, span=span)
        if qualified in ("numpy.asarray", "numpy.array") and positional and isinstance(
                positional[0], (cst.List, cst.Tuple)):
            literal = self._literal(positional[0].elements, place, call)
            if literal is not None:
                return _with(literal, what=what)
        if qualified in KEEP and positional:
            return self._moment(positional[0], place, depth, path)
        func = call.func
        if isinstance(func, cst.Attribute) and not qualified:
            if func.attr.value in KEEP_METHODS:
                return self._moment(func.value, place, depth, path)
        return None

    def _literal(self, elements: Sequence[cst.BaseElement], place,
                 source: cst.CSTNode) -> Optional[Moment]:
        """A literal list of numbers (or of equal-length lists of numbers)."""
        values, features = [], 1
        for element in elements:
            if isinstance(element.value, (cst.List, cst.Tuple)):
                row = [self._number(e.value, place) for e in element.value.elements]
                if not row or any(r is None for r in row):
                    return None
                features = len(row)
                values.extend(r.value for r in row)
            else:
                found = self._number(element.value, place)
                if found is None:
                    return None
                values.append(found.value)
        if not values:
            return None
        square = sum(v * v for v in values) / len(values)
        text = " ".join(self.resolver.code(source).split())
        return Moment(square, sum(values) / len(values), features, source,
                      f"`{text[:57] + '...' if len(text) > 60 else text}`", len(elements),
                      (min(values), max(values)))


class _MethodCallsOf(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: dict = {}

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute):
            receiver = dotted(func.value)  # `model`, `self.model`; "" for anything else
            if receiver:
                self.found.setdefault((receiver, func.attr.value), []).append(node)


class MethodCalls:
    """Every `name.method(...)` call of a module, by receiver (a name, or a dotted chain of
    names as written: `self.model`) and method (cached)."""

    def __init__(self, module: cst.Module) -> None:
        calls = _MethodCallsOf()
        visit(module, calls)
        self._found = calls.found

    def of(self, receiver: str, *methods: str):
        return [call for method in methods for call in self._found.get((receiver, method), [])]

    def receivers(self):
        return {receiver for receiver, _ in self._found}


# Op transfers whose output can hold a trainable value whatever their arguments: a variable,
# a layer (its kernel), a function applied to the arguments, an object the analysis does
# not follow.
_TRAINED = frozenset({"variable", "layer", "layer_fn", "apply", "object", "map"})
# What feeds data into a graph, or reads only a tensor's shape: no weight is upstream.
_DATA_SOURCES = frozenset({"placeholder", "placeholder_with_default", "sparse_placeholder",
                           "Input", "shape", "shape_n", "size", "rank"})
# Methods that read the next element of a `tf.data` iterator (TF1's `get_next`).
_NEXT_ELEMENT = frozenset({"get_next", "get_next_as_optional"})
# argparse's parsers: what they return holds the values of a command line.
_COMMAND_LINE = frozenset({"parse_args", "parse_known_args"})
# Python's own functions of plain values.
_BUILTINS = frozenset({"range", "len", "int", "float", "list", "tuple", "zip", "enumerate",
                       "min", "max", "abs", "sum", "round", "reversed", "sorted"})
_LITERALS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString,
             cst.ConcatenatedString, cst.FormattedString)


@dataclass(frozen=True)
class DataOrigin:
    """What ``data_sources`` found: the ids of the expressions assigned to the names read,
    and the first call met whose output passes no gradient back (`stop_gradient`, an
    integer cast), if the walk stopped at one."""
    assigned: FrozenSet[int]
    cut: Optional[cst.Call]


def _fed_by_keras(resolver, binding, name: str) -> bool:
    """Whether Keras passes data to the parameter ``name``: the targets `y_true` of a
    `(y_true, y_pred)` loss, the batch `data` of a model's `train_step` or `test_step`."""
    function = resolver.function_of(binding.node)
    if function is None:
        return False
    params = [param.name.value for param in function.params.params]
    if name == "y_true":
        return "y_pred" in params
    return function.name.value in ("train_step", "test_step") and params[:2] == ["self", name]


def data_sources(resolver, sites, expr: cst.BaseExpression, place, budget: int = 60
                 ) -> Optional[DataOrigin]:
    """If no gradient of a weight can pass through ``expr``: it is computed from data alone
    — placeholders, ``keras.Input``, numpy arrays, constants, shapes, and ops of the op
    model applied to those — or from values behind a call whose output has no gradient
    (`stop_gradient`, `numpy_function`, an integer cast, `argmax`). Then the ids of the
    expressions assigned to the names it reads (the caller asks whether the module
    differentiates with respect to one of them), and the first such call. None where some
    part may hold a trainable value (a variable, a layer's output, a parameter whose callers
    in the module do not all pass data, an attribute of ``self``, a call the model does not
    know) or the walk runs past ``budget`` steps."""
    walk = _DataWalk(resolver, sites, budget)
    return DataOrigin(frozenset(walk.assigned), walk.cut) if walk.walk(expr, place) else None


class _DataWalk:
    """The backward walk of ``data_sources`` (a class, not a closure: a recursive closure
    is a reference cycle that would keep the tree alive)."""

    def __init__(self, resolver, sites, budget: int) -> None:
        self.resolver = resolver
        self.sites = sites
        self.budget = budget
        self.assigned: Set[int] = set()
        self.cut: Optional[cst.Call] = None

    def walk(self, node: cst.BaseExpression, where) -> bool:
        self.budget -= 1
        if self.budget < 0:
            return False
        resolver, walk = self.resolver, self.walk
        kind = node.__class__
        if kind in _LITERALS or kind is cst.Comparison:
            return True  # a comparison is boolean: no gradient passes it
        if kind is cst.Name:
            if node.value in ("True", "False", "None"):
                return True
            found = resolver.binding(node.value, where)
            if found is None:
                return False
            binding, at = found
            if binding.kind == "param":  # data only if every caller in the module passes data
                passed = self.sites.arguments_of(node.value, at)
                if passed is None:  # no caller shown: Keras's conventions, if any
                    return _fed_by_keras(resolver, binding, node.value)
                return all(walk(expr, there) for expr, there in passed)
            if binding.kind not in ("assign", "unpack") or binding.value is None:
                return False
            if id(binding.value) in self.assigned:
                return True  # walked already: a False anywhere ends the whole walk
            self.assigned.add(id(binding.value))
            return walk(binding.value, at)
        if kind is cst.Attribute:
            qualified = resolver.qualified_at(node, where) or ""
            if qualified.split(".", 1)[0] in ("tensorflow", "numpy", "keras", "absl"):
                return True  # a dtype, a constant, a flag's value
            base = node.value
            # `x.shape`, `x.T` of data are data; `self.w` is what the class makes it
            if base.__class__ is cst.Name and base.value in ("self", "cls"):
                return self._self_attribute(node.attr.value, where)
            return walk(base, where)
        if kind is cst.Subscript:
            return walk(node.value, where)
        if kind is cst.BinaryOperation or kind is cst.BooleanOperation:
            return walk(node.left, where) and walk(node.right, where)
        if kind is cst.UnaryOperation:
            return walk(node.expression, where)
        if kind is cst.IfExp:
            return walk(node.body, where) and walk(node.orelse, where)
        if kind is cst.Tuple or kind is cst.List:
            return all(walk(element.value, where) for element in node.elements)
        if kind is cst.Call:
            func = node.func
            qualified = resolver.qualified_at(func, where) or ""
            library = qualified.split(".", 1)[0]
            last = qualified.rsplit(".", 1)[-1]
            if library == "numpy" or (library in ("tensorflow", "keras")
                                      and last in _DATA_SOURCES):
                return True
            if library in ("tensorflow", "keras") and without_gradient(node, last):
                self.cut = self.cut or node
                return True
            if func.__class__ is cst.Attribute and func.attr.value in _NEXT_ELEMENT:
                return True  # an element of a `tf.data` dataset: read, not computed
            if func.__class__ is cst.Attribute and func.attr.value in _COMMAND_LINE:
                return True  # `parser.parse_args()`: the values of a command line
            if (func.__class__ is cst.Attribute and func.attr.value in KEEP_METHODS
                    and not library):
                return walk(func.value, where)  # `.astype(...)`, `.reshape(...)` of data
            if (func.__class__ is cst.Name and func.value in _BUILTINS
                    and resolver.binding(func.value, where) is None):
                return all(walk(arg.value, where) for arg in node.args)
            callee = resolver.callee(func, where.scope, where.index)
            if callee is not None and callee.kind == "function" and isinstance(
                    callee.node, cst.FunctionDef):  # a function of the file: what it returns
                scope = resolver.function_scope(callee.node, callee.scope)
                return bool(scope.returns) and all(
                    walk(r.value, dataclasses.replace(where, scope=scope, index=r.index))
                    for r in scope.returns if r.value is not None)
            op = resolver.op_at(node, where)
            if op is None or op.transfer in _TRAINED:
                return False
            # a method of an array (`x.sum()`, `x.clamp(0)`) computes from the array too
            method = not qualified and func.__class__ is cst.Attribute
            return (not method or walk(func.value, where)) and all(
                walk(arg.value, where) for arg in node.args)
        return False

    def _self_attribute(self, attr: str, where) -> bool:
        """``self.attr`` is data where every assignment to it in the methods of the class
        (and of the classes related to it) is: `self.x, self.y = iterator.get_next()`."""
        class_scope = self.resolver.scope_of(where.scope.cls) if where.scope.cls else None
        if class_scope is None:
            return False
        assignments = self.resolver.self_assignments(attr, class_scope)
        return bool(assignments) and all(value is not None and self.walk(value, place)
                                         for value, place in assignments)
