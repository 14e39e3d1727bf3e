"""The constant evaluator: the number an expression stands for, and where it is written.

Literals, constant expressions, module constants, parameter defaults, ``argparse`` and
absl/TF flags defaults, keys of config dicts, ``tf.constant(c)`` and the initial value of a
learning-rate schedule. The training rules (learning rates, stddevs, epsilons) ask it. It
is given the resolver, and needs nothing else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Dict, Optional, Tuple

import libcst as cst

from nanlint.analysis.resolver import Resolver
from nanlint.analysis.scopes import END, Scope


@dataclass(frozen=True)
class Number:
    """A number an expression is known to be, and where it is written (for messages)."""

    value: float
    node: cst.CSTNode  # the literal or constant expression that gives the number
    via: str = ""  # how it reaches the expression: "the default of the flag `lr`", ...


_NUMBER_OPERATORS = {
    "Add": lambda a, b: a + b, "Subtract": lambda a, b: a - b,
    "Multiply": lambda a, b: a * b, "Divide": lambda a, b: a / b,
    "FloorDivide": lambda a, b: a // b, "Power": lambda a, b: a ** b,
}
# Mathematical constants of the modules that name them.
MATH_CONSTANTS = {f"{module}.{name}": value for module in ("math", "numpy", "jax.numpy")
                   for name, value in (("pi", math.pi), ("e", math.e), ("tau", math.tau))}


def math_constant(resolver: Resolver, expr: cst.BaseExpression, scope: Scope,
                  index: int) -> Optional[float]:
    """`math.pi`, `np.e`, `from math import tau`: a mathematical constant, else None."""
    callee = resolver.callee(expr, scope, index)
    return MATH_CONSTANTS.get(callee.qualified if callee is not None else "")


# Command-line definitions whose default a module reads back as an attribute.
_FLAG_DEFINERS = frozenset({"DEFINE_float", "DEFINE_integer", "DEFINE_int"})


class Constants:
    """``number(expr)`` through the resolver's names and callees."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self._flags: Optional[Dict[str, Tuple[cst.BaseExpression, str]]] = None

    def number(self, expr: cst.BaseExpression, scope: Scope, index: int) -> Optional[Number]:
        """The number ``expr`` stands for at (scope, index), or None: a literal, a constant
        expression, a module constant, a parameter's default, an ``argparse``/``flags``
        default, a key of a dict literal, the initial value of a learning-rate schedule, or
        ``tf.constant(c)``."""
        return self._number(expr, scope, index, 0)

    def _number(self, expr: cst.BaseExpression, scope: Scope, index: int,
                depth: int) -> Optional[Number]:
        if depth > 16:
            return None
        deeper = depth + 1
        if isinstance(expr, (cst.Integer, cst.Float)):
            try:
                return Number(float(expr.evaluated_value), expr)
            except (OverflowError, ValueError):
                return None
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator,
                                                                (cst.Minus, cst.Plus)):
            inner = self._number(expr.expression, scope, index, deeper)
            if inner is None or isinstance(expr.operator, cst.Plus):
                return inner
            return replace(inner, value=-inner.value, node=expr)
        if isinstance(expr, cst.BinaryOperation):
            return self._number_arithmetic(expr, scope, index, deeper)
        if isinstance(expr, cst.Name):
            return self._number_of_name(expr.value, scope, index, deeper)
        if isinstance(expr, cst.Attribute):
            found = self._flag_defaults().get(expr.attr.value)
            if found is None:
                return self._named_number(expr, scope, index)
            default, via = found
            inner = self._number(default, self.resolver.module_scope, END, deeper)
            return replace(inner, via=inner.via or via) if inner is not None else None
        if isinstance(expr, cst.Subscript):
            return self._number_of_key(expr, scope, index, deeper)
        if isinstance(expr, cst.Call):
            return self._number_of_call(expr, scope, index, deeper)
        return None

    def _named_number(self, expr: cst.BaseExpression, scope: Scope,
                      index: int) -> Optional[Number]:
        value = math_constant(self.resolver, expr, scope, index)
        return Number(value, expr) if value is not None else None

    def _number_arithmetic(self, expr: cst.BinaryOperation, scope: Scope, index: int,
                           depth: int) -> Optional[Number]:
        operation = _NUMBER_OPERATORS.get(type(expr.operator).__name__)
        left = self._number(expr.left, scope, index, depth)
        right = self._number(expr.right, scope, index, depth) if left is not None else None
        if operation is None or left is None or right is None:
            return None
        try:
            value = float(operation(left.value, right.value))
        except (ArithmeticError, ValueError, TypeError):
            return None
        return Number(value, expr, left.via or right.via)

    def _number_of_name(self, name: str, scope: Scope, index: int,
                        depth: int) -> Optional[Number]:
        binding, where = self.resolver.resolve(name, scope, index)
        if binding is None or where is None:
            return None
        if binding.kind == "assign" and binding.value is not None:
            return self._number(binding.value, where, binding.index, depth)
        if binding.kind == "param" and isinstance(binding.node, cst.Param):
            default = binding.node.default
            outer = where.parent
            while outer is not None and isinstance(outer.node, cst.ClassDef):
                outer = outer.parent
            if default is None or outer is None:
                return None
            inner = self._number(default, outer, END, depth)
            via = f"the default of the parameter `{name}`"
            return replace(inner, via=inner.via or via) if inner is not None else None
        return None

    def _number_of_key(self, expr: cst.Subscript, scope: Scope, index: int,
                       depth: int) -> Optional[Number]:
        """``config["lr"]`` of a dict literal (or ``dict(lr=...)``) bound to a name."""
        found = self.resolver.dict_entry(expr, scope, index)
        if found is None:
            return None
        entry, where, at = found
        return self._number(entry, where, at, depth)

    def _number_of_call(self, call: cst.Call, scope: Scope, index: int,
                        depth: int) -> Optional[Number]:
        func = call.func
        if isinstance(func, cst.Name) and func.value in ("float", "int") and call.args:
            return self._number(call.args[0].value, scope, index, depth)
        callee = self.resolver.callee(func, scope, index)
        op = callee.op if callee is not None else None
        if op is None or op.transfer not in ("like", "cast") and op.name != "lr_schedule":
            return None
        first = self.resolver.argument(call, op, 0)
        inner = self._number(first, scope, index, depth) if first is not None else None
        if inner is None or op.name != "lr_schedule":
            return inner
        schedule = self.resolver.code(func).rsplit(".", 1)[-1]
        return replace(inner, via=inner.via or f"the initial value of the schedule `{schedule}`")

    def _flag_defaults(self) -> Dict[str, Tuple[cst.BaseExpression, str]]:
        """Attribute name → (default, how to name it) for the module's ``flags.DEFINE_*``
        and ``parser.add_argument(..., default=...)`` calls, wherever they are."""
        if self._flags is not None:
            return self._flags
        self._flags = {}
        for call in self.resolver.named_calls():
            if not isinstance(call.func, cst.Attribute):
                continue
            method = call.func.attr.value
            strings = [a.value.evaluated_value for a in call.args if a.keyword is None
                       and isinstance(a.value, cst.SimpleString)]
            strings = [text for text in strings if isinstance(text, str)]
            if method in _FLAG_DEFINERS:
                qualified = self.resolver.compute_callee(call.func, self.resolver.module_scope, END,
                                                         0)
                positional = [a.value for a in call.args if a.keyword is None]
                default = self.resolver.keyword(call, "default") or (
                    positional[1] if len(positional) > 1 else None)
                if (qualified is None or "flags" not in (qualified.qualified or "")
                        or not strings or default is None):
                    continue
                self._flags[strings[0]] = (default, f"the default of the flag `{strings[0]}`")
            elif method == "add_argument":
                default = self.resolver.keyword(call, "default")
                dest = self.resolver.keyword(call, "dest")
                options = [s for s in strings if s.startswith("--")] or strings[:1]
                if default is None or not options:
                    continue
                name = (dest.evaluated_value if isinstance(dest, cst.SimpleString)
                        and isinstance(dest.evaluated_value, str)
                        else options[0].lstrip("-").replace("-", "_"))
                self._flags[name] = (default, f"the default of `{options[0]}`")
        return self._flags
