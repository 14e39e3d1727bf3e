"""The evaluator: what an expression can be, through names, calls and operators.

:class:`Evaluator` is given the resolver (names, callees, attributes), the module's call
sites and the gradient flow (for the assertions that guard a name). Names are followed to
their bindings (assignments, augmented assignments, parameters; the join of those that can
reach the use across branches), calls to the op model's transfer functions (``producers``)
or to the results of the file's own functions and lambdas — computed with the
caller's arguments, one level deep — operators to ``arithmetic``. A parameter is the join of
the arguments of the function's call sites in the module. Results are cached per node (per
call for a function evaluated with its arguments). A name read after an assertion that
it is positive (``tf.debugging.assert_positive``, a control dependency on one) is guarded.
"""

from __future__ import annotations

import re
from math import inf
from typing import Dict, List, Optional, Tuple, Union

import libcst as cst

from nanlint import optable
from nanlint.analysis.arithmetic import arithmetic, maximum, negated, square
from nanlint.analysis.callsites import Activation, argument_expression, bind_arguments
from nanlint.analysis.defuse import GUARDS
from nanlint.analysis.constants import MATH_CONSTANTS, math_constant
from nanlint.analysis.flow import Flow
from nanlint.analysis.lattice import (UNKNOWN, Evidence, Value, constant, join, normalized,
                                      python_number, replace, written_in_place)
from nanlint.analysis.producers import (comparison_tags, output, smaller, tuple_element,
                                        zeros_marked)
from nanlint.analysis.resolver import Callee, Resolver
from nanlint.analysis.sites import Callable, Sites, site_arguments
from nanlint.analysis.sources import (activation_value, gradient, gradient_method,
                                      is_update_gradient, log_density, state_variable,
                                      update_gradient)
from nanlint.analysis.scopes import END, Binding, Scope, attribute_entry, entry_name
from nanlint.analysis.tree import TEXTS, descendants, dotted_code, last_name
from nanlint.analysis.settings import PARAMETER_ROLES, Settings

_MAX_DEPTH = 120
_GUARD_WORDS = tuple(sorted(GUARDS))  # an assertion that guards is called by one of these

Key = Union[int, str]  # a position in a tuple or a list, or a dict key
Path = Tuple[Key, ...]


