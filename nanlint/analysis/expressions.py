"""The expression walk: what an expression can be, through names, calls and operators.

Names are followed to their bindings (assignments, augmented assignments, parameters),
calls to the op semantics of ``producers`` or to the results of the file's own functions and
lambdas, operators to ``arithmetic``. Results are cached per node.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import replace
from typing import Dict, Optional

import libcst as cst

from nanlint.analysis.arithmetic import arithmetic, square
from nanlint.analysis.lattice import UNKNOWN, Evidence, Value, constant, join, normalized
from nanlint.analysis.producers import Producers, gradient
from nanlint.analysis.scopes import END, Binding, Scope

_MAX_DEPTH = 120


class Expressions(Producers):
    """Implements the ``_value`` hook of the layers below."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._values: Dict[int, Value] = {}
        self._returns: Dict[int, Value] = {}
        self._depth = 0
        self._loss_re = re.compile(self.settings.loss_function_pattern)

    def _value(self, expr: cst.BaseExpression, scope: Scope, index: int) -> Value:
        key = id(expr)
        cached = self._values.get(key)
        if cached is not None:
            return cached
        if self._depth > _MAX_DEPTH:
            return UNKNOWN
        self._depth += 1
        try:
            value = normalized(self._compute(expr, scope, index))
        finally:
            self._depth -= 1
        self._values[key] = value
        return value

    def _compute(self, expr: cst.BaseExpression, scope: Scope, index: int) -> Value:
        if isinstance(expr, (cst.Integer, cst.Float)):
            try:
                return constant(float(expr.evaluated_value))
            except (OverflowError, ValueError):
                return UNKNOWN
        if isinstance(expr, cst.Name):
            if expr.value in ("True", "False"):
                return constant(1.0 if expr.value == "True" else 0.0)
            binding, where = self._resolve(expr.value, scope, index)
            if binding is None or where is None:
                return UNKNOWN
            return self._binding_value(expr.value, binding, where)
        if isinstance(expr, cst.Attribute):
            if (isinstance(expr.value, cst.Name) and expr.value.value == "self"
                    and scope.cls is not None):
                class_scope = self._scopes.get(id(scope.cls))
                if class_scope is not None:
                    return self._named(self._self_attribute(expr.attr.value, class_scope),
                                       f"self.{expr.attr.value}")
            return UNKNOWN
        if isinstance(expr, cst.UnaryOperation):
            operand = self._value(expr.expression, scope, index)
            if isinstance(expr.operator, cst.Minus):
                return Value(lo=-operand.hi, hi=-operand.lo, lo_open=operand.hi_open,
                             hi_open=operand.lo_open, known=operand.known,
                             tensor=operand.tensor,
                             const=-operand.const if operand.const is not None else None,
                             zero=operand.zero)
            if isinstance(expr.operator, cst.Plus):
                return operand
            return UNKNOWN
        if isinstance(expr, cst.BinaryOperation):
            left = self._value(expr.left, scope, index)
            right = self._value(expr.right, scope, index)
            if isinstance(expr.operator, cst.Multiply) and expr.left.deep_equals(expr.right):
                return square(left, expr, "square")  # `x * x`
            return arithmetic(type(expr.operator).__name__, left, right, expr)
        if isinstance(expr, cst.Comparison):
            return Value(lo=0.0, hi=1.0, known=True, tensor=True, tags=frozenset({"bool"}))
        if isinstance(expr, cst.Call):
            return self._call(expr, scope, index)
        if isinstance(expr, cst.IfExp):
            return join([self._value(expr.body, scope, index),
                          self._value(expr.orelse, scope, index)])
        if isinstance(expr, cst.Subscript):
            entry = self._dict_entry(expr, scope, index)
            if entry is not None:  # `params["scale"]` of a dict literal
                return self._named(self._value(entry[0], entry[1], entry[2]),
                                   self.module.code_for_node(expr))
            # An element of a tensor has the tensor's range and evidence.
            base = self._value(expr.value, scope, index)
            return replace(base, const=None, layer=None) if base.tensor else UNKNOWN
        return UNKNOWN

    def _binding_value(self, name: str, binding: Binding, scope: Scope) -> Value:
        if binding.kind == "assign" and binding.value is not None:
            value = self._value(binding.value, scope, binding.index)
        elif binding.kind == "augassign" and isinstance(binding.node, cst.AugAssign):
            previous, where = self._resolve(name, scope, binding.index)
            left = self._binding_value(name, previous, where) if previous else UNKNOWN
            right = self._value(binding.value, scope, binding.index)
            value = arithmetic(type(binding.node.operator).__name__.replace("Assign", ""),
                                     left, right, binding.node)
        elif binding.kind == "param":
            value = self._parameter(name, scope)
        else:
            return UNKNOWN
        return self._named(value, name)

    @staticmethod
    def _named(value: Value, name: str) -> Value:
        zero, negative = value.zero, value.negative
        if zero is not None and zero.name is None:
            zero = replace(zero, name=name)
        if negative is not None and negative.name is None:
            negative = replace(negative, name=name)
        if zero is value.zero and negative is value.negative:
            return value
        return replace(value, zero=zero, negative=negative)

    def _parameter(self, name: str, scope: Scope) -> Value:
        """A parameter is unknown — except a probability-named one in a loss function, and a
        mask-named one (its sum is a count: see ``Producers._reduce``)."""
        node = scope.node
        if isinstance(node, cst.FunctionDef) and any(
                fnmatch.fnmatchcase(name, pattern) for pattern in self.settings.mask_parameters):
            return Value(tags=frozenset({"mask_parameter"}))
        if not isinstance(node, cst.FunctionDef) or name not in self.settings.probability_parameters:
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

    def _call(self, call: cst.Call, scope: Scope, index: int) -> Value:
        callee = self._callee(call.func, scope, index)
        if (callee is None or callee.kind == "external") and self._gradient_method(
                call, scope, index):
            return gradient(call)
        if callee is None:
            return UNKNOWN
        if callee.kind == "op" and callee.op is not None:
            return self._op(callee.op, call, scope, index)
        if callee.kind == "function" and isinstance(callee.node, cst.FunctionDef):
            return self._function_result(callee.node, callee.scope)
        if callee.kind == "lambda" and isinstance(callee.node, cst.Lambda):
            lambda_scope = self._scope_for(callee.node, callee.scope)
            return self._value(callee.node.body, lambda_scope, END)
        if callee.kind == "layer" and callee.value is not None and callee.value.layer:
            return self._activation(callee.value.layer, callee.value.node or call)
        return UNKNOWN

    def _function_result(self, node: cst.FunctionDef, defined_in: Optional[Scope]) -> Value:
        key = id(node)
        if key in self._returns:
            return self._returns[key]
        if key in self._in_progress:
            return UNKNOWN
        self._in_progress.add(key)
        try:
            parent = defined_in
            cls = None
            if parent is not None and isinstance(parent.node, cst.ClassDef):
                cls = parent.node
                parent = parent.parent
            scope = self._scope_for(node, parent, cls)
            if scope.is_generator:
                result = UNKNOWN
            else:
                result = join([self._value(r.value, scope, r.index) for r in scope.returns])
        finally:
            self._in_progress.discard(key)
        self._returns[key] = result
        return result
