"""The value analysis every rule shares: what can this expression be?

For an expression, :class:`Analysis` computes a :class:`Value`: an interval that the value
is known to lie in (used to prove guards: ``x + eps``, ``maximum(x, c)``, clipping), and
*evidence* that it can really reach a bad point — exactly 0 (``zero``) or below 0
(``negative``). Evidence comes only from producers that are known to output such values
(relu, a softmax that underflows, a count of a mask, ...); a value of unknown origin — a
parameter, an attribute, a call into another module — has none, so rules stay quiet on it.

Names are followed through assignments, module constants, helper functions and methods of
the same file (see ``nanlint.scopes``); calls are resolved through the file's imports to the
canonical ops of ``nanlint.optable``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from math import inf
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

import libcst as cst

from nanlint import optable
from nanlint.optable import Op, Reason
from nanlint.scopes import END, Binding, Scope, build_scope, dotted_parts

CONFIDENCE_ORDER = {"low": 0, "medium": 1, "high": 2}
DTYPES = frozenset({"float16", "bfloat16", "float32", "float64", "half", "double"})
_MAX_DEPTH = 120


@dataclass(frozen=True)
class Evidence:
    """Why a value can be 0 (or negative): a producer, and what it does."""

    node: cst.CSTNode  # the producer: its line is reported, its source quoted
    what: str  # "the output of `{op}`" — {op} is the callee's source, {src} the node's
    why: str  # "which underflows to exactly 0 in float32"
    confidence: str = "high"
    aggregate: bool = True  # survives a sum or a mean
    discrete: bool = False  # a count: exactly 0 or >= 1
    convention: bool = False  # only a naming convention (a parameter called `y_pred`)
    tiny: bool = False  # approaches 0 continuously (underflow, a variance): not exactly 0 only
    producer: str = ""  # what made it: a canonical op name, "difference", "count", ...
    name: Optional[str] = None  # the variable through which the value reached the use

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

    @property
    def positive(self) -> bool:
        return self.lo > 0 or (self.lo == 0 and self.lo_open)

    @property
    def nonnegative(self) -> bool:
        return self.lo >= 0

    @property
    def can_be_zero(self) -> bool:
        return self.zero is not None

    @property
    def can_be_negative(self) -> bool:
        return self.negative is not None


UNKNOWN = Value()


def _normalized(value: Value) -> Value:
    """Drop evidence that the interval rules out."""
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


def _join(values: Sequence[Value]) -> Value:
    """The union of several possible values (branches, several returns)."""
    if not values:
        return UNKNOWN
    if len(values) == 1:
        return values[0]
    return Value(
        lo=min(v.lo for v in values), hi=max(v.hi for v in values),
        lo_open=all(v.lo_open for v in values), hi_open=all(v.hi_open for v in values),
        zero=next((v.zero for v in values if v.zero), None),
        negative=next((v.negative for v in values if v.negative), None),
        known=all(v.known for v in values), tensor=any(v.tensor for v in values),
        tags=frozenset.intersection(*(v.tags for v in values)),
        layer=next((v.layer for v in values if v.layer), None),
        node=next((v.node for v in values if v.layer), None),
    )


def _difference_evidence(node: cst.CSTNode) -> Evidence:
    return Evidence(node, "built from the difference `{src}`",
                    "which is 0 wherever both sides are equal", "medium", tiny=True,
                    producer="difference")


def _mul_bound(a: float, b: float) -> float:
    if a == 0 or b == 0:
        return 0.0
    return a * b


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
# Command-line definitions whose default a module reads back as an attribute.
_FLAG_DEFINERS = frozenset({"DEFINE_float", "DEFINE_integer", "DEFINE_int"})


@dataclass
class Settings:
    """What the analysis may assume; filled from the configuration."""

    epsilon: float = 1e-7  # the value of `K.epsilon()`
    fix_epsilon: float = 1e-7  # the epsilon that fixes insert
    fix_epsilon_float16: float = 1e-3  # ... next to a float16 value (it holds 1 + 1e-3)
    probability_parameters: FrozenSet[str] = frozenset(
        {"y_pred", "probs", "prob", "probabilities", "predictions", "y_prob", "y_hat"})
    loss_function_pattern: str = r"loss|entropy|likelihood|nll|divergence|focal|dice"
    # Functions through which no gradient flows: tests, and Keras metric bookkeeping.
    # Functions where no gradient is taken: tests, metric state, and optimizer updates
    # (they receive gradients and assign to variables outside the tape).
    no_gradient_pattern: str = (r"^test|^(update_state|result|reset_state|reset_states"
                                r"|update_step|_update_step|_resource_apply_dense"
                                r"|_resource_apply_sparse|_apply_dense|_apply_sparse)$")


@dataclass
class Callee:
    kind: str  # "op", "function", "lambda", "layer", "external"
    op: Optional[Op] = None
    node: Optional[cst.CSTNode] = None  # FunctionDef / Lambda
    scope: Optional[Scope] = None  # the scope the function or lambda is defined in
    value: Optional[Value] = None  # a layer object
    qualified: Optional[str] = None


@dataclass(frozen=True)
class Place:
    """A point of the module where names are resolved: a scope and a statement order in it.
    Rules that follow a value backwards get places from ``Analysis.here`` and
    ``Analysis.binding`` and hand them back; they never look inside."""

    scope: Scope
    index: int


@dataclass
class Cursor:
    """Where the traversal is: the scope node stack and the current statement."""

    scopes: List[cst.CSTNode] = field(default_factory=list)
    statements: List[cst.CSTNode] = field(default_factory=list)
    shadowed: List[Optional[FrozenSet[str]]] = field(default_factory=list)  # comprehensions


class Analysis:
    """The shared value analysis of one module. Rules reach it through ``Rule.analysis``."""

    def __init__(self, module: cst.Module, settings: Optional[Settings] = None) -> None:
        self.module = module
        self.settings = settings or Settings()
        self._loss_re = re.compile(self.settings.loss_function_pattern)
        self._no_gradient_re = re.compile(self.settings.no_gradient_pattern)
        self.cursor = Cursor(scopes=[module])
        self._scopes: Dict[int, Scope] = {}
        self._values: Dict[int, Value] = {}
        self._callees: Dict[int, Optional[Callee]] = {}
        self._returns: Dict[int, Value] = {}
        self._attributes: Dict[Tuple[int, str], Value] = {}
        self._in_progress: set = set()
        self._flags: Optional[Dict[str, Tuple[cst.BaseExpression, str]]] = None
        self._parents: Optional[Dict[int, cst.CSTNode]] = None
        self._op_calls: Optional[Dict[str, List[cst.Call]]] = None
        self._calls: Optional[List[cst.Call]] = None
        self._depth = 0
        self._here_cache: Optional[Tuple[Scope, int]] = None
        self.module_scope = self._scope_for(module, None)

    # -- the traversal tells the analysis where it is ---------------------------------------
    def enter_scope(self, node: cst.CSTNode) -> None:
        self.cursor.scopes.append(node)
        self._here_cache = None

    def leave_scope(self) -> None:
        self.cursor.scopes.pop()
        self._here_cache = None

    def enter_statement(self, node: cst.CSTNode) -> None:
        self.cursor.statements.append(node)
        self._here_cache = None

    def leave_statement(self) -> None:
        self.cursor.statements.pop()
        self._here_cache = None

    def enter_comprehension(self, names: Optional[FrozenSet[str]]) -> None:
        self.cursor.shadowed.append(names)
        self._here_cache = None

    def leave_comprehension(self) -> None:
        self.cursor.shadowed.pop()
        self._here_cache = None

    # -- public questions -------------------------------------------------------------------
    def value(self, expr: cst.BaseExpression) -> Value:
        """What ``expr`` can be, at the traversal's current position."""
        scope, index = self._here()
        return self._value(expr, scope, index)

    def callee(self, call: cst.Call) -> Optional[Callee]:
        scope, index = self._here()
        return self._callee(call.func, scope, index)

    def op_of(self, call: cst.Call) -> Optional[Op]:
        """The canonical TF/Keras op a call invokes, or None."""
        func = call.func
        last = func.attr.value if isinstance(func, cst.Attribute) else (
            func.value if isinstance(func, cst.Name) else None)
        if last is not None and last not in optable.LAST_NAMES and not isinstance(
                func, cst.Name):
            return None  # `x.numpy()`, `self.dense(...)`: not an op spelling, not an alias
        callee = self.callee(call)
        return callee.op if callee is not None and callee.kind == "op" else None

    def qualified_name(self, expr: cst.BaseExpression) -> Optional[str]:
        scope, index = self._here()
        callee = self._callee(expr, scope, index)
        return callee.qualified if callee is not None else None

    def definition(self, name: cst.Name) -> Optional[cst.BaseExpression]:
        """The expression last assigned to ``name`` before the current statement, or None
        (a parameter, an import, an augmented assignment, a name bound by a loop)."""
        scope, index = self._here()
        binding, _ = self._resolve(name.value, scope, index)
        if binding is not None and binding.kind == "assign":
            return binding.value
        return None

    def unchanged_since(self, expr: cst.BaseExpression, name: cst.Name) -> bool:
        """``expr``, made of names only, means here what it meant where ``name`` was last
        assigned: none of its names was bound again in between (so a fix may move ``expr``
        from that assignment to here)."""
        scope, index = self._here()
        binding, where = self._resolve(name.value, scope, index)
        if binding is None or binding.kind != "assign" or where is not scope:
            return False
        if not isinstance(expr, cst.Name):
            return False
        used, used_in = self._resolve(expr.value, scope, index)
        return used is None or used_in is not scope or used.index < binding.index

    # -- following values backwards ---------------------------------------------------------
    def here(self) -> Place:
        scope, index = self._here()
        return Place(scope, index)

    def binding(self, name: str, place: Optional[Place] = None
                ) -> Optional[Tuple[Binding, Place]]:
        """What ``name`` is bound to at ``place`` (default: the current statement), and the
        place of that binding, where the names of its value are to be resolved."""
        place = place or self.here()
        binding, where = self._resolve(name, place.scope, place.index)
        if binding is None or where is None:
            return None
        return binding, Place(where, binding.index)

    def op_at(self, call: cst.Call, place: Place) -> Optional[Op]:
        """The canonical op ``call`` invokes, resolved at ``place``."""
        callee = self._callee(call.func, place.scope, place.index)
        return callee.op if callee is not None and callee.kind == "op" else None

    def qualified_at(self, expr: cst.BaseExpression, place: Place) -> Optional[str]:
        callee = self._callee(expr, place.scope, place.index)
        return callee.qualified if callee is not None else None

    def results(self, func: cst.BaseExpression, place: Place
                ) -> List[Tuple[cst.BaseExpression, Place]]:
        """The expressions a function of this file returns (a lambda: its body), each with
        the place to resolve it at; [] for anything else."""
        if isinstance(func, cst.Lambda):
            return [(func.body, Place(self._scope_for(func, place.scope), END))]
        callee = self._callee(func, place.scope, place.index)
        if callee is None or callee.node is None:
            return []
        if callee.kind == "lambda" and isinstance(callee.node, cst.Lambda):
            return [(callee.node.body, Place(self._scope_for(callee.node, callee.scope), END))]
        if callee.kind != "function" or not isinstance(callee.node, cst.FunctionDef):
            return []
        parent, cls = callee.scope, None
        if parent is not None and isinstance(parent.node, cst.ClassDef):
            parent, cls = parent.parent, parent.node
        scope = self._scope_for(callee.node, parent, cls)
        return [(r.value, Place(scope, r.index)) for r in scope.returns]

    def _named_calls(self) -> List[cst.Call]:
        """Every call of the module whose callee is a name or a dotted name, in order."""
        if self._calls is None:
            calls: List[cst.Call] = []

            class _Calls(cst.CSTVisitor):
                def visit_Call(self, node: cst.Call) -> None:
                    if isinstance(node.func, (cst.Name, cst.Attribute)):
                        calls.append(node)

            self.module.visit(_Calls())
            self._calls = calls
        return self._calls

    def calls_of(self, op_name: str) -> List[cst.Call]:
        """Every call of the module that invokes the canonical op ``op_name``, wherever it
        is (resolved through the module's imports)."""
        if self._op_calls is None:
            found: Dict[str, List[cst.Call]] = {}
            for call in self._named_calls():
                callee = self._compute_callee(call.func, self.module_scope, END, 0)
                if callee is not None and callee.op is not None:
                    found.setdefault(callee.op.name, []).append(call)
            self._op_calls = found
        return self._op_calls.get(op_name, [])

    def parent(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The node that contains ``node`` (the module's parent map is built on first use)."""
        if self._parents is None:
            parents: Dict[int, cst.CSTNode] = {}

            class _Parents(cst.CSTVisitor):
                def __init__(self) -> None:
                    self.stack: List[cst.CSTNode] = []

                def on_visit(self, child: cst.CSTNode) -> bool:
                    if self.stack:
                        parents[id(child)] = self.stack[-1]
                    self.stack.append(child)
                    return True

                def on_leave(self, original_node: cst.CSTNode) -> None:
                    self.stack.pop()

            self.module.visit(_Parents())
            self._parents = parents
        return self._parents.get(id(node))

    def in_function(self) -> Optional[cst.FunctionDef]:
        for node in reversed(self.cursor.scopes):
            if isinstance(node, cst.FunctionDef):
                return node
        return None

    def in_loss_function(self) -> bool:
        """Inside a function that computes a loss (by its name, or `(y_true, y_pred)`)."""
        function = self.in_function()
        if function is None:
            return False
        params = {p.name.value for p in function.params.params}
        return bool(self._loss_re.search(function.name.value.lower())) or "y_true" in params

    def gradient_may_flow(self, node: Optional[cst.CSTNode] = None) -> bool:
        """False where evidently no gradient is taken: tests, metric state updates, and
        (given the ``node`` asked about) a value only logged, asserted or compared."""
        for scope in self.cursor.scopes:
            if isinstance(scope, cst.FunctionDef) and self._no_gradient_re.search(
                    scope.name.value):
                return False
        if node is not None and self.cursor.statements:
            statement = self.cursor.statements[-1]
            return not (isinstance(statement, cst.Assert)
                        or self._without_gradient(statement, node, False))
        return True

    def _without_gradient(self, tree: cst.CSTNode, node: cst.CSTNode, inside: bool) -> bool:
        """Whether ``node`` lies in ``tree`` within a comparison (a boolean has no gradient)
        or the arguments of a ``tf.summary.*``, ``tf.print``, ``print``, ``logging.*``,
        ``stop_gradient`` or ``assert_*`` call."""
        if tree is node:
            return inside
        if not inside and isinstance(tree, cst.Comparison):
            inside = True
        elif not inside and isinstance(tree, cst.Call):
            func = tree.func
            last = func.attr.value if isinstance(func, cst.Attribute) else (
                func.value if isinstance(func, cst.Name) else "")
            qualified = self.qualified_name(func) or ""
            inside = last.startswith("assert") or bool(re.match(
                r"tensorflow\.(compat\.v[12]\.)?(contrib\.)?(summary\.|print$)",
                qualified)) or bool(re.match(
                    r"(absl\.)?logging\.|(tensorflow|keras|tf_keras)\..*\bstop_gradient$",
                    qualified)) or (
                isinstance(func, cst.Name) and func.value == "print" and not qualified)
        return any(self._without_gradient(child, node, inside) for child in tree.children)

    @staticmethod
    def argument(call: cst.Call, op: Op, position: int) -> Optional[cst.BaseExpression]:
        """The argument bound to ``op.args[position]``, by position or by keyword."""
        positional = 0
        for arg in call.args:
            if arg.keyword is None and not arg.star:
                if positional == position:
                    return arg.value
                positional += 1
        if position < len(op.args):
            names = op.args[position].split("|")
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value in names:
                    return arg.value
        return None

    @staticmethod
    def keyword(call: cst.Call, name: str) -> Optional[cst.BaseExpression]:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == name:
                return arg.value
        return None

    # -- numbers ----------------------------------------------------------------------------
    def number(self, expr: cst.BaseExpression) -> Optional[Number]:
        """The number ``expr`` stands for, or None: a literal, a constant expression, a module
        constant, a parameter's default, an ``argparse``/``flags`` default, a key of a dict
        literal, the initial value of a learning-rate schedule, or ``tf.constant(c)``."""
        scope, index = self._here()
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
                return None
            default, via = found
            inner = self._number(default, self.module_scope, END, deeper)
            return replace(inner, via=inner.via or via) if inner is not None else None
        if isinstance(expr, cst.Subscript):
            return self._number_of_key(expr, scope, index, deeper)
        if isinstance(expr, cst.Call):
            return self._number_of_call(expr, scope, index, deeper)
        return None

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
        binding, where = self._resolve(name, scope, index)
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
        if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
            return None
        key = expr.slice[0].slice.value
        if not (isinstance(key, cst.SimpleString) and isinstance(expr.value, cst.Name)):
            return None
        binding, where = self._resolve(expr.value.value, scope, index)
        if binding is None or where is None or binding.kind != "assign":
            return None
        container, wanted = binding.value, key.evaluated_value
        entry = None
        if isinstance(container, cst.Dict):
            entry = next((e.value for e in container.elements if isinstance(e, cst.DictElement)
                          and isinstance(e.key, cst.SimpleString)
                          and e.key.evaluated_value == wanted), None)
        elif (isinstance(container, cst.Call) and isinstance(container.func, cst.Name)
              and container.func.value == "dict"):
            entry = self.keyword(container, wanted)
        return self._number(entry, where, binding.index, depth) if entry is not None else None

    def _number_of_call(self, call: cst.Call, scope: Scope, index: int,
                        depth: int) -> Optional[Number]:
        func = call.func
        if isinstance(func, cst.Name) and func.value in ("float", "int") and call.args:
            return self._number(call.args[0].value, scope, index, depth)
        callee = self._callee(func, scope, index)
        op = callee.op if callee is not None else None
        if op is None or op.transfer not in ("like", "cast") and op.name != "lr_schedule":
            return None
        first = self.argument(call, op, 0)
        inner = self._number(first, scope, index, depth) if first is not None else None
        if inner is None or op.name != "lr_schedule":
            return inner
        schedule = self.module.code_for_node(func).rsplit(".", 1)[-1]
        return replace(inner, via=inner.via or f"the initial value of the schedule `{schedule}`")

    def _flag_defaults(self) -> Dict[str, Tuple[cst.BaseExpression, str]]:
        """Attribute name → (default, how to name it) for the module's ``flags.DEFINE_*``
        and ``parser.add_argument(..., default=...)`` calls, wherever they are."""
        if self._flags is not None:
            return self._flags
        self._flags = {}
        for call in self._named_calls():
            if not isinstance(call.func, cst.Attribute):
                continue
            method = call.func.attr.value
            strings = [a.value.evaluated_value for a in call.args if a.keyword is None
                       and isinstance(a.value, cst.SimpleString)]
            strings = [text for text in strings if isinstance(text, str)]
            if method in _FLAG_DEFINERS:
                qualified = self._compute_callee(call.func, self.module_scope, END, 0)
                positional = [a.value for a in call.args if a.keyword is None]
                default = self.keyword(call, "default") or (
                    positional[1] if len(positional) > 1 else None)
                if (qualified is None or "flags" not in (qualified.qualified or "")
                        or not strings or default is None):
                    continue
                self._flags[strings[0]] = (default, f"the default of the flag `{strings[0]}`")
            elif method == "add_argument":
                default = self.keyword(call, "default")
                dest = self.keyword(call, "dest")
                options = [s for s in strings if s.startswith("--")] or strings[:1]
                if default is None or not options:
                    continue
                name = (dest.evaluated_value if isinstance(dest, cst.SimpleString)
                        and isinstance(dest.evaluated_value, str)
                        else options[0].lstrip("-").replace("-", "_"))
                self._flags[name] = (default, f"the default of `{options[0]}`")
        return self._flags

    # -- scopes -----------------------------------------------------------------------------
    def _scope_for(self, node: cst.CSTNode, parent: Optional[Scope],
                   cls: Optional[cst.ClassDef] = None) -> Scope:
        scope = self._scopes.get(id(node))
        if scope is None:
            scope = build_scope(node, parent, cls)
            self._scopes[id(node)] = scope
        return scope

    def _here(self) -> Tuple[Scope, int]:
        if self._here_cache is None:
            self._here_cache = self._locate()
        return self._here_cache

    def _locate(self) -> Tuple[Scope, int]:
        scope = self.module_scope
        cls = None
        for node in self.cursor.scopes[1:]:
            if isinstance(node, cst.ClassDef):
                scope = self._scope_for(node, scope)
                cls = node
            else:
                # Methods see the enclosing scope of their class, not the class body.
                parent = scope.parent if isinstance(scope.node, cst.ClassDef) else scope
                scope = self._scope_for(node, parent, cls if isinstance(node, cst.FunctionDef)
                                        else None)
                cls = None
        statement = None
        for candidate in reversed(self.cursor.statements):
            if id(candidate) in scope.order:
                statement = candidate
                break
        return scope, scope.index_of(statement)

    # -- names ------------------------------------------------------------------------------
    def _resolve(self, name: str, scope: Scope, index: int
                 ) -> Tuple[Optional[Binding], Optional[Scope]]:
        if self.cursor.shadowed and (scope, index) == self._here():
            suspended = False  # None marks an outermost iterable: its comprehension is outside
            for names in reversed(self.cursor.shadowed):
                if names is None:
                    suspended = True
                elif suspended:
                    suspended = False
                elif name in names:
                    return Binding("unknown", -1), scope
        current: Optional[Scope] = scope
        while current is not None:
            binding = current.lookup(name, index)
            if binding is not None:
                return binding, current
            if name in current.bindings and current is scope:
                # Bound later in this scope only: a use before assignment (loops) — unknown.
                return Binding("unknown", -1), current
            current = current.parent
            while current is not None and isinstance(current.node, cst.ClassDef):
                current = current.parent
            index = END
        return None, None

    def _binding_value(self, name: str, binding: Binding, scope: Scope) -> Value:
        if binding.kind == "assign" and binding.value is not None:
            value = self._value(binding.value, scope, binding.index)
        elif binding.kind == "augassign" and isinstance(binding.node, cst.AugAssign):
            previous, where = self._resolve(name, scope, binding.index)
            left = self._binding_value(name, previous, where) if previous else UNKNOWN
            right = self._value(binding.value, scope, binding.index)
            value = self._arithmetic(type(binding.node.operator).__name__.replace("Assign", ""),
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
        """A parameter is unknown — except a probability-named one in a loss function."""
        node = scope.node
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

    # -- callees ----------------------------------------------------------------------------
    def _callee(self, func: cst.BaseExpression, scope: Scope, index: int,
                depth: int = 0) -> Optional[Callee]:
        key = id(func)
        if key in self._callees:
            return self._callees[key]
        result = self._compute_callee(func, scope, index, depth)
        self._callees[key] = result
        return result

    def _compute_callee(self, func: cst.BaseExpression, scope: Scope, index: int,
                        depth: int) -> Optional[Callee]:
        if depth > 8:
            return None
        if isinstance(func, cst.Call):
            value = self._value(func, scope, index)
            return Callee("layer", value=value) if value.layer else None
        parts = dotted_parts(func)
        if parts is None:
            return None
        head, rest = parts[0], parts[1:]
        if head == "self" and len(rest) == 1 and scope.cls is not None:
            return self._self_callee(rest[0], scope)
        binding, where = self._resolve(head, scope, index)
        if binding is None or where is None:
            return None
        if binding.kind == "import" and binding.qualified:
            qualified = ".".join([binding.qualified, *rest])
            op = optable.lookup(qualified)
            return Callee("op", op=op, qualified=qualified) if op else Callee(
                "external", qualified=qualified)
        if binding.kind == "def" and not rest:
            return Callee("function", node=binding.node, scope=where)
        if binding.kind == "assign" and binding.value is not None:
            target = binding.value
            if isinstance(target, (cst.Name, cst.Attribute)):
                # An alias: `tfm = tf.math`, `act = tf.nn.relu`.
                alias = target
                for part in rest:
                    alias = cst.Attribute(value=alias, attr=cst.Name(part))
                return self._compute_callee(alias, where, binding.index, depth + 1)
            if isinstance(target, cst.Lambda) and not rest:
                return Callee("lambda", node=target, scope=where)
            if isinstance(target, cst.Call) and not rest:
                value = self._value(target, where, binding.index)
                return Callee("layer", value=value) if value.layer else None
        return None

    def _self_callee(self, attr: str, scope: Scope) -> Optional[Callee]:
        cls = scope.cls
        class_scope = self._scopes.get(id(cls))
        if class_scope is None:
            return None
        method = class_scope.lookup(attr, END)
        if method is not None and method.kind == "def":
            return Callee("function", node=method.node, scope=class_scope)
        value = self._self_attribute(attr, class_scope)
        return Callee("layer", value=value) if value.layer else None

    def _self_attribute(self, attr: str, class_scope: Scope) -> Value:
        """``self.attr``: the join of what the methods of the class assign to it."""
        key = (id(class_scope.node), attr)
        cached = self._attributes.get(key)
        if cached is not None:
            return cached
        if key in self._in_progress:
            return UNKNOWN  # `self.a = self.a * 2`
        self._in_progress.add(key)
        try:
            values = []
            for bindings in class_scope.bindings.values():
                for binding in bindings:
                    if binding.kind != "def":
                        continue
                    method_scope = self._scope_for(binding.node, class_scope.parent,
                                                   class_scope.node)
                    for assigned in method_scope.self_attributes.get(attr, ()):
                        values.append(self._value(assigned.value, method_scope,
                                                  assigned.index))
        finally:
            self._in_progress.discard(key)
        result = _join(values) if values else UNKNOWN
        self._attributes[key] = result
        return result

    # -- expressions ------------------------------------------------------------------------
    def _value(self, expr: cst.BaseExpression, scope: Scope, index: int) -> Value:
        key = id(expr)
        cached = self._values.get(key)
        if cached is not None:
            return cached
        if self._depth > _MAX_DEPTH:
            return UNKNOWN
        self._depth += 1
        try:
            value = _normalized(self._compute(expr, scope, index))
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
            return self._arithmetic(type(expr.operator).__name__, left, right, expr)
        if isinstance(expr, cst.Comparison):
            return Value(lo=0.0, hi=1.0, known=True, tensor=True, tags=frozenset({"bool"}))
        if isinstance(expr, cst.Call):
            return self._call(expr, scope, index)
        if isinstance(expr, cst.IfExp):
            return _join([self._value(expr.body, scope, index),
                          self._value(expr.orelse, scope, index)])
        if isinstance(expr, cst.Subscript):
            # An element of a tensor has the tensor's range and evidence.
            base = self._value(expr.value, scope, index)
            return replace(base, const=None, layer=None) if base.tensor else UNKNOWN
        return UNKNOWN

    # -- arithmetic -------------------------------------------------------------------------
    def _arithmetic(self, operator: str, a: Value, b: Value, node: cst.CSTNode) -> Value:
        value = self._arithmetic_value(operator, a, b, node)
        dtype = a.dtype or b.dtype
        return replace(value, dtype=dtype) if dtype and value.dtype != dtype else value

    def _arithmetic_value(self, operator: str, a: Value, b: Value, node: cst.CSTNode) -> Value:
        tensor = a.tensor or b.tensor
        known = a.known and b.known
        if operator == "Add":
            return self._add(a, b, known, tensor)
        if operator == "Subtract":
            return self._subtract(a, b, known, tensor, node)
        if operator == "Multiply":
            return self._multiply(a, b, known, tensor)
        if operator == "Divide":
            return self._divide(a, b, known, tensor, node)
        if operator == "Power":
            return self._power(a, b, node)
        return Value(known=False, tensor=tensor)

    @staticmethod
    def _add(a: Value, b: Value, known: bool, tensor: bool) -> Value:
        zero = None
        if a.zero and (b.zero or b.const == 0):
            zero = a.zero
        elif b.zero and a.const == 0:
            zero = b.zero
        negative = None
        for this, other in ((a, b), (b, a)):
            if this.negative and (other.known or other.tensor):
                negative = this.negative
        const = a.const + b.const if a.const is not None and b.const is not None else None
        tags = (a.tags | b.tags) & {"probability"} if zero else frozenset()
        node = None
        for this, other in ((a, b), (b, a)):
            # `reduce_sum(exp(z)) + eps` is still a sum of exponentials (softmax, logsumexp).
            if "sum_exp" in this.tags and other.const is not None and other.const >= 0:
                tags, node = tags | (this.tags & {"sum_exp", "sum_exp_unbounded"}), this.node
        return Value(lo=a.lo + b.lo if a.lo > -inf and b.lo > -inf else -inf,
                     hi=a.hi + b.hi if a.hi < inf and b.hi < inf else inf,
                     lo_open=a.lo_open or b.lo_open, hi_open=a.hi_open or b.hi_open,
                     zero=zero, negative=negative, known=known, tensor=tensor, const=const,
                     tags=tags, node=node)

    @staticmethod
    def _subtract(a: Value, b: Value, known: bool, tensor: bool, node: cst.CSTNode) -> Value:
        lo = a.lo - b.hi if a.lo > -inf and b.hi < inf else -inf
        hi = a.hi - b.lo if a.hi < inf and b.lo > -inf else inf
        zero = None
        tags: FrozenSet[str] = frozenset()
        if a.const is not None and "probability" in b.tags and b.hi == a.const and not b.hi_open:
            # `1 - p`: a probability saturates to exactly 1 in float32.
            base = b.zero
            zero = Evidence(node, "`{src}`", "which is exactly 0 once the probability "
                            "saturates to 1 in float32",
                            confidence=base.confidence if base else "medium",
                            aggregate=False, convention=bool(base and base.convention),
                            tiny=True, producer="one_minus_probability")
        elif a.zero and b.const == 0:
            zero = a.zero
        elif a.const is None and b.const is None:
            tags = frozenset({"difference"})
        if "max" in b.tags and a.const is None:
            # `z - reduce_max(z)`: shifted so that the largest value is 0 (softmax, logsumexp).
            hi, tags = min(hi, 0.0), tags | {"shifted"}
        negative = a.negative if a.negative and (b.known or b.tensor) else None
        const = a.const - b.const if a.const is not None and b.const is not None else None
        return Value(lo=lo, hi=hi, lo_open=a.lo_open or b.hi_open,
                     hi_open=a.hi_open or b.lo_open, zero=zero, negative=negative,
                     known=known, tensor=tensor, tags=tags, const=const, node=node)

    @staticmethod
    def _multiply(a: Value, b: Value, known: bool, tensor: bool) -> Value:
        products = [_mul_bound(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        lo, hi = min(products), max(products)
        if not known:
            lo, hi = (0.0 if a.nonnegative and b.nonnegative and a.known and b.known else -inf,
                      inf)
        both_positive = a.positive and b.positive
        zero = a.zero or b.zero
        if zero is not None and (a.zero is None or b.zero is None):
            zero = zero.weaker("medium") if zero.convention else zero
        negative = None
        if a.negative and (b.positive or b.const is not None):
            negative = a.negative
        elif b.negative and (a.positive or a.const is not None):
            negative = b.negative
        const = a.const * b.const if a.const is not None and b.const is not None else None
        tags = (a.tags | b.tags) & {"probability"} if (
            a.nonnegative and b.nonnegative and a.hi <= 1 and b.hi <= 1) else frozenset()
        return Value(lo=lo, hi=hi, lo_open=both_positive and lo == 0, zero=zero,
                     negative=negative, known=known, tensor=tensor, const=const, tags=tags)

    @staticmethod
    def _divide(a: Value, b: Value, known: bool, tensor: bool, node: cst.CSTNode) -> Value:
        const = None
        if a.const is not None and b.const is not None and b.const != 0:
            const = a.const / b.const
            return Value(lo=const, hi=const, known=True, const=const, tensor=tensor)
        if "exp" in a.tags and "sum_exp" in b.tags:
            evidence = Evidence(node, "a hand-written softmax `{src}`",
                                "which underflows to exactly 0 in float32", "high",
                                aggregate=False, tiny=True, producer="softmax")
            return Value(lo=0.0, hi=1.0, zero=evidence, known=True, tensor=True,
                         tags=frozenset({"softmax", "probability", "handwritten_softmax"}),
                         node=node)
        lo, hi, lo_open = -inf, inf, False
        if b.positive and a.nonnegative and a.known and b.known:
            lo, lo_open = 0.0, a.positive
            if a.hi < inf and b.lo > 0:
                hi = a.hi / b.lo
        elif b.nonnegative and a.hi <= 0 and a.known and b.known:
            hi = 0.0  # `-(x ** 2) / (2 * sigma ** 2)`: a Gaussian exponent stays <= 0
        zero = a.zero
        negative = a.negative if b.positive else None
        return Value(lo=lo, hi=hi, lo_open=lo_open, zero=zero, negative=negative,
                     known=known, tensor=tensor)

    def _power(self, a: Value, b: Value, node: cst.CSTNode) -> Value:
        exponent = b.const
        if exponent == 2:
            return self._square(a, node, "square")
        if exponent is not None and 0 < exponent < 1:
            return self._sqrt_like(a)
        if a.const is not None and exponent is not None:
            try:
                return constant(a.const ** exponent)
            except (OverflowError, ZeroDivisionError, ValueError, TypeError):
                return UNKNOWN
        if a.positive:
            return Value(lo=0.0, lo_open=True, known=a.known and b.known, tensor=a.tensor)
        return Value(tensor=a.tensor or b.tensor)

    # -- transfers of ops -------------------------------------------------------------------
    @staticmethod
    def _square(x: Value, node: cst.CSTNode, kind: str) -> Value:
        """square, abs and norm: >= 0, and 0 where the input is.

        A difference `a - b` squared is not evidence by itself (elementwise, `a == b` is a
        coincidence); reduced over a tensor — a norm, a sum or mean of squares — it is: that
        is the distance or the error that training drives to 0.
        """
        if x.const is not None and kind != "norm":
            return constant(x.const ** 2 if kind == "square" else abs(x.const))
        zero = x.zero
        tags = {kind}
        of_difference = "difference" in x.tags and x.node is not None
        if of_difference:
            tags.add("square_of_difference")
            if kind == "norm" and zero is None:
                zero = _difference_evidence(x.node)
        return Value(lo=0.0, hi=inf, zero=zero, known=True, tensor=True, tags=frozenset(tags),
                     node=x.node if of_difference else node)

    @staticmethod
    def _sqrt_like(x: Value) -> Value:
        if x.const is not None and x.const >= 0:
            return constant(math.sqrt(x.const))
        lo = math.sqrt(x.lo) if x.lo > 0 else 0.0
        tags = {"sqrt"}
        if "sum_of_squares" in x.tags:
            tags.add("norm")  # sqrt(sum(square(d))): a hand-written euclidean norm
        return Value(lo=lo, lo_open=x.positive and lo == 0, zero=x.zero, known=x.known,
                     tensor=x.tensor, tags=frozenset(tags))

    def _call(self, call: cst.Call, scope: Scope, index: int) -> Value:
        callee = self._callee(call.func, scope, index)
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
                result = _join([self._value(r.value, scope, r.index) for r in scope.returns])
        finally:
            self._in_progress.discard(key)
        self._returns[key] = result
        return result

    def _activation(self, activation: str, node: cst.CSTNode) -> Value:
        op = optable.TABLE.by_name.get(activation)
        if op is None:
            return UNKNOWN
        if op.transfer == "exp":
            return Value(lo=0.0, lo_open=True, known=True, tensor=True, tags=frozenset({"exp"}))
        return self._fixed(op, node, "the output of `{src}`")

    @staticmethod
    def _fixed(op: Op, node: cst.CSTNode, what: str = "the output of `{op}`") -> Value:
        def evidence(reason: Optional[Reason]) -> Optional[Evidence]:
            if reason is None:
                return None
            return Evidence(node, what, reason.why, reason.confidence, reason.aggregate,
                            reason.discrete, tiny=reason.tiny, producer=op.name)
        return Value(lo=op.lo, hi=op.hi, lo_open=op.lo_open, hi_open=op.hi_open,
                     zero=evidence(op.zero), negative=evidence(op.negative), known=True,
                     tensor=True, tags=frozenset(op.tags), node=node)

    def _op(self, op: Op, call: cst.Call, scope: Scope, index: int) -> Value:
        value = self._op_value(op, call, scope, index)
        dtype = self._dtype_argument(call, scope, index)
        if op.transfer in ("like", "reduce", "square", "abs", "sqrt", "exp", "clip",
                           "maximum", "minimum", "add", "subtract", "multiply", "divide"):
            dtype = dtype or self._first_dtype(op, call, scope, index)
        if value.origin == op.name and value.dtype == dtype:
            return value
        return replace(value, origin=op.name, dtype=dtype)

    def _first_dtype(self, op: Op, call: cst.Call, scope: Scope, index: int) -> Optional[str]:
        for position in range(min(2, max(1, len(op.args)))):
            expr = self.argument(call, op, position)
            if expr is not None:
                dtype = self._value(expr, scope, index).dtype
                if dtype:
                    return dtype
        return None

    def _dtype_argument(self, call: cst.Call, scope: Scope, index: int) -> Optional[str]:
        """``dtype=tf.float16`` or ``dtype="float16"``, or the dtype of ``tf.cast(x, D)``."""
        expr = self.keyword(call, "dtype")
        callee = self._callee(call.func, scope, index)
        if expr is None and callee is not None and callee.op is not None and (
                callee.op.transfer == "cast") and len(call.args) > 1:
            expr = call.args[1].value
        if expr is None:
            return None
        if isinstance(expr, cst.SimpleString):
            text = expr.evaluated_value
            return text if isinstance(text, str) else None
        parts = dotted_parts(expr)
        if parts and parts[-1] in DTYPES:
            return parts[-1]
        return None

    def _op_value(self, op: Op, call: cst.Call, scope: Scope, index: int) -> Value:
        transfer = op.transfer

        def arg(position: int) -> Value:
            expr = self.argument(call, op, position)
            return self._value(expr, scope, index) if expr is not None else UNKNOWN

        if transfer == "range":
            return self._fixed(op, call)
        if transfer == "matmul":
            a, b = arg(0), arg(1)
            if a.nonnegative and b.nonnegative:  # e.g. square(x) @ square(scale)
                return Value(lo=0.0, known=True, tensor=True, zero=a.zero or b.zero)
            return self._fixed(op, call)
        if transfer == "any":
            return Value(known=True, tensor=True)
        if transfer == "like":
            x = arg(0)
            return replace(x, tensor=True, layer=None)
        if transfer == "epsilon":
            return replace(constant(self.settings.epsilon), tensor=True)
        if transfer == "exp":
            x = arg(0)
            if x.const is not None:
                try:
                    return replace(constant(math.exp(x.const)), tensor=True)
                except OverflowError:
                    return UNKNOWN
            tags = {"exp"}
            if x.hi == inf:
                tags.add("exp_unbounded")  # nothing bounds the argument: exp can overflow
            return Value(lo=0.0, lo_open=True, known=True, tensor=True, tags=frozenset(tags),
                         node=call)
        if transfer in ("square", "abs", "norm"):
            x = arg(0)
            value = self._square(x, call, transfer)
            return value
        if transfer == "sqrt":
            return self._sqrt_like(arg(0))
        if transfer == "pow":
            return self._power(arg(0), arg(1), call)
        if transfer == "reduce":
            return self._reduce(op, arg(0), call)
        if transfer in ("add", "subtract", "multiply", "divide"):
            return self._arithmetic(transfer.capitalize(), arg(0), arg(1), call)
        if transfer == "divide_no_nan":
            a, b = arg(0), arg(1)
            value = self._divide(a, b, a.known and b.known, True, call)
            return replace(value, zero=a.zero or b.zero)
        if transfer == "maximum":
            return self._maximum(arg(0), arg(1), call)
        if transfer == "minimum":
            a, b = arg(0), arg(1)
            return Value(lo=min(a.lo, b.lo), hi=min(a.hi, b.hi), zero=a.zero or b.zero,
                         negative=a.negative or b.negative, known=a.known and b.known,
                         tensor=True)
        if transfer == "clip":
            return self._clip(arg(0), arg(1), arg(2))
        if transfer == "cast":
            x = arg(0)
            if "bool" in x.tags:
                evidence = Evidence(call, "the mask `{src}`", "which is 0 wherever the "
                                    "condition is false", "high", discrete=True,
                                    producer="mask")
                return Value(lo=0.0, hi=1.0, zero=evidence, known=True, tensor=True,
                             tags=frozenset({"mask"}))
            return replace(x, tensor=True, layer=None)
        if transfer == "bool":
            return Value(lo=0.0, hi=1.0, known=True, tensor=True, tags=frozenset({"bool"}))
        if transfer == "where":
            # A branch that is a constant (`tf.zeros`, `1.`) handles a special case on
            # purpose — the "safe" idiom — so it is no evidence of a zero, nor of a negative.
            branches = [arg(1), arg(2)]
            joined = replace(_join(branches), tensor=True)
            if any(b.known and b.lo == b.hi for b in branches):
                joined = replace(joined, zero=None, negative=None)
                if any("max" in b.tags for b in branches):
                    # `where(is_finite(m), m, 0)`: a maximum with its infinities replaced.
                    joined = replace(joined, tags=joined.tags | {"max"})
            return joined
        if transfer == "variable":
            trainable = self.keyword(call, "trainable")
            if isinstance(trainable, cst.Name) and trainable.value == "False":
                return replace(arg(0), tensor=True)
            return Value(zero=Evidence(call, "the variable `{src}`", "a trainable variable "
                                       "that training can move through 0", "medium",
                                       aggregate=False, producer="variable"),
                         known=True, tensor=True, tags=frozenset({"variable"}))
        if transfer == "layer":
            return self._layer(op, call, scope, index)
        if transfer == "layer_fn":
            activation = self._activation_name(self.keyword(call, "activation"), scope, index)
            return self._activation(activation, call) if activation else UNKNOWN
        return UNKNOWN

    def _reduce(self, op: Op, x: Value, call: cst.Call) -> Value:
        zero = x.zero if x.zero is not None and x.zero.aggregate else None
        if zero is None and "square_of_difference" in x.tags and x.node is not None:
            zero = _difference_evidence(x.node)
        tags = set()
        if "mask" in x.tags and op.name == "reduce_sum":
            zero = Evidence(call, "the count `{src}`", "which is 0 when no element is selected",
                            "high", discrete=True, producer="count")
            tags.add("count")
        if "exp" in x.tags and op.name == "reduce_sum":
            tags.add("sum_exp")
            if "exp_unbounded" in x.tags:
                tags.add("sum_exp_unbounded")
        if op.name == "reduce_max":
            tags.add("max")
        if "square_of_difference" in x.tags:
            tags.add("mean_squared_error" if op.name == "reduce_mean" else "sum_of_squares")
        elif "square" in x.tags:
            tags.add("sum_of_squares")
        if op.name == "reduce_sum":
            lo = x.lo if x.lo >= 0 else -inf
            hi = inf if x.hi > 0 else x.hi
        else:
            lo, hi = x.lo, x.hi
        return Value(lo=lo, hi=hi, lo_open=x.lo_open and lo == x.lo, zero=zero,
                     negative=x.negative, known=x.known, tensor=True, tags=frozenset(tags),
                     node=call)

    @staticmethod
    def _maximum(a: Value, b: Value, call: cst.Call) -> Value:
        lo, lo_open = (a.lo, a.lo_open) if a.lo >= b.lo else (b.lo, b.lo_open)
        zero = None
        if a.zero and b.zero:
            zero = a.zero
        elif lo == 0 and not lo_open and (a.const == 0 or b.const == 0):
            zero = Evidence(call, "`{src}`", "which is 0 wherever its input is not positive",
                            "medium", producer="relu")
        negative = a.negative if a.negative and b.negative else None
        return Value(lo=lo, hi=max(a.hi, b.hi), lo_open=lo_open, zero=zero, negative=negative,
                     known=a.known or b.known, tensor=True)

    @staticmethod
    def _clip(x: Value, low: Value, high: Value) -> Value:
        lo, lo_open = x.lo, x.lo_open
        if low.lo > lo:
            lo, lo_open = low.lo, low.lo_open
        hi, hi_open = x.hi, x.hi_open
        if high.hi < hi:
            hi, hi_open = high.hi, high.hi_open
        elif not high.known:
            hi_open = True  # an unknown upper clip (`1 - eps`) is a guard, not evidence
        zero = x.zero if low.known and low.lo <= 0 else None
        negative = x.negative if low.known and low.lo < 0 else None
        return Value(lo=lo, hi=hi, lo_open=lo_open, hi_open=hi_open, zero=zero,
                     negative=negative, known=x.known or (low.known and high.known),
                     tensor=True, tags=x.tags & {"probability"})

    def _layer(self, op: Op, call: cst.Call, scope: Scope, index: int) -> Value:
        if op.activation is not None:
            activation = op.activation
        else:
            expr = self.keyword(call, "activation")
            if expr is None and "activation" in op.args:
                expr = self.argument(call, op, op.args.index("activation"))
            activation = self._activation_name(expr, scope, index)
        if activation is None:
            return UNKNOWN
        return Value(layer=activation, node=call)

    def _activation_name(self, expr: Optional[cst.BaseExpression], scope: Scope,
                         index: int) -> Optional[str]:
        if expr is None or (isinstance(expr, cst.Name) and expr.value == "None"):
            return "linear"  # no activation: a linear output
        if isinstance(expr, cst.SimpleString):
            return optable.ACTIVATION_STRINGS.get(expr.evaluated_value)
        callee = self._callee(expr, scope, index)
        if callee is not None and callee.kind == "op" and callee.op is not None:
            return callee.op.name
        return None


def render(evidence: Evidence, module: cst.Module, where_is) -> str:
    """``\\`y_conv\\` is the output of \\`tf.nn.softmax\\` (line 60), which underflows ...``.

    ``where_is(node)`` names the node's place ("line 60", in a notebook "cell 2, line 3").
    """
    node = evidence.node
    op = module.code_for_node(node.func) if isinstance(node, cst.Call) else ""
    src = _short(module.code_for_node(node))
    what = evidence.what.format(op=op, src=src)
    place = where_is(node)
    where = f" ({place})" if place else ""
    if evidence.name:
        return f"`{evidence.name}` is {what}{where}, {evidence.why}"
    return f"it is {what}{where}, {evidence.why}"


def _short(source: str, limit: int = 60) -> str:
    source = " ".join(source.split())
    return source if len(source) <= limit else source[: limit - 3] + "..."
