"""The ``Analysis`` object rules ask (``Rule.analysis``): the public questions.

It composes the parts of the analysis, each given the others it needs: the resolver
(names, scopes, callees, attributes), the module's call sites, the constants, the gradient
flow and the evaluator (an expression to a ``Value``); data scale and precision are made
on first use, from the resolver, the constants and the sites. Each question is answered at
the traversal's current position.
"""

from __future__ import annotations

import functools
import re
from pathlib import PurePath
from typing import Dict, FrozenSet, Iterator, List, Optional, Tuple

import libcst as cst

from nanlint import optable
from nanlint.analysis.callsites import (axis_argument, keyword_argument, op_argument,
                                        passed_argument)
from nanlint.analysis.constants import Constants, Number
from nanlint.analysis.data import (DataMoments, MethodCalls, Moment, Origin, data_sources,
                                   origin)
from nanlint.analysis.defuse import Unit
from nanlint.analysis.evaluator import Evaluator
from nanlint.analysis.flow import Flow
from nanlint.analysis.lattice import DTYPE_WORDS, Evidence, Value
from nanlint.analysis.modindex import ModuleIndex
from nanlint.analysis.precision import Layer, Policy, Precision, dtype_name
from nanlint.analysis.resolver import Callee, Place, Resolver
from nanlint.analysis.scopes import END, Binding, Scope, attribute_entry, entry_name
from nanlint.analysis.settings import Settings
from nanlint.analysis.sites import Sites
from nanlint.analysis.tree import children, descendants, is_a, last_name, names_in, terms
from nanlint.analysis.sinks import METRIC_NAME, NONE, Reach
from nanlint.optable import Op


@functools.lru_cache(maxsize=16)
def _literal_parts(globs: FrozenSet[str]) -> Tuple[str, ...]:
    """For each glob, the longest run that every name it matches contains (``_deltas`` of
    ``*_deltas``)."""
    return tuple(max(re.split(r"[*?]", re.sub(r"\[[^\]]*\]", "*", glob)), key=len)
                 for glob in sorted(globs))


_STATEMENTS = (cst.BaseSmallStatement, cst.BaseCompoundStatement)
_UNASKED = object()  # op_of's answer for a call not asked about yet (None: no op)


_OBJECTIVE = re.compile(r"loss|cost|objective|penalty")
# A module whose name (or whose package's name) says that it holds losses: `losses.py`,
# `ranking_losses.py`, `losses/pairwise.py`.
_LOSS_MODULE = re.compile(r"(^|_)loss(es)?$")


