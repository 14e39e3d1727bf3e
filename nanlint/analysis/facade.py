"""The ``Analysis`` object rules ask (``Rule.analysis``): the public questions.

It is the top of the stack ``Bindings`` → ``Constants`` → ``Producers`` → ``Expressions``
→ ``Analysis``; each question is answered at the traversal's current position.
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

import libcst as cst

from nanlint import optable
from nanlint.analysis.bindings import Callee, Place
from nanlint.analysis.expressions import Expressions
from nanlint.analysis.lattice import Value
from nanlint.analysis.scopes import END, Binding
from nanlint.optable import Op


class Analysis(Expressions):
    """The shared value analysis of one module. Rules reach it through ``Rule.analysis``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._no_gradient_re = re.compile(self.settings.no_gradient_pattern)

    # -- what an expression is --------------------------------------------------------------
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

    # -- where a gradient is taken ----------------------------------------------------------
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