class Evaluator:
    """``value(expr, scope, index)``: what ``expr`` can be at that place, for one module."""

    def __init__(self, resolver: Resolver, sites: Sites, flow: Flow,
                 settings: Settings) -> None:
        self.resolver = resolver
        self.sites = sites
        self.flow = flow
        self.settings = settings
        self._in_progress: set = set()  # parameters and results being computed: recursion
        # `tf.cond(c, true_fn, ...)`: the call of each function branch, kept alive (values
        # are cached by node id).
        self.branch_calls: Dict[int, cst.Call] = {}
        self._values: Dict[int, Value] = {}
        self._cut: Dict[Tuple[int, str], bool] = {}  # (function, name): cut into ranges
        self._returns: Dict[Tuple[int, Path], Value] = {}
        self._depth = 0
        self._loss_re = re.compile(settings.loss_function_pattern)
        self._call_results: Dict[Tuple[int, Path], Value] = {}

    def value(self, expr: cst.BaseExpression, scope: Scope, index: int) -> Value:
        """What ``expr`` can be at (scope, index) (cached per node; per call when the
        resolver's active call is being evaluated with its arguments)."""
        resolver = self.resolver
        activation = resolver.within(scope)
        if resolver.active is not None and activation is None:
            return resolver.outside(lambda: self.value(expr, scope, index))
        values = activation.values if activation is not None else self._values
        key = id(expr)
        cached = values.get(key)
        if cached is not None:
            return cached
        if self._depth > _MAX_DEPTH:
            return UNKNOWN
        self._depth += 1
        try:
            value = normalized(self._compute(expr, scope, index))
        finally:
            self._depth -= 1
        values[key] = value
        return value

    def _compute(self, expr: cst.BaseExpression, scope: Scope, index: int) -> Value:
        """What ``expr`` can be; for a name read after ``tf.debugging.assert_positive(name)``
        (or a control dependency on it), guarded: the assertion stops the program before a
        0 gets through."""
        value = self._walk(expr, scope, index)
        if (expr.__class__ is cst.Name  # (exact classes: no ABC isinstance)
                and (value.zero or value.negative or "mask_parameter" in value.tags)
                and scope.node.__class__ in (cst.FunctionDef, cst.Module)
                and self.sites.mentions(_GUARD_WORDS)  # (the module index spells no others)
                and self.flow.has_assertions()):
            asserted = self.flow.asserted(expr, scope.node)
            if asserted is not None:
                return _guarded(value, asserted)
        return value

    def _walk(self, expr: cst.BaseExpression, scope: Scope, index: int) -> Value:
        # Exact classes (``isinstance`` against libcst's goes through the ABC machinery).
        kind = expr.__class__
        if kind is cst.Integer or kind is cst.Float:
            try:
                return constant(float(expr.evaluated_value))
            except (OverflowError, ValueError):
                return UNKNOWN
        if kind is cst.Name:
            if expr.value in ("True", "False"):
                return constant(1.0 if expr.value == "True" else 0.0)
            reaching = self.resolver.reaching(expr.value, scope, index)
            return join([self._binding_value(expr.value, binding, where)
                         for binding, where in reaching]) if reaching else UNKNOWN
        if kind is cst.Attribute:
            limit = _finfo(expr)
            if limit is not None:  # `np.finfo(np.float32).eps`
                return constant(limit)
            if dotted_code(expr) in _INFINITIES:
                return constant(inf)
            named = math_constant(self.resolver, expr, scope, index)
            if named is not None:
                return constant(named)
            if (isinstance(expr.value, cst.Name) and expr.value.value == "self"
                    and scope.cls is not None):
                return self._self_attribute(expr.attr.value, scope, index)
            return UNKNOWN
        if kind is cst.UnaryOperation:
            operand = self.value(expr.expression, scope, index)
            if isinstance(expr.operator, cst.Minus):
                return negated(operand)
            if isinstance(expr.operator, cst.Plus):
                return operand
            return UNKNOWN
        if kind is cst.BinaryOperation:
            left = self.value(expr.left, scope, index)
            right = self.value(expr.right, scope, index)
            if python_number(left) and python_number(right):
                # Python's own arithmetic: a division by 0 raises, no inf or NaN is made
                value = arithmetic(type(expr.operator).__name__, left, right, expr)
                return replace(value, tensor=False, tags=value.tags | {"python_number"})
            if isinstance(expr.operator, cst.Multiply) and expr.left.deep_equals(expr.right):
                return square(left, expr, "square")  # `x * x`
            if isinstance(expr.operator, cst.Divide) and self._own_norm(
                    expr.left, expr.right, scope, index):
                # `x / norm(x)`: a unit vector, its entries in [-1, 1] (0 where x's are);
                # the dot of two is a cosine. Where the norm is 0, the division's own hazard.
                return Value(lo=-1.0, hi=1.0, zero=left.zero, known=True, tensor=True,
                             tags=frozenset({"unit"}), node=expr)
            value = arithmetic(type(expr.operator).__name__, left, right, expr)
            if value.zero is not None and expr.operator.__class__ is cst.Add and (
                    self._selected(expr, scope, index)):
                return replace(value, zero=None)
            if value.zero is None and expr.operator.__class__ is cst.Add and (
                    left.tensor or right.tensor):
                average = self._average_of_squares(expr, scope, index)
                if average is not None:
                    return replace(value, zero=average, lo=max(value.lo, 0.0) if (
                        left.nonnegative or right.nonnegative) else value.lo)
            return value
        if kind is cst.Comparison:
            guards, tags = None, frozenset({"bool"})
            operator = {cst.Equal: "equal", cst.LessThanEqual: "less_equal",
                        cst.LessThan: "less"}.get(expr.comparisons[0].operator.__class__)
            if len(expr.comparisons) == 1 and operator is not None:
                guards = zeros_marked(self, expr.left, expr.comparisons[0].comparator,
                                      scope, index, operator)
            if len(expr.comparisons) == 1:
                compared = expr.comparisons[0]
                tags |= comparison_tags(self, expr.left, compared.comparator,
                                        compared.operator.__class__.__name__, scope, index)
            return Value(lo=0.0, hi=1.0, known=True, tensor=True, tags=tags, guards=guards)
        if kind is cst.Call:
            return self._call(expr, scope, index)
        if kind is cst.NamedExpr:  # `(d := x)` is x, named
            return self._named(self.value(expr.value, scope, index), expr.target.value)
        if kind is cst.IfExp:
            return join([self.value(expr.body, scope, index),
                          self.value(expr.orelse, scope, index)])
        if kind is cst.Subscript:
            key = _literal_key(expr)
            if key is not None:  # `pair[1]` of a tuple, `out["count"]` of a dict
                piece = self.piece(expr.value, (key,), scope, index)
                if piece is not UNKNOWN:
                    return self._named(piece, self.resolver.code(expr))
            entry = self.resolver.dict_entry(expr, scope, index)
            if entry is not None:  # `params["scale"]` of a dict literal
                return self._named(self.value(entry[0], entry[1], entry[2]),
                                   self.resolver.code(expr))
            passed = self._parameter_entry(expr, scope, index)
            if passed is not None:  # `cfg["scale"]`, `cfg` a dict the callers pass
                return self._named(passed, self.resolver.code(expr))
            # An element of a tensor has the tensor's range and evidence.
            base = self.value(expr.value, scope, index)
            if base.zero is not None and base.zero.producer == "parameter" and (
                    self._one_of_its_parts(expr, scope)):
                return Value(tensor=True)
            if "unlike_parts" in base.tags and _selects(expr):
                # `concat([sigmoid(a), exp(b)], -1)[..., 3]`: a zero of some parts only
                # says nothing of the entries a subscript takes (they may be another's)
                base = replace(base, zero=None)
            return replace(base, const=None, layer=None) if base.tensor else UNKNOWN
        if kind is cst.List or kind is cst.Tuple:
            # A literal of numbers (`np.array([1.0, 2.0])`, a matrix `[[1, 0], [0, 1]]`):
            # the range of its elements.
            values = self._numbers(expr, scope, index)
            if values:
                return join(values)
        return UNKNOWN

    def _numbers(self, expr: cst.BaseExpression, scope: Scope, index: int
                 ) -> Optional[List[Value]]:
        """The values of a list or tuple literal's numbers, at any depth of nesting; None
        if one of its elements is not a number."""
        values: List[Value] = []
        for element in expr.elements:
            if element.__class__ is not cst.Element:
                return None
            inner = element.value
            if inner.__class__ is cst.List or inner.__class__ is cst.Tuple:
                found = self._numbers(inner, scope, index)
                if not found:
                    return None
                values.extend(found)
                continue
            value = self.value(inner, scope, index)
            if value.const is None:
                return None
            values.append(value)
        return values

    def _self_attribute(self, attr: str, scope: Scope, index: int) -> Value:
        """``self.attr`` in a method: what this method assigned to it before, else what the
        class's methods assign to it (``attr`` may name a dict entry, ``attribute_entry``)."""
        name = f"self.{attr}"
        local = scope.assigned_before(attr, index)
        if local is not None and local.value is not None:
            # `self.p = clip(self.p, ...)` earlier in this method: that value.
            value = self.piece(local.value, local.position, scope, local.index)
            if name in scope.item_written or name in scope.updated:  # `self.p[i] = `, `+=`
                value = written_in_place(value, whole=name not in scope.item_written)
            return self._named(value, name)
        class_scope = self.resolver.scope_of(scope.cls)
        if class_scope is None:
            return UNKNOWN
        return self._named(self.resolver.self_attribute(attr, class_scope), name)

    def _one_of_its_parts(self, expr: cst.Subscript, scope: Scope) -> bool:
        """``y_pred[..., n:]`` where the function cuts that name into several ranges: the
        parameter holds the outputs of several heads (a mixture's means, scales and
        weights), not one probability vector, so the convention says nothing of a part."""
        name, function = expr.value, scope.node
        if not isinstance(name, cst.Name) or not isinstance(function, cst.FunctionDef) or not (
                _ranges(expr)):
            return False
        key = (id(function), name.value)
        known = self._cut.get(key)
        if known is None:
            cuts = {self.resolver.code(node) for node in descendants(function.body)
                    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name)
                    and node.value.value == name.value and _ranges(node)}
            known = self._cut[key] = len(cuts) >= 2
        return known

    def _average_of_squares(self, expr: cst.BinaryOperation, scope: Scope, index: int
                            ) -> Optional[Evidence]:
        """``b * v + (1 - b) * g²`` (either order, ``g * g`` too, the weights constants that
        sum to 1 or ``b`` and ``1 - b``): a moving average of squares, whose state starts at
        0, is 0 wherever ``g`` has been 0 since — the evidence is ``g``'s."""
        terms = [_factors(expr.left), _factors(expr.right)]
        if len(terms[0]) < 2 or len(terms[1]) < 2:
            return None
        for first, second in (terms, terms[::-1]):
            for weight in first:
                for other in second:
                    if not self._complements(weight, other, scope, index):
                        continue
                    rest = [f for f in second if f is not other]
                    if len(rest) == 2 and rest[0].deep_equals(rest[1]):
                        squared = square(self.value(rest[0], scope, index), expr, "square")
                    elif len(rest) == 1:
                        squared = self.value(rest[0], scope, index)
                    else:
                        continue
                    if "square" in squared.tags and squared.zero is not None and (
                            not squared.zero.discrete):
                        return Evidence(expr, "the moving average of squares `{src}`",
                                        "which starts at 0 and stays 0 wherever its squared "
                                        "input has been 0, and that input " +
                                        squared.zero.why.removeprefix("which "),
                                        squared.zero.confidence,
                                        tiny=True, producer="average_of_squares")
        return None

    def _selected(self, expr: cst.BinaryOperation, scope: Scope, index: int) -> bool:
        """``m * x + (1 - m) * y`` (``cast(c) * x + cast(logical_not(c))``): where the mask
        is 1 the sum is ``x``, elsewhere ``y``, so it is 0 only where the one it selects is; a
        term that is the mask alone is 1 there. True where neither ``x`` nor ``y`` is shown
        to be 0."""
        terms = [_factors(expr.left), _factors(expr.right)]
        for weight in terms[0]:
            for other in terms[1]:
                if not (self._complements(weight, other, scope, index)
                        or self._complements(other, weight, scope, index)):
                    continue
                rest = [f for f in terms[0] if f is not weight] + [
                    f for f in terms[1] if f is not other]
                return all(self.value(f, scope, index).zero is None for f in rest)
        return False

    def _complements(self, weight: cst.BaseExpression, other: cst.BaseExpression,
                     scope: Scope, index: int) -> bool:
        """``b`` and ``1 - b`` (or two constants that sum to 1), or the casts of a condition
        and of its negation (``logical_not(c)``, ``~c``)."""
        if other.__class__ is cst.BinaryOperation and other.operator.__class__ is (
                cst.Subtract) and other.right.deep_equals(weight):
            return self.value(other.left, scope, index).const == 1
        condition, negated_condition = _cast_of(weight), _cast_of(other)
        if condition is not None and negated_condition is not None:
            if isinstance(negated_condition, cst.Name):
                binding, _ = self.resolver.resolve(negated_condition.value, scope, index)
                if binding is not None and binding.kind == "assign" and binding.value is not None:
                    negated_condition = binding.value
            inner = _negation(negated_condition)
            return inner is not None and inner.deep_equals(condition)
        a, b = self.value(weight, scope, index).const, self.value(other, scope, index).const
        return a is not None and b is not None and 0 < a < 1 and abs(a + b - 1) < 1e-9

    def _binding_value(self, name: str, binding: Binding, scope: Scope) -> Value:
        if binding.kind == "assign" and binding.value is not None:
            if binding.value.__class__ is cst.List and name in scope.appended:
                value = self._grown_list(binding.value, scope.appended[name], scope,
                                         binding.index)
            else:
                value = self.value(binding.value, scope, binding.index)
            if name in scope.item_written or name in scope.updated:
                # `a = np.zeros(n)`, then `a[i] = ...`, or `a.add_(x)` (a whole update)
                value = written_in_place(value, whole=name not in scope.item_written)
        elif binding.kind == "augassign" and isinstance(binding.node, cst.AugAssign):
            previous, where = self.resolver.resolve(name, scope, binding.index)
            left = self._binding_value(name, previous, where) if previous else UNKNOWN
            right = self.value(binding.value, scope, binding.index)
            value = arithmetic(type(binding.node.operator).__name__.replace("Assign", ""),
                                     left, right, binding.node)
        elif binding.kind == "param":
            value = self._parameter(name, scope)
            annotated = _annotated_number(binding.node)
            if annotated is not None:  # what its callers pass, which Python holds as a number
                value = replace(value, tags=value.tags | {"python_number"},
                                integral=value.integral or annotated != "float")
        elif binding.kind == "unpack" and binding.value is not None:
            value = self.piece(binding.value, binding.position, scope, binding.index)
        elif binding.kind == "element" and binding.value is not None:
            value = self._element(binding.value, binding.position, scope, binding.index)
        elif binding.kind == "import" and binding.qualified in MATH_CONSTANTS:
            return constant(MATH_CONSTANTS[binding.qualified])  # `from math import pi`
        else:
            return UNKNOWN
        return self._named(value, name)

    def _grown_list(self, literal: cst.List, added: List[Binding], scope: Scope,
                    index: int) -> Value:
        """A list made by a literal (often empty) and grown by `append`, `insert` or
        `extend` in its scope (`outputs = []`, then `outputs.append(h)` in a loop): any of
        its elements, for what stacks, concatenates or sums it."""
        parts = [self.value(element.value, scope, index) for element in literal.elements
                 if element.__class__ is cst.Element]
        parts += [self.value(binding.value, scope, binding.index) for binding in added]
        if not parts or not all(part.tensor for part in parts):
            return UNKNOWN
        return replace(join(parts), const=None, layer=None)

    def piece(self, expr: cst.BaseExpression, path: Path, scope: Scope,
               index: int) -> Value:
        """Element ``path`` of what ``expr`` is, where that is a tuple, a list or a dict
        (a position, or a key): a pair a function returns and its caller unpacks
        (``conf, cls = head(x)``), ``pair[1]``, a piece of ``tf.unstack(x)``, an entry
        ``stats["count"]`` of a dict literal or set by ``stats["count"] = ...``; ``expr``
        itself for an empty path."""
        if not path:
            return self.value(expr, scope, index)
        if self._depth > _MAX_DEPTH:
            return UNKNOWN
        self._depth += 1
        try:
            return self._compute_piece(expr, path, scope, index)
        finally:
            self._depth -= 1

    def _compute_piece(self, expr: cst.BaseExpression, path: Path, scope: Scope,
                       index: int) -> Value:
        kind, key = expr.__class__, path[0]
        if kind is cst.Tuple or kind is cst.List:
            if not isinstance(key, int) or key < 0:
                return UNKNOWN
            elements = expr.elements[:key + 1]
            if len(elements) <= key or any(
                    e.__class__ is cst.StarredElement for e in elements):
                return UNKNOWN
            return self.piece(elements[key].value, path[1:], scope, index)
        if kind is cst.Dict:
            entry = next((e.value for e in expr.elements if e.__class__ is cst.DictElement
                          and e.key.__class__ is cst.SimpleString
                          and e.key.evaluated_value == key), None)
            return self.piece(entry, path[1:], scope, index) if entry is not None else UNKNOWN
        if kind is cst.Name:
            if isinstance(key, str):  # `out["count"] = ...` earlier
                entries = [(b, w) for b, w in self.resolver.reaching(
                    entry_name(expr, key), scope, index) if b.value is not None]
                if entries:
                    return join([self.piece(b.value, path[1:], w, b.index)
                                 for b, w in entries])
            values = []
            for binding, where in self.resolver.reaching(expr.value, scope, index):
                if binding.kind == "assign" and binding.value is not None:
                    values.append(self.piece(binding.value, path, where, binding.index))
                elif binding.kind == "unpack" and binding.value is not None:
                    values.append(self.piece(binding.value, (*binding.position, *path),
                                              where, binding.index))
                else:
                    values.append(UNKNOWN)
            return join(values) if values else UNKNOWN
        if kind is cst.Attribute and isinstance(key, str) and len(path) == 1 and (
                scope.cls is not None and expr.value.__class__ is cst.Name
                and expr.value.value == "self"):
            # `self.outputs["p"]`: an entry set in this method or another of the class
            value = self._self_attribute(attribute_entry(expr.attr.value, key), scope, index)
            if value is not UNKNOWN:
                return value
        if kind is not cst.Call:
            return UNKNOWN
        callee = self.resolver.callee(expr.func, scope, index)
        if len(path) == 1 and isinstance(key, int) and _gradient_list(
                expr, callee, self.resolver, scope, index):
            # `g, = tf.gradients(loss, x)`, `tf.gradients(d, [x])[0]`: each one a gradient
            return gradient(expr, self.resolver, scope, index)
        if callee is None:
            return UNKNOWN
        if callee.kind == "op" and callee.op is not None or callee.kind == "external":
            if len(path) != 1 or not isinstance(key, int):
                return UNKNOWN
            if callee.op is not None and "pieces" in callee.op.tags:
                return self.value(expr, scope, index)  # `tf.unstack(x)`: like the tensor
            element = tuple_element(self, expr, key, scope, index)
            return element if element is not None else UNKNOWN  # `tf.nn.moments(x)[1]`
        if callee.kind == "function" and isinstance(callee.node, cst.FunctionDef):
            general = self._function_result(callee.node, callee.scope, path)
            if self._with_arguments(expr, callee.node):
                return self._result_for(expr, callee.node, callee.scope, scope, index, general,
                                        path)
            return general
        return UNKNOWN

    def _element(self, iterable: cst.BaseExpression, path: Tuple[int, ...], scope: Scope,
                 index: int) -> Value:
        """What a ``for`` target at ``path`` of an element of ``iterable`` can be: the i-th
        argument's element through ``zip``/``enumerate``, a gradient of a list of gradients
        or of (gradient, variable) pairs, a row of a tensor."""
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and (
                iterable.func.value in ("zip", "enumerate")) and path and self.resolver.resolve(
                iterable.func.value, scope, index)[0] is None:
            positional = [a.value for a in iterable.args if a.keyword is None and not a.star]
            position = path[0] - (iterable.func.value == "enumerate")
            if 0 <= position < len(positional) and len(positional) == len(iterable.args):
                return self._element(positional[position], path[1:], scope, index)
            return UNKNOWN
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name) and (
                iterable.func.value == "range") and not path and self.resolver.resolve(
                "range", scope, index)[0] is None:
            return self._counted(iterable, scope, index)
        listed = self._listed(iterable, scope, index)
        if listed is not None:  # a comprehension or a literal list: what it holds
            return join([self.piece(item, path, at, at_index)
                         for item, at, at_index in listed])
        value = self.value(iterable, scope, index)
        if "gradient" in value.tags:  # `for g, v in opt.compute_gradients(loss)`
            return value if path in ((), (0,)) else UNKNOWN
        return replace(value, const=None, layer=None) if value.tensor and not path else UNKNOWN

    def _counted(self, call: cst.Call, scope: Scope, index: int) -> Value:
        """A number `range(...)` gives: a Python integer, from its start (0 by default)."""
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        start = self.value(positional[0], scope, index).const if len(positional) > 1 else 0.0
        step = self.value(positional[2], scope, index).const if len(positional) > 2 else 1.0
        lo = start if start is not None and step is not None and step > 0 else -inf
        return Value(lo=lo, known=True, integral=True, tags=frozenset({"python_number"}))

    def _assigned_once(self, name: cst.Name, scope: Scope, index: int
                       ) -> Optional[Tuple[cst.BaseExpression, Scope, int]]:
        """What the one assignment reaching ``name`` assigned, with where to evaluate it;
        None where several bindings reach it or it is no plain assignment."""
        reaching = self.resolver.reaching(name.value, scope, index)
        if len(reaching) != 1 or reaching[0][0].kind != "assign" or (
                reaching[0][0].value is None):
            return None
        binding, where = reaching[0]
        return binding.value, where, binding.index

    def _listed(self, iterable: cst.BaseExpression, scope: Scope, index: int
                ) -> Optional[list]:
        """The items a list holds, each with where to evaluate it: the element of a
        comprehension (``[softmax(s) for s in scores]``), the elements of a literal; also
        through the one assignment of a name. None for anything else."""
        if iterable.__class__ is cst.Name:
            assigned = self._assigned_once(iterable, scope, index)
            if assigned is None:
                return None
            iterable, scope, index = assigned
        if isinstance(iterable, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
            return [(iterable.elt, scope, index)]
        if isinstance(iterable, (cst.List, cst.Tuple)) and iterable.elements and not any(
                isinstance(e, cst.StarredElement) for e in iterable.elements):
            return [(e.value, scope, index) for e in iterable.elements]
        return None

    @staticmethod
    def _named(value: Value, name: str) -> Value:
        zero, negative = value.zero, value.negative
        if zero is not None and zero.name is None:
            zero = replace(zero, name=name)
        if negative is not None and negative.name is None:
            negative = replace(negative, name=name)
        huge, bound = value.huge, value.bound
        if huge is not None and huge.name is None:
            huge = replace(huge, name=name)
        if bound is not None and bound.name is None:
            bound = replace(bound, name=name)
        if (zero is value.zero and negative is value.negative and huge is value.huge
                and bound is value.bound):
            return value
        return replace(value, zero=zero, negative=negative, huge=huge, bound=bound)

    def _parameter(self, name: str, scope: Scope) -> Value:
        """A parameter: the caller's argument when the function is evaluated for one call;
        otherwise the join of the arguments of its call sites in the module (and of the
        unknown, when the function is also passed somewhere as a value); otherwise, for a
        function nobody here calls, unknown — or by convention a probability."""
        activation = self.resolver.within(scope)
        if activation is not None and activation.scope is scope:
            argument = argument_expression(name, activation)
            if argument is None:
                return UNKNOWN
            expr, (where, index) = argument
            return self.resolver.outside(lambda: self.value(expr, where, index))
        node = scope.node
        if not isinstance(node, (cst.FunctionDef, cst.Lambda)):
            return UNKNOWN
        self.resolver.param_readers.add(id(node))
        sites = self.resolver.outside(lambda: self.sites.call_sites(node))
        omitted = self._zero_default(name, node)
        if not sites:
            conventional = self._conventional_parameter(name, scope)
            return join([conventional, omitted]) if omitted is not None else conventional
        key = (id(node), name)
        if key in self._in_progress:
            return UNKNOWN  # a recursive call passes the parameter on
        values = []
        self._in_progress.add(key)
        try:
            for call, argument in site_arguments(node, name, scope, sites):
                if argument is None:
                    values.append(omitted or UNKNOWN)
                    continue
                expr, (at, at_index) = argument
                if omitted is not None and expr is omitted.zero.node.default:
                    values.append(omitted)  # left out here: the default, with its evidence
                    continue
                passed = self.resolver.outside(lambda: self.value(expr, at, at_index))
                values.append(_through(passed, call, node))
        finally:
            self._in_progress.discard(key)
        if isinstance(node, cst.FunctionDef) and node.name.value in self.resolver.escaped:
            values.append(self._conventional_parameter(name, scope))
        joined = join(values)
        if joined == UNKNOWN:  # callers that pass what the file does not show: the name
            joined = self._conventional_parameter(name, scope)
        return _passed_here(joined, scope)

    def _parameter_entry(self, expr: cst.Subscript, scope: Scope, index: int
                         ) -> Optional[Value]:
        """``cfg["key"]`` of a parameter ``cfg`` that every call site in the module passes a
        dict literal for (or a name bound to one): the join of those entries."""
        if not isinstance(expr.value, cst.Name):
            return None
        binding, where = self.resolver.resolve(expr.value.value, scope, index)
        if binding is None or where is None or binding.kind != "param":
            return None
        function = where.node
        activation = self.resolver.within(where)
        from_sites = False
        if activation is not None and activation.scope is where:
            argument = argument_expression(expr.value.value, activation)
            arguments = [argument[0:1] + argument[1] if argument else None]
        elif isinstance(function, cst.FunctionDef) and (
                function.name.value not in self.resolver.escaped):
            from_sites = True
            arguments = []
            sites = self.resolver.outside(lambda: self.sites.call_sites(function))
            for call, at, at_index, method in sites:
                argument = argument_expression(expr.value.value, Activation(
                    where, bind_arguments(call, function, method), (at, at_index),
                    any(arg.star for arg in call.args)))
                arguments.append(argument[0:1] + argument[1] if argument else None)
        else:
            return None
        values = []
        for argument in arguments:
            if argument is None or not isinstance(argument[0], cst.Name):
                return None
            entry = self.resolver.outside(lambda: self.resolver.dict_entry(
                expr.with_changes(value=argument[0]), argument[1], argument[2]))
            if entry is None:
                return None
            values.append(self.resolver.outside(lambda: self.value(*entry)))
        if not values:
            return None
        return _passed_here(join(values), where) if from_sites else join(values)

    def _zero_default(self, name: str, function: cst.CSTNode) -> Optional[Value]:
        """0, with evidence, where the parameter's default is 0 (`total_steps=0`,
        `smooth=0.0`): the value it holds wherever a caller leaves it out."""
        if not isinstance(function, cst.FunctionDef):
            return None
        param = next((p for p in (*function.params.params, *function.params.kwonly_params)
                      if p.name.value == name and p.default is not None), None)
        if param is None or not isinstance(param.default, (cst.Integer, cst.Float)) or (
                float(param.default.value.replace("_", "")) != 0):
            return None
        evidence = Evidence(param, f"the parameter `{name}`", "which is 0 by default, wherever "
                            "a caller leaves it out", "medium", aggregate=False,
                            producer="default", name=name)
        return Value(lo=0.0, hi=0.0, zero=evidence, known=False, tensor=False)

    def _conventional_parameter(self, name: str, scope: Scope) -> Value:
        """Unknown — except the gradient of an optimizer's update method, a
        probability-named parameter of a loss function, and a mask-named one (its sum is a
        count: see the ``reduce`` transfer in ``producers``)."""
        node = scope.node
        if isinstance(node, cst.FunctionDef):
            param = is_update_gradient(name, node, scope.cls)
            if param is not None:
                return update_gradient(param)
        role = self.settings.parameter_role(name)
        if isinstance(node, cst.FunctionDef) and role is not None:
            return self._conventional_role(name, node, PARAMETER_ROLES[role])
        if (not isinstance(node, cst.FunctionDef)
                or name not in self.settings.probability_parameters):
            return UNKNOWN
        params = {p.name.value for p in node.params.params}
        if not (self._loss_re.search(node.name.value.lower()) or "y_true" in params):
            return UNKNOWN
        evidence = Evidence(node, f"the parameter `{name}` of the loss function "
                            f"`{node.name.value}`", "which by convention holds probabilities "
                            "that can be exactly 0", confidence="low", aggregate=False,
                            convention=True, producer="parameter")
        return Value(lo=0.0, hi=1.0, zero=evidence, known=True, tensor=True,
                     tags=frozenset({"probability", "parameter"}))

    @staticmethod
    def _conventional_role(name: str, function: cst.FunctionDef, role: dict) -> Value:
        """The value of the parameter ``name`` of ``function`` that plays ``role`` by name."""
        if "tag" in role:
            return Value(tags=frozenset({role["tag"]}))
        param = next((p for p in (*function.params.params, *function.params.kwonly_params)
                      if p.name.value == name), function)
        what, why = role["huge"]
        evidence = Evidence(param, what.format(function=function.name.value), why, "medium",
                            aggregate=False, convention=True, producer="parameter",
                            name=name)
        return Value(tensor=True, huge=evidence)

    def _own_norm(self, vector: cst.BaseExpression, divisor: cst.BaseExpression,
                  scope: Scope, index: int) -> bool:
        """Whether ``divisor`` is the l2 norm of ``vector`` as written: `norm(x)`,
        `x.norm(...)`, `sqrt(sum(square(x)))`, or a name assigned one of these."""
        if divisor.__class__ is cst.Name:
            assigned = self._assigned_once(divisor, scope, index)
            if assigned is None:
                return False
            divisor, scope, index = assigned
        found = self._normed(divisor, scope, index, ("norm", "reduce_euclidean_norm"))
        if found is None:
            summed = self._normed(divisor, scope, index, ("sqrt",))
            summed = summed and self._normed(summed, scope, index, ("reduce_sum",))
            squared = summed and self._normed(summed, scope, index, ("square",))
            if squared is not None:
                found = squared
            elif summed is not None and summed.__class__ is cst.BinaryOperation and (
                    summed.operator.__class__ is cst.Multiply and summed.left.deep_equals(
                        summed.right)):
                found = summed.left
        return found is not None and found.deep_equals(vector)

    def _normed(self, expr: cst.BaseExpression, scope: Scope, index: int,
                names: Tuple[str, ...]) -> Optional[cst.BaseExpression]:
        """The array ``expr`` applies one of the ops ``names`` to (its first argument, or
        the receiver of an array's method), else None."""
        if expr.__class__ is not cst.Call:
            return None
        callee = self.resolver.callee(expr.func, scope, index)
        if callee is None or callee.kind != "op" or callee.op is None or (
                callee.op.name not in names):
            return None
        if callee.op.method and expr.func.__class__ is cst.Attribute:
            return expr.func.value
        first = expr.args[0] if expr.args else None
        return first.value if first is not None and first.keyword is None else None

    def _builtin_extreme(self, call: cst.Call, scope: Scope, index: int) -> Value:
        """Python's `min(a, b, ...)` and `max(a, b, ...)` of two values or more: the
        elementwise `minimum` and `maximum` (`min(loss, 20)` is at most 20)."""
        func = call.func
        if func.__class__ is not cst.Name or func.value not in ("min", "max") or len(
                call.args) < 2 or any(arg.keyword is not None or arg.star
                                      for arg in call.args):
            return UNKNOWN
        values = [self.value(arg.value, scope, index) for arg in call.args]
        result = values[0]
        for value in values[1:]:
            result = smaller(result, value) if func.value == "min" else maximum(
                result, value, call)
        return result

    def _call(self, call: cst.Call, scope: Scope, index: int) -> Value:
        callee = self.resolver.callee(call.func, scope, index)
        if (callee is None or callee.kind == "external") and gradient_method(
                self.resolver, call, scope, index):
            return gradient(call, self.resolver, scope, index)
        if (callee is None or callee.kind == "external") and isinstance(
                call.func, cst.Attribute) and call.func.attr.value in optable.STATE_METHODS:
            return state_variable(self.resolver, call, scope, index)
        if (callee is None or callee.kind == "external") and isinstance(
                call.func, cst.Attribute) and call.func.attr.value in (
                optable.LOG_DENSITY_METHODS):
            return log_density(call)
        assigned = _assigned(call) if callee is None or callee.kind == "external" else None
        if assigned is not None:
            return self.value(assigned, scope, index)
        if callee is None:
            return self._builtin_extreme(call, scope, index)
        if callee.kind == "external" and callee.qualified:
            named = optable.named_like_op(callee.qualified)
            if named is not None and not any(arg.value.__class__ in TEXTS
                                             for arg in call.args):
                return _by_name(output(self, named, call, scope, index), callee.qualified)
        if callee.kind == "op" and callee.op is not None:
            value = output(self, callee.op, call, scope, index)
            if self.resolver.active is not None and isinstance(call.func, cst.Name) and (
                    callee.qualified):
                value = _passed_as(value, call, callee.qualified)
            return value
        if callee.kind == "function" and isinstance(callee.node, cst.FunctionDef):
            result = self._function_result(callee.node, callee.scope)
            if self._with_arguments(call, callee.node):
                return self._result_for(call, callee.node, callee.scope, scope, index, result)
            return result
        if callee.kind == "lambda" and isinstance(callee.node, cst.Lambda):
            lambda_scope = self.resolver.scope_for(callee.node, callee.scope)
            result = self.value(callee.node.body, lambda_scope, END)
            if self._with_arguments(call, callee.node):
                return self._result_for(call, callee.node, callee.scope, scope, index, result)
            return result
        if callee.kind in ("identity", "rescaling") and call.args and (
                call.args[0].keyword is None and not call.args[0].star):
            value = self.value(call.args[0].value, scope, index)
            if value.integral and callee.kind == "rescaling":
                value = replace(value, integral=False)
            return replace(value, layer=None) if value.layer else value
        if callee.kind == "layer" and callee.value is not None and callee.value.layer:
            return activation_value(callee.value.layer, callee.value.node or call)
        return UNKNOWN

    def _with_arguments(self, call: cst.Call, node: cst.CSTNode) -> bool:
        """Whether to evaluate ``call`` of the module's function ``node`` with its arguments:
        it passes some, the function reads its parameters, and no call is so evaluated
        already (one level)."""
        resolver = self.resolver
        return resolver.active is None and bool(call.args) and (
            id(node) in resolver.param_readers)

    def _result_for(self, call: cst.Call, node: Callable, defined_in: Optional[Scope],
                    scope: Scope, index: int, general: Value, piece: Path = ()
                    ) -> Value:
        """The result of ``call`` (its element ``piece`` where the function returns a
        tuple): the function's returns (a lambda's body) with its parameters bound to this
        call's arguments (one level: the calls inside get the general results)."""
        key = (id(call), piece)
        cached = self._call_results.get(key)
        if cached is not None:
            return cached
        if isinstance(node, cst.Lambda):
            function_scope = self.resolver.scope_for(node, defined_in)
            returns = [(node.body, END)]
            method = False
        else:
            function_scope = self.resolver.function_scope(node, defined_in)
            returns = [(r.value, r.index) for r in function_scope.returns]
            method = self.resolver.through_instance(call, node, scope, index)
        if key in self._in_progress or function_scope.is_generator or not returns:
            return general
        self.resolver.active = Activation(function_scope, bind_arguments(call, node, method),
                                          (scope, index), any(arg.star for arg in call.args))
        self._in_progress.add(key)
        try:
            result = join([self.piece(expr, piece, function_scope, at)
                           for expr, at in returns])
        finally:
            self.resolver.active = None
            self._in_progress.discard(key)
        self._call_results[key] = result
        return result

    def _function_result(self, node: cst.FunctionDef, defined_in: Optional[Scope],
                         piece: Path = ()) -> Value:
        if self.resolver.active is not None:
            return self.resolver.outside(lambda: self._function_result(node, defined_in, piece))
        key = (id(node), piece)
        if key in self._returns:
            return self._returns[key]
        if key in self._in_progress:
            return UNKNOWN
        self._in_progress.add(key)
        try:
            scope = self.resolver.function_scope(node, defined_in)
            if scope.is_generator:
                result = UNKNOWN
            else:
                result = join([self.piece(r.value, piece, scope, r.index)
                               for r in scope.returns])
        finally:
            self._in_progress.discard(key)
        self._returns[key] = result
        return result


def _ranges(expr: cst.Subscript) -> bool:
    """Whether the subscript takes a range (`x[:, a:b]`), not only single entries."""
    return any(isinstance(element.slice, cst.Slice) for element in expr.slice)


def _selects(expr: cst.Subscript) -> bool:
    """Whether the subscript takes some entries along an axis (`x[..., 3]`, `x[:, 0:4]`),
    not every one (`x[...]`, `x[:, None]`)."""
    for element in expr.slice:
        part = element.slice
        if part.__class__ is cst.Slice:
            if part.lower is not None or part.upper is not None or part.step is not None:
                return True
        elif not (part.value.__class__ is cst.Ellipsis or (
                last_name(part.value) in ("None", "newaxis"))):
            return True
    return False


def _literal_key(expr: cst.Subscript) -> Optional[Key]:
    """``i`` of ``x[i]`` where ``i`` is a whole-number or a string literal."""
    if len(expr.slice) != 1:
        return None
    index = expr.slice[0].slice
    if index.__class__ is not cst.Index:
        return None
    if index.value.__class__ is cst.Integer:
        return int(index.value.evaluated_value)
    if index.value.__class__ is cst.SimpleString:
        key = index.value.evaluated_value
        return key if isinstance(key, str) else None
    return None


# numpy's `finfo` limits of each float type, by the bits its name says (`float` is 64).
_FINFO = {16: {"eps": 0.0009765625, "tiny": 6.103515625e-05, "smallest_normal":
               6.103515625e-05, "max": 65504.0, "resolution": 0.0010004043579101562},
          32: {"eps": 1.1920928955078125e-07, "tiny": 1.1754943508222875e-38,
               "smallest_normal": 1.1754943508222875e-38, "max": 3.4028234663852886e+38,
               "resolution": 9.999999974752427e-07},
          64: {"eps": 2.220446049250313e-16, "tiny": 2.2250738585072014e-308,
               "smallest_normal": 2.2250738585072014e-308, "max": 1.7976931348623157e+308,
               "resolution": 1e-15}}


_INFINITIES = frozenset({"np.inf", "numpy.inf", "math.inf", "np.Inf", "np.PINF"})


def _finfo(expr: cst.Attribute) -> Optional[float]:
    """``np.finfo(np.float32).eps`` (``tiny``, ``max``, ...) as the number it is."""
    call = expr.value
    if call.__class__ is not cst.Call or last_name(call.func) != "finfo" or not call.args:
        return None
    kind = call.args[0].value
    text = (kind.evaluated_value if isinstance(kind, cst.SimpleString)
            else last_name(kind)) or ""
    bits = 16 if "16" in text else 32 if "32" in text else 64 if (
        "64" in text or text in ("float", "double", "float_")) else None
    limits = _FINFO.get(bits) if bits is not None and "bfloat" not in text else None
    return limits.get(expr.attr.value) if limits is not None else None


def _cast_of(expr: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """``c`` of ``tf.cast(c, ...)``, ``K.cast``, ``ops.cast``, ``tf.to_float(c)``."""
    if expr.__class__ is cst.Call and expr.args and last_name(expr.func) in (
            "cast", "to_float", "to_int32", "to_int64", "to_double"):
        return expr.args[0].value
    return None


def _negation(expr: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """``c`` of ``logical_not(c)`` or ``~c``."""
    if expr.__class__ is cst.Call and expr.args and last_name(expr.func) == "logical_not":
        return expr.args[0].value
    if expr.__class__ is cst.UnaryOperation and expr.operator.__class__ is cst.BitInvert:
        return expr.expression
    return None


def _factors(expr: cst.BaseExpression) -> list:
    """The factors of a product written with ``*`` (``(1 - b) * g * g``: three)."""
    if expr.__class__ is cst.BinaryOperation and expr.operator.__class__ is cst.Multiply:
        return _factors(expr.left) + _factors(expr.right)
    return [expr]


def _through(value: Value, call: cst.Call, function: cst.CSTNode) -> Value:
    """An argument's value as the parameter of ``function`` holds it: its evidence names the
    call it came through, and is named anew after the parameter (the caller's variable is
    not one the function's reader sees)."""
    if not isinstance(function, cst.FunctionDef):
        return value
    step = (call, function.name.value)
    changes = {kind: replace(evidence, step=step, name=None)
               for kind in ("zero", "negative", "huge", "bound")
               if (evidence := getattr(value, kind)) is not None}
    return replace(value, **changes) if changes else value


def _passed_here(value: Value, scope: Scope) -> Value:
    """A parameter's value joined from the module's calls of its function. A function of
    the module or a method can be called from elsewhere too: whole numbers passed here
    prove nothing of what other callers pass (a nested function's callers are all here)."""
    parent = scope.parent
    if value.integral and (parent is None or not isinstance(parent.node, (
            cst.FunctionDef, cst.Lambda))):
        return replace(value, integral=False)
    return value


def _passed_as(value: Value, call: cst.Call, qualified: str) -> Value:
    """Evidence of ``act(x)`` where ``act`` is an argument: name the op it stands for."""
    spelling = optable.spelling_of(qualified) or qualified
    what = f"the output of `{spelling}` passed as `{{op}}`"
    zero, negative = value.zero, value.negative
    if zero is not None and zero.node is call:
        zero = replace(zero, what=what)
    if negative is not None and negative.node is call:
        negative = replace(negative, what=what)
    return replace(value, zero=zero, negative=negative)


def _guarded(value: Value, asserted: str) -> Value:
    """``value`` where an assertion proved it "positive", "nonnegative" or "nonzero"."""
    if asserted == "nonzero":
        return replace(value, zero=None)
    lo, lo_open = (value.lo, value.lo_open) if value.lo >= 0 else (0.0, False)
    if asserted == "positive":
        # nor a mask by convention (a float cast of a parameter), whose sum may be 0
        return replace(value, zero=None, negative=None, lo=lo, lo_open=lo_open or lo == 0,
                       tags=value.tags - {"mask_parameter"})
    return replace(value, negative=None, lo=lo, lo_open=lo_open)


def _assigned(call: cst.Call) -> Optional[cst.BaseExpression]:
    """``v.assign(x)``: a variable's assignment has the value it assigns, ``x``."""
    func = call.func
    if func.__class__ is not cst.Attribute or func.attr.value != "assign" or len(
            call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return None
    return call.args[0].value



def _by_name(value: Value, qualified: str) -> Value:
    """The value of another module's function named like an op (a compat wrapper's
    ``reduce_sum``), computed as that op's: its evidence is at most medium, a name."""
    def weaker(evidence: Optional[Evidence]) -> Optional[Evidence]:
        if evidence is None or evidence.confidence in ("medium", "low"):
            return evidence
        return replace(evidence, confidence="medium")

    return replace(value, zero=weaker(value.zero), negative=weaker(value.negative),
                   huge=weaker(value.huge))


def _gradient_list(call: cst.Call, callee: Optional[Callee], resolver: Resolver, scope: Scope,
                   index: int) -> bool:
    """A call that returns a list of gradients, one per source: ``tf.gradients``,
    ``K.gradients``, ``tape.gradient(loss, [a, b])`` (not ``compute_gradients``' pairs)."""
    if callee is not None and callee.kind == "op":
        return callee.op is not None and callee.op.name == "gradients"
    if callee is not None and callee.kind != "external":
        return False
    func = call.func
    return func.__class__ is cst.Attribute and func.attr.value in ("gradient", "jacobian") \
        and gradient_method(resolver, call, scope, index)


def _annotated_number(param: Optional[cst.CSTNode]) -> Optional[str]:
    """`int`, `float` or `bool` where ``param`` is annotated so (`l: int`)."""
    annotation = getattr(param, "annotation", None)
    if annotation is not None and annotation.annotation.__class__ is cst.Name and (
            annotation.annotation.value in ("int", "float", "bool")):
        return annotation.annotation.value
    return None