class Analysis:
    """The shared value analysis of one module. Rules reach it through ``Rule.analysis``."""

    def __init__(self, module: cst.Module, settings: Optional[Settings] = None,
                 source: Optional[str] = None, path: str = "") -> None:
        settings = settings or Settings()
        self.module = module
        where = PurePath(path)
        names = (where.stem, where.parent.name) if where.name else ()
        self._loss_module = next((name for name in names
                                  if _LOSS_MODULE.search(name.lower())), "")
        self._returns: Dict[int, str] = {}
        self.settings = settings
        self._source = source
        # The resolver asks the evaluator for values (is a call's result a layer, what is
        # `self.x`), and the evaluator asks the resolver for names: ``close`` cuts the loop.
        evaluator: Optional[Evaluator] = None
        self.resolver = resolver = Resolver(
            module, source,
            evaluate=lambda expr, path, scope, index: evaluator.piece(expr, path, scope, index))
        self.cursor = resolver.cursor
        self.sites = Sites(resolver, source)
        self.constants = Constants(resolver)
        self._loss_re = re.compile(settings.loss_function_pattern)
        self._no_gradient_re = re.compile(settings.no_gradient_pattern)
        self.flow = Flow(resolver.unit_callee, resolver.module_index, self._loss_re,
                         self._no_gradient_re, self._returned_without_gradient)
        self.evaluator = evaluator = Evaluator(resolver, self.sites, self.flow, settings)
        self._moments: Optional[DataMoments] = None
        self._method_calls: Optional[MethodCalls] = None
        self._precision: Optional[Precision] = None
        self._ops: Dict[int, Optional[Op]] = {}
        self._touched: Dict[str, bool] = {}  # name -> changed otherwise (touched_otherwise)
        # id(expression) -> its statement, and the place of that statement (see value)
        self._statement_of: Dict[int, Optional[cst.CSTNode]] = {}
        self._homes: Dict[int, Tuple[Scope, int]] = {}
        self._wrt: Optional[FrozenSet[int]] = None  # see _differentiated
        self._tapes: Dict[int, Tuple[cst.With, ...]] = {}  # function -> see _step_tapes

    def close(self) -> None:
        """Cut the loops between the parts once the file is done (the resolver's
        ``evaluate``, the flow's ``gradient_free``): without the cycles, reference counting
        frees the tree at once, where a cyclic collection would walk all of it first."""
        self.resolver.evaluate = _closed
        self.flow.close()

    # -- where the traversal is, and the module's structure (the resolver's) ----------------
    argument = staticmethod(op_argument)
    keyword = staticmethod(keyword_argument)
    passed = staticmethod(passed_argument)  # by keyword, else by position
    axis = staticmethod(axis_argument)

    def enter_scope(self, node: cst.CSTNode) -> None:
        self.resolver.enter_scope(node)

    def leave_scope(self) -> None:
        self.resolver.leave_scope()

    def enter_statement(self, node: cst.CSTNode) -> None:
        self.resolver.enter_statement(node)

    def leave_statement(self) -> None:
        self.resolver.leave_statement()

    def enter_comprehension(self, names: Optional[FrozenSet[str]],
                            target: Optional[cst.BaseExpression] = None,
                            iterable: Optional[cst.BaseExpression] = None) -> None:
        """The names a comprehension binds; those of its outermost ``target`` are elements
        of ``iterable`` (unless the iterable reads one of them)."""
        self.resolver.enter_comprehension(names, target, iterable)

    def leave_comprehension(self) -> None:
        self.resolver.leave_comprehension()

    def code(self, node: cst.CSTNode) -> str:
        """The node's source, as ``module.code_for_node`` gives it (cached)."""
        return self.resolver.code(node)

    def parent(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The node that contains ``node`` (from the module's index)."""
        return self.resolver.parent(node)

    def module_index(self) -> ModuleIndex:
        """The module's one walk (functions, call sites, names, parents), made on first use."""
        return self.resolver.module_index()

    def in_function(self) -> Optional[cst.FunctionDef]:
        """The innermost function the traversal is in, or None."""
        return self.resolver.in_function()

    def function_of(self, node: cst.CSTNode) -> Optional[cst.FunctionDef]:
        """The function whose body holds ``node`` anywhere in the module (``in_function``
        is the traversal's own), or None at the top level."""
        return self.resolver.function_of(node)

    def calls_of(self, op_name: str) -> List[cst.Call]:
        """Every call of the module that invokes the canonical op ``op_name``, wherever it
        is (resolved through the module's imports)."""
        return self.sites.calls_of(op_name)

    # -- numbers (the constants') -----------------------------------------------------------
    def number(self, expr: cst.BaseExpression) -> Optional[Number]:
        """The number ``expr`` stands for, or None: a literal, a constant expression, a module
        constant, a parameter's default, an ``argparse``/``flags`` default, a key of a dict
        literal, the initial value of a learning-rate schedule, or ``tf.constant(c)``."""
        scope, index = self.resolver.where()
        return self.constants.number(expr, scope, index)

    def number_at(self, expr: cst.BaseExpression, place: Place) -> Optional[Number]:
        """``number(expr)`` resolved at ``place`` (from ``here`` or ``binding``) instead of
        the traversal's current position."""
        return self.constants.number(expr, place.scope, place.index)

    # Two cheap questions for a rule that would otherwise ask the value of every operand: a
    # text search, sound because the evidence they stand for comes only from words the
    # module must spell. Both say True when the text is unknown.
    def may_hold(self, dtype: str) -> bool:
        """False when no value of the module can have ``dtype`` ("float16"): the analysis
        learns a dtype only from its spelling in the module (a cast, a ``dtype=`` argument, a
        policy's name), so a module that never spells it has none."""
        return self.sites.mentions(DTYPE_WORDS.get(dtype, (dtype,)))

    def may_be_huge(self) -> bool:
        """False when no value of the module can carry ``huge`` evidence: it comes only from
        a parameter named by the regression-delta convention, whose name the module spells."""
        return self.sites.mentions(_literal_parts(self.settings.delta_parameters))

    # -- data and uses ----------------------------------------------------------------------
    def moment(self, expr: cst.BaseExpression, place: Optional[Place] = None
               ) -> Optional[Moment]:
        """The scale of the data ``expr`` holds (E[x^2] per feature, the features of one
        example), where the code shows it: a literal range, a known dataset; else None."""
        if self._moments is None:
            self._moments = DataMoments(self.resolver, self.constants)
        return self._moments.moment(expr, place)

    def origin(self, expr: cst.BaseExpression, place: Optional[Place] = None,
               path: Tuple[int, ...] = ()) -> Optional[Origin]:
        """Where the data ``expr`` holds comes from: back through assignments, tuple
        unpacking (``path``), subscripts, ``.values`` and ``.T`` (see ``data.origin``)."""
        return origin(self.resolver, expr, place or self.here(), path)

    # -- the dtype the layers compute in ----------------------------------------------------
    def dtype_policy(self) -> Optional[Policy]:
        """The float16 dtype policy in force at the current statement (the last
        `set_global_policy`, `set_policy` or `set_floatx` before it in source order), or
        None where the layers compute in float32 (see ``analysis.precision``)."""
        return self._precise().policy(self.cursor.statements)

    def layer_dtypes(self) -> List[Layer]:
        """The module's Keras layers and Inputs made with a dtype of their own (the call,
        "float16" | "float32", the function it is made in); `autocast=False` is float32."""
        return self._precise().layers()

    @staticmethod
    def dtype_name(expr: cst.BaseExpression) -> Optional[str]:
        """The dtype `"float16"`, `tf.float16` or `np.float16` names, else None."""
        return dtype_name(expr)

    def _precise(self) -> Precision:
        if self._precision is None:
            self._precision = Precision(self.resolver, self.sites)
        return self._precision

    @staticmethod
    def run_fetches(run: cst.Call) -> List[cst.BaseExpression]:
        """What a `sess.run(fetches, ...)` or `op.run(...)` call runs: the receiver when it is
        a name (`train_op.run()`), and the first positional argument, a list or tuple of
        fetches spread out."""
        receiver = run.func.value if isinstance(run.func, cst.Attribute) else None
        fetches: List[cst.BaseExpression] = [receiver] if isinstance(receiver, cst.Name) else []
        if run.args and run.args[0].keyword is None:
            first = run.args[0].value
            fetches += [e.value for e in first.elements] if isinstance(
                first, (cst.List, cst.Tuple)) else [first]
        return fetches

    def method_calls(self, receiver: str, *methods: str) -> List[cst.Call]:
        """Every `receiver.method(...)` call of the module, for each of ``methods``."""
        if self._method_calls is None:
            self._method_calls = MethodCalls(self.module)
        return self._method_calls.of(receiver, *methods)

    # -- what an expression is --------------------------------------------------------------
    def value(self, expr: cst.BaseExpression) -> Value:
        """What ``expr`` can be where it is: at the traversal's current position, or, for an
        expression of another statement (a rule following a value to its readers or its
        producer), at that statement."""
        statements = self.cursor.statements
        if not self.resolver.module_indexed():  # no rule has followed a value elsewhere
            scope, index = self.resolver.where()
            return self.evaluator.value(expr, scope, index)
        statement = self._statement_of.get(id(expr), expr)
        if statement is expr:
            statement = self._statement_of[id(expr)] = self._enclosing_statement(expr)
        if statement is None or not statements or statement is statements[-1]:
            scope, index = self.resolver.where()
        else:
            home = self._homes.get(id(statement))
            if home is None:
                home = self._homes[id(statement)] = self._home(statement)
            scope, index = home
        return self.evaluator.value(expr, scope, index)

    def own_factors(self, numerator: Optional[cst.BaseExpression],
                    denominator: cst.BaseExpression) -> Optional[Evidence]:
        """``p * r / (p + r)``: a division by a sum of the numerator's own factors (the
        harmonic mean of an F1) is 0 / 0 where they are all 0 (a precision and a recall both
        0: a class never predicted), unless one of them is shown positive."""
        if numerator is None:
            return None
        summed = terms(denominator)
        if len(summed) < 2:
            return None  # (no sum: the numerator's nodes are not listed)
        parts = descendants(numerator)
        if all(any(p.deep_equals(t) for p in parts) for t in summed) and (
                not any(self.value(t).positive or (self.value(t).origin or "").startswith("np.")
                        for t in summed)):
            return Evidence(denominator, "the sum `{src}` of the numerator's own factors",
                            "which is 0 where they all are (an F1 of a precision and a "
                            "recall both 0): 0 / 0 = NaN", "medium", producer="own_factors")
        return None

    def _enclosing_statement(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        while node is not None and not is_a(node, _STATEMENTS):
            node = self.parent(node)
        return node

    def _home(self, statement: cst.CSTNode) -> Tuple[Scope, int]:
        """The scope and order of ``statement``, as the traversal locates it when there."""
        scopes, statements = [], [statement]
        child, node = statement, self.parent(statement)
        while node is not None:
            kind = node.__class__
            if kind is cst.FunctionDef or kind is cst.ClassDef or kind is cst.Lambda:
                if child is node.body:
                    scopes.append(node)
            elif isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                statements.append(node)
            child, node = node, self.parent(node)
        return self.resolver.place_of(scopes[::-1], statements[::-1])

    def callee(self, call: cst.Call) -> Optional[Callee]:
        scope, index = self.resolver.where()
        return self.resolver.callee(call.func, scope, index)

    def op_of(self, call: cst.Call) -> Optional[Op]:
        """The canonical TF/Keras op a call invokes, or None (asked by every rule for every
        call: answered once per call)."""
        key = id(call)
        known = self._ops.get(key, _UNASKED)
        if known is not _UNASKED:
            return known
        func = call.func
        last = func.attr.value if isinstance(func, cst.Attribute) else (
            func.value if isinstance(func, cst.Name) else None)
        op = None
        if last is None or last in optable.LAST_NAMES or isinstance(func, cst.Name):
            # not `x.numpy()`, `self.dense(...)`: an op spelling or an alias
            callee = self.callee(call)
            op = callee.op if callee is not None and callee.kind == "op" else None
        self._ops[key] = op
        return op

    def qualified_name(self, expr: cst.BaseExpression) -> Optional[str]:
        scope, index = self.resolver.where()
        callee = self.resolver.callee(expr, scope, index)
        return callee.qualified if callee is not None else None

    def spelling(self, expr: cst.BaseExpression) -> str:
        """The op table's spelling of the TF/Keras name ``expr`` stands for, through the
        file's imports and aliases (`tf.math.log`, `ops.log`, `K.log`), or "" if it is none."""
        return optable.spelling_of(self.qualified_name(expr) or "") or ""

    def definition(self, name: cst.Name) -> Optional[cst.BaseExpression]:
        """The expression last assigned to ``name`` before the current statement, or None
        (a parameter, an import, an augmented assignment, a name bound by a loop)."""
        scope, index = self.resolver.where()
        binding, _ = self.resolver.resolve(name.value, scope, index)
        if binding is not None and binding.kind == "assign":
            return binding.value
        return None

    def entry_definition(self, expr: cst.Subscript, place: Optional[Place] = None
                         ) -> Optional[Tuple[cst.BaseExpression, Optional[Place]]]:
        """``d["k"]`` or ``self.d["k"]``: the expression assigned to that entry (for ``d``,
        the last before ``place``; for ``self.d``, the one the class's methods assign), and
        where its names resolve (None: where ``expr`` stands); None if there is none, or
        more than one for ``self.d``."""
        if len(expr.slice) != 1 or expr.slice[0].slice.__class__ is not cst.Index:
            return None
        key = expr.slice[0].slice.value
        if key.__class__ is not cst.SimpleString or not isinstance(key.evaluated_value, str):
            return None
        base, key = expr.value, key.evaluated_value
        if base.__class__ is cst.Name:
            found = self.binding(entry_name(base, key), place)  # `stats["peak"] = ...`
            if found is not None and found[0].kind == "assign" and found[0].value is not None:
                return found[0].value, found[1]
            place = place or self.here()  # else the entry of a dict literal, `dict(k=...)`
            literal = self.resolver.dict_entry(expr, place.scope, place.index)
            return (literal[0], Place(literal[1], literal[2])) if literal is not None else None
        if base.__class__ is cst.Attribute:
            assigned = self.attribute_values(base, key)
            return (assigned[0], None) if len(assigned) == 1 else None
        return None

    def attribute_values(self, expr: cst.Attribute, key: Optional[str] = None
                         ) -> List[cst.BaseExpression]:
        """``self.x`` in a method: the expressions the class's methods assign to ``self.x``
        (not unpacked from a tuple, not None: an attribute declared before it is set), or []
        outside a class. With ``key``: those they assign to the entry ``self.x[key]``."""
        attribute = expr.attr.value if key is None else attribute_entry(expr.attr.value, key)
        scope, _ = self.resolver.where()
        while scope is not None and scope.cls is None:
            scope = scope.parent
        if scope is None or expr.value.__class__ is not cst.Name or expr.value.value != "self":
            return []
        class_scope = self.resolver.scope_of(scope.cls)
        if class_scope is None:
            return []
        found = []
        for bindings in class_scope.bindings.values():
            for binding in bindings:
                if binding.kind == "def":
                    method = self.resolver.scope_for(binding.node, class_scope.parent,
                                             class_scope.node)
                    found += [a.value for a in method.self_attributes.get(attribute, ())
                              if not a.position and a.value is not None and not (
                                  a.value.__class__ is cst.Name and a.value.value == "None")]
        return found

    def unchanged_since(self, expr: cst.BaseExpression, name: cst.Name) -> bool:
        """``expr``, made of names only, means here what it meant where ``name`` was last
        assigned: none of its names was bound again in between (so a fix may move ``expr``
        from that assignment to here)."""
        scope, index = self.resolver.where()
        binding, where = self.resolver.resolve(name.value, scope, index)
        if binding is None or binding.kind != "assign" or where is not scope:
            return False
        if not isinstance(expr, cst.Name):
            return False
        used, used_in = self.resolver.resolve(expr.value, scope, index)
        if used is not None and used_in is scope and len(scope.bindings.get(expr.value, ())) > 1:
            return False  # bound twice here: a loop, a branch or a match may rebind it between
        if used is None or used_in is not scope or used.index < binding.index:
            return not self.touched_otherwise(expr.value)
        return False

    def touched_otherwise(self, name: str) -> bool:
        """Whether ``name`` may be deleted, declared nonlocal or global, captured by a
        ``case`` pattern, or changed in place (``.assign``, ``name[i] = ...``): ways of
        changing it that are no assignment. Read from the module's text, once per name (a
        use anywhere in the module counts: it only ever refuses a fix)."""
        found = self._touched.get(name)
        if found is None:
            text = self._source if self._source is not None else self.module.code
            found = self._touched[name] = re.search(
                rf"\b(del|nonlocal|global|case)\b[^\n]*\b{re.escape(name)}\b|"
                rf"\b{re.escape(name)}\s*(\.assign\w*\s*\(|\[[^\]\n]*\]\s*[-+*/]?=[^=])",
                text) is not None
        return found

    # -- following values backwards ---------------------------------------------------------
    def here(self) -> Place:
        """The place of the traversal's current statement."""
        return self.resolver.here()

    def binding(self, name: str, place: Optional[Place] = None
                ) -> Optional[Tuple[Binding, Place]]:
        """What ``name`` is bound to at ``place`` (default: the current statement), and the
        place of that binding, where the names of its value are to be resolved."""
        return self.resolver.binding(name, place or self.resolver.here())

    def op_at(self, call: cst.Call, place: Place) -> Optional[Op]:
        """The canonical op ``call`` invokes, resolved at ``place``."""
        return self.resolver.op_at(call, place)

    def calls_named(self, *names: str) -> List[cst.Call]:
        """Every call `f(...)` or `a.b.f(...)` of the module whose callee's last name is one
        of ``names``, wherever it is."""
        return self.sites.calls_named(*names)

    def call_place(self, call: cst.Call) -> Place:
        """The place where ``call`` is made: its callee resolves there (a function's own
        imports included); the module's end for a call whose callee is not a name."""
        return self.resolver.call_place(call)

    def qualified_at(self, expr: cst.BaseExpression, place: Place) -> Optional[str]:
        """The qualified name ``expr`` stands for at ``place`` (through the imports)."""
        return self.resolver.qualified_at(expr, place)

    def results(self, func: cst.BaseExpression, place: Place
                ) -> List[Tuple[cst.BaseExpression, Place]]:
        """The expressions a function of this file returns (a lambda: its body), each with
        the place to resolve it at; [] for anything else."""
        if isinstance(func, cst.Lambda):
            return [(func.body, Place(self.resolver.scope_for(func, place.scope), END))]
        callee = self.resolver.callee(func, place.scope, place.index)
        if callee is None or callee.node is None:
            return []
        if callee.kind == "lambda" and isinstance(callee.node, cst.Lambda):
            scope = self.resolver.scope_for(callee.node, callee.scope)
            return [(callee.node.body, Place(scope, END))]
        if callee.kind != "function" or not isinstance(callee.node, cst.FunctionDef):
            return []
        scope = self.resolver.function_scope(callee.node, callee.scope)
        return [(r.value, Place(scope, r.index)) for r in scope.returns]

    def readers(self, node: cst.BaseExpression) -> List[cst.BaseExpression]:
        """The expressions that read the value of ``node`` (of the current function): the
        node itself or, where it is assigned to a name, that name's reads (one step)."""
        body = self.flow.body(self._unit())
        parent = body.parents.get(id(node))
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(
                parent.targets[0].target, cst.Name):
            return list(body.uses.get(id(parent.targets[0].target), ()))
        return [node]

    # -- where a gradient is taken ----------------------------------------------------------
    def in_loss_function(self) -> bool:
        """Inside a function that computes a loss (by its name, or `(y_true, y_pred)`)."""
        return self.computes_loss(self.in_function())

    def differentiated_by_convention(self) -> str:
        """Why the code being walked counts as differentiated although no objective is seen
        in the file, or "": library code defines what other files train. A function whose
        name says it is an objective (a loss, cost, objective or penalty, a `(y_true,
        y_pred)` signature), that returns a name like a loss's, or that a module of losses
        defines (`losses.py`, `losses/pairwise.py`); a layer's or model's `call`, a function
        a Keras `Lambda` layer runs."""
        scopes = self.cursor.scopes
        for index in range(len(scopes) - 1, -1, -1):
            scope = scopes[index]
            if isinstance(scope, cst.FunctionDef):
                name = scope.name.value
                if self.computes_loss(scope) or _OBJECTIVE.search(name.lower()):
                    return f"`{name}` is an objective by its name"
                returned = self._objective_returned(scope)
                if returned:
                    return f"`{name}` returns `{returned}`, an objective by its name"
                if self._loss_module:
                    return f"`{name}` is in `{self._loss_module}`, where losses are defined"
                outer = scopes[index - 1] if index else None
                if name in ("call", "__call__") and isinstance(outer, cst.ClassDef) and (
                        outer.bases):
                    return f"the `call` of `{outer.name.value}`, trained with its model"
            if isinstance(scope, (cst.FunctionDef, cst.Lambda)) and self._run_by_lambda(scope):
                return "run by a Keras `Lambda` layer, trained with its model"
        return ""

    def _returned_without_gradient(self, function: cst.FunctionDef) -> str:
        """Why no gradient passes back through anything ``function`` returns (each of its
        returns is computed through `argmax`, an integer cast, a comparison, or from data
        alone: see ``data.data_sources``), or "" where one may."""
        returns = [returned for returned in _returns(function) if returned.value is not None]
        if not returns:
            return ""
        cut: Optional[cst.Call] = None
        for returned in returns:
            origin = data_sources(self.resolver, self.sites, returned.value,
                                  Place(*self._home(self._enclosing_statement(returned))))
            if origin is None or origin.assigned & self._differentiated():
                return ""
            cut = cut or origin.cut
        if cut is None:
            return "computed from data alone"
        return f"computed through `{self.spelling(cut.func)}`, which lets no gradient back"

    def _objective_returned(self, function: cst.FunctionDef) -> str:
        """The name, like a loss's, that ``function`` returns (`return loss`, `return
        total_cost`), or ""; its nested functions' returns are theirs."""
        key = id(function)
        if key not in self._returns:
            self._returns[key] = next((
                node.value.value for node in _returns(function)
                if isinstance(node.value, cst.Name)
                and _OBJECTIVE.search(node.value.value.lower())), "")
        return self._returns[key]

    def _run_by_lambda(self, node: cst.CSTNode) -> bool:
        """Whether a `keras.layers.Lambda(...)` of the module is given ``node`` (or, for a
        function, its name)."""
        name = node.name.value if isinstance(node, cst.FunctionDef) else None
        for layer in self.calls_of("lambda_layer"):
            first = layer.args[0].value if layer.args else None
            if first is node or (name is not None and isinstance(first, cst.Name)
                                 and first.value == name):
                return True
        return False

    def computes_loss(self, function: Optional[cst.FunctionDef]) -> bool:
        """Whether ``function`` computes a loss: by its name, or `(y_true, y_pred)`."""
        if function is None:
            return False
        params = {p.name.value for p in function.params.params}
        name = function.name.value.lower()
        return bool(self._loss_re.search(name)) or (
            "y_true" in params and not METRIC_NAME.search(name))

    def reach(self, node: cst.CSTNode) -> Reach:
        """Where the value of ``node`` (an expression of the current function) can go: to a
        differentiated objective, somewhere unknown, or only where no gradient is taken
        (``Reach.why`` says where). Computed once per function (``nanlint.analysis.flow``)."""
        return self.flow.reach(node, self._unit())

    def where(self) -> Tuple[Unit, Place]:
        """The function and the statement the traversal is at: what ``reach_at`` needs to
        answer ``reach`` or ``gradient_reach`` for one of its nodes after the walk."""
        return self._unit(), self.resolver.here()

    def reach_at(self, node: cst.CSTNode, where: Tuple[Unit, Place], gradient: bool) -> Reach:
        """``gradient_reach`` (or ``reach``) of ``node`` as asked at ``where``."""
        reach = self.flow.reach(node, where[0])
        return self._data_alone(node, reach, where[1]) if gradient else reach

    def gradient_reach(self, node: cst.CSTNode) -> Reach:
        """``reach`` for a hazard of the gradient: none where ``node`` is computed from data
        alone (placeholders, numpy arrays, constants: see ``data.data_sources``), since no
        weight is upstream, unless the module differentiates with respect to that data
        (``tape.watch(x)``, ``tf.gradients(loss, x)``: adversarial examples, saliency)."""
        return self._data_alone(node, self.reach(node), self.here())

    def _data_alone(self, node: cst.CSTNode, reach: Reach, place: Place) -> Reach:
        if not reach.gradient or not isinstance(node, cst.BaseExpression):
            return reach
        if self._overridden(node):
            return Reach(NONE, "inside `gradient_override_map`: its gradient is defined by hand")
        if self._after_the_tape(node):
            return Reach(NONE, "a statistic of the gradients, taken outside every tape of "
                               "the function that took them: nothing differentiates it")
        origin = data_sources(self.resolver, self.sites, node, place)
        if origin is None or origin.assigned & self._differentiated():
            return reach
        if origin.cut is not None:
            return Reach(NONE, f"computed through `{self.spelling(origin.cut.func)}`, which "
                               f"lets no gradient back")
        return Reach(NONE, "computed from data alone: no trainable value is upstream")

    def _overridden(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` is computed in a `with graph.gradient_override_map({...}):` block
        (TF1's way to give ops a gradient registered with `tf.RegisterGradient`)."""
        parent = self.parent(node)
        while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Module)):
            if isinstance(parent, cst.With) and any(
                    isinstance(item.item, cst.Call)
                    and last_name(item.item.func) == "gradient_override_map"
                    for item in parent.items):
                return True
            parent = self.parent(parent)
        return False

    def _after_the_tape(self, node: cst.BaseExpression) -> bool:
        """A call on gradients a tape returned (`tf.norm(g)` of `tape.gradient(...)`'s), in
        a training step (a function that holds the tape and applies the gradients itself:
        nothing differentiates a step), outside every `with GradientTape()` block of it: a
        second-order use would be inside an outer tape's block."""
        function = self.function_of(node)
        if function is None or not isinstance(node, cst.Call) or not any(
                getattr(self.value(arg.value).zero, "producer", None) == "gradient"
                for arg in node.args):
            return False
        tapes = self._step_tapes(function)
        if not tapes:
            return False
        parent = self.parent(node)
        while parent is not None and parent is not function:
            if any(parent is tape for tape in tapes):
                return False
            parent = self.parent(parent)
        return True

    def _step_tapes(self, function: cst.FunctionDef) -> Tuple[cst.With, ...]:
        """The `with GradientTape()` blocks of ``function`` if it is a training step (it also
        applies gradients itself), else none; once per function."""
        key = id(function)
        if key not in self._tapes:
            below = descendants(function.body)
            tapes = tuple(n for n in below if isinstance(n, cst.With) and any(
                isinstance(item.item, cst.Call) and last_name(item.item.func) == "GradientTape"
                for item in n.items))
            steps = tapes and any(isinstance(n, cst.Call) and last_name(n.func) in (
                "apply_gradients", "apply") for n in below)
            self._tapes[key] = tapes if steps else ()
        return self._tapes[key]

    def arguments_of(self, name: str, place: Place
                     ) -> Optional[List[Tuple[cst.BaseExpression, Place]]]:
        """What the module's calls pass to the parameter ``name`` of the function ``place``
        is in, each with the place to resolve it at; None where a caller is not shown
        (nobody here calls the function, it is passed as a value, a call binds nothing to
        the parameter)."""
        return self.sites.arguments_of(name, place)

    def _differentiated(self) -> FrozenSet[int]:
        """The ids of the expressions assigned to the names a gradient is asked with
        respect to, or a tape watches, anywhere in the module."""
        if self._wrt is None:
            assigned = set()
            for call in self.calls_named("watch", "gradients", "gradient",
                                         "compute_gradients", "jacobian", "batch_jacobian"):
                watched = last_name(call.func) == "watch"  # else the first is the target
                place = self.call_place(call)
                for arg in call.args[0 if watched else 1:]:
                    for name in names_in(arg.value):
                        found = self.binding(name, place)
                        if found is not None and found[0].value is not None:
                            assigned.add(id(found[0].value))
            self._wrt = frozenset(assigned)
        return self._wrt

    def gradient_may_flow(self, node: Optional[cst.CSTNode] = None) -> bool:
        """False where evidently no gradient is taken: in tests and metric bookkeeping and,
        given the ``node`` asked about, where its value reaches no differentiated objective
        (only metrics, summaries, logs, assertions, comparisons, a cut)."""
        if node is not None:
            return self.reach(node).gradient
        return not any(scope.__class__ is cst.FunctionDef and self._no_gradient_re.search(
            scope.name.value) for scope in self.cursor.scopes)

    # -- definitions and uses of the traversal's function (or the module's own code) -------
    def reached_only_by(self, read: cst.Name, target: cst.Name) -> bool:
        """Whether every value ``read`` can hold comes from the binding ``target``: no other
        assignment of the unit reaches it on any path (branches joined, a loop's later
        assignments included)."""
        return self.flow.body(self._unit()).load_defs.get(id(read)) == {id(target)}

    def read_only_by(self, target: cst.Name, read: cst.Name) -> bool:
        """Whether ``read`` is the only read the binding ``target`` reaches, with no nested
        function that could read it."""
        body = self.flow.body(self._unit())
        uses = body.uses.get(id(target))
        return (uses is not None and len(uses) == 1 and uses[0] is read
                and id(target) not in body.escaping)

    # -- the unit of the gradient flow ------------------------------------------------------
    def _unit(self) -> Unit:
        """The function the traversal is in (the module at its top level)."""
        for node in reversed(self.cursor.scopes):
            if node.__class__ is cst.FunctionDef:
                return node
        return self.module


def _returns(function: cst.FunctionDef) -> Iterator[cst.Return]:
    """The `return` statements of ``function``; its nested functions' returns are theirs."""
    stack: List[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Return):
            yield node
        elif not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda,
                                   cst.BaseExpression)):
            stack.extend(children(node))


def _closed(*_) -> Value:
    """The resolver's ``evaluate`` once the analysis is closed: nothing asks it any more."""
    raise RuntimeError("the analysis of this module is closed")
