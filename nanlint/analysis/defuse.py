"""Definitions and uses, per function: the forward pass that gradient reach runs on.

A *unit* is a function body, or the module's top-level code (lambdas and comprehensions
belong to the unit they are written in). :class:`Body` walks one unit once, in order, and
links every definition of a name (an assignment target, a parameter, a loop variable) to the
reads it reaches — through branches (joined) and loops (a read also sees the definitions of
the loop's later statements) — and records the parent of every node it passes, so that a
value can be followed up to where it ends. It also notes assertions that guard a name
(``tf.debugging.assert_positive(x)`` as a statement or a control dependency).

The whole module's index (functions, call sites, ``loss=``/``metrics=`` names) is in
:mod:`nanlint.analysis.modindex`.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, List, Optional, Set, Tuple, Union

import libcst as cst

from nanlint.analysis.tree import children, last_name, names_in

Unit = Union[cst.Module, cst.FunctionDef]
_COMPREHENSIONS = frozenset({cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp})
# Assertions that guard their first argument, and what they prove about it.
_ASSERTIONS = {"assert_positive": "positive", "assert_non_negative": "nonnegative",
               "assert_none_equal": "nonzero"}


def dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr.value}" if inner else ""
    return ""


# -- one unit: a function, or the module's top-level code ----------------------------------
Env = Dict[str, Tuple[FrozenSet[int], Optional[str]]]  # name -> (definitions, asserted kind)


# Builtins that read a body's names without naming them.
_NAMESPACE_READERS = frozenset({"locals", "vars", "eval", "exec"})


class Body:
    """Definitions, their uses, parents and asserted names of one function body."""

    def __init__(self, node: Unit) -> None:
        self.node = node
        self.parents: Dict[int, cst.CSTNode] = {}
        self.uses: Dict[int, List[cst.Name]] = {}  # definition -> loads it reaches
        self.load_defs: Dict[int, FrozenSet[int]] = {}  # load -> definitions
        self.escaping: Set[int] = set()  # definitions read where this unit cannot see
        self.asserted: Dict[int, str] = {}  # load -> "positive" / "nonnegative" / "nonzero"
        self.params: Dict[str, int] = {}
        self.names: Dict[int, str] = {}  # definition -> its name
        self.nested: List[cst.CSTNode] = []  # functions and classes defined inside
        self.globals: Set[str] = set()
        self.paths: Dict[int, object] = {}  # node -> where its value ends (gradient reach)
        self.reads_namespace = False  # `locals()`, `vars()`: any name may be read
        env: Env = {}
        if node.__class__ is cst.FunctionDef:
            params = node.params
            for param in (*params.posonly_params, *params.params, *params.kwonly_params,
                          params.star_arg, params.star_kwarg):
                if param.__class__ is cst.Param:  # (exact classes: no ABC isinstance)
                    self.params[param.name.value] = self._define(param.name, env)
            self._suite(node.body, env)
        else:
            self._block(node.body, env)
        captured: Set[str] = set(self.globals)
        for nested in self.nested:
            captured.update(names_in(nested))
        for definition, name in self.names.items():
            if name in captured:
                self.escaping.add(definition)

    # definitions and uses
    def _define(self, target: cst.Name, env: Env) -> int:
        key = id(target)
        self.names[key] = target.value
        self.uses.setdefault(key, [])
        env[target.value] = (frozenset((key,)), None)
        return key

    def _load(self, name: cst.Name, env: Env) -> None:
        if name.value in _NAMESPACE_READERS:
            self.reads_namespace = True
        found = env.get(name.value)
        if found is None:
            self.load_defs[id(name)] = frozenset()  # a parameter of no function, a global
            return
        definitions, asserted = found
        self.load_defs[id(name)] = definitions
        for definition in definitions:
            self.uses[definition].append(name)
        if asserted is not None:
            self.asserted[id(name)] = asserted

    def _bind(self, target: cst.BaseExpression, env: Env, parent: cst.CSTNode) -> None:
        self.parents[id(target)] = parent
        if isinstance(target, cst.Name):
            self._define(target, env)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind(element.value, env, target)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, env, target)
        else:  # `self.x = ...`, `d[k] = ...`: the object is read
            self._expression(target, env, parent)

    # statements
    def _suite(self, suite: cst.BaseSuite, env: Env) -> None:
        if isinstance(suite, cst.IndentedBlock):
            self._block(suite.body, env)
        else:
            for small in suite.body:
                self._small(small, env)

    def _block(self, statements, env: Env) -> None:
        for statement in statements:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    self._small(small, env)
            else:
                self._compound(statement, env)

    def _branches(self, env: Env, suites) -> None:
        """Run each suite (None: the path that skips them) from ``env``; join into ``env``."""
        results = []
        for suite in suites:
            branch = dict(env)
            if suite is not None:
                self._suite(suite, branch)
            results.append(branch)
        env.clear()
        env.update(_join_envs(results))

    def _loop(self, body: cst.BaseSuite, env: Env) -> None:
        """Run a loop body; its loads also see its own definitions (the next iteration)."""
        first = dict(env)
        self._suite(body, first)
        looped = _join_envs([env, first])
        self._relink(body, looped)
        env.clear()
        env.update(looped)

    def _relink(self, body: cst.BaseSuite, env: Env) -> None:
        """Second look at a loop body: loads at its start also see the body's definitions
        (no new parents, no new definitions: only extra links)."""
        for name_node, definitions in _loads_before_rebinding(body, env):
            if id(name_node) not in self.load_defs:
                continue  # a name that is not read here: a keyword, a target
            known = self.load_defs.get(id(name_node), frozenset())
            for definition in definitions - known:
                self.uses[definition].append(name_node)
            self.load_defs[id(name_node)] = known | definitions

    def _compound(self, statement: cst.CSTNode, env: Env) -> None:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            for decorator in statement.decorators:
                self._expression(decorator.decorator, env, statement)
            if isinstance(statement, cst.FunctionDef):
                for param in (*statement.params.params, *statement.params.kwonly_params,
                              *statement.params.posonly_params):
                    if param.default is not None:
                        self._expression(param.default, env, param)
            else:
                for arg in statement.bases:
                    self._expression(arg.value, env, statement)
            self.nested.append(statement)
            self._define(statement.name, env)
        elif isinstance(statement, cst.If):
            self._expression(statement.test, env, statement)
            orelse = statement.orelse
            if isinstance(orelse, cst.If):
                branch = dict(env)
                self._compound(orelse, branch)
                first = dict(env)
                self._suite(statement.body, first)
                env.clear()
                env.update(_join_envs([first, branch]))
            else:
                self._branches(env, [statement.body, orelse.body if orelse else None])
        elif isinstance(statement, (cst.For, cst.While)):
            looping = isinstance(statement, cst.For)
            self._expression(statement.iter if looping else statement.test, env, statement)
            body_env = dict(env)
            if looping:
                self._bind(statement.target, body_env, statement)
            self._loop(statement.body, body_env)  # the body may not run: join with before
            joined = _join_envs([env, body_env])
            env.clear()
            env.update(joined)
            if statement.orelse is not None:
                self._suite(statement.orelse.body, env)
        elif isinstance(statement, cst.With):
            for item in statement.items:
                self._expression(item.item, env, item)
                self.parents[id(item)] = statement
                if item.asname is not None:
                    self._bind(item.asname.name, env, item)
            self._suite(statement.body, env)
        elif isinstance(statement, (cst.Try, cst.TryStar)):
            body = dict(env)
            self._suite(statement.body, body)
            after = [body]
            for handler in statement.handlers:
                branch = _join_envs([env, body])
                if handler.type is not None:
                    self._expression(handler.type, branch, handler)
                if handler.name is not None:
                    self._bind(handler.name.name, branch, handler)
                self._suite(handler.body, branch)
                after.append(branch)
            if statement.orelse is not None:
                self._suite(statement.orelse.body, body)
            env.clear()
            env.update(_join_envs(after))
            if statement.finalbody is not None:
                self._suite(statement.finalbody.body, env)
        elif isinstance(statement, cst.Match):
            self._expression(statement.subject, env, statement)
            self._branches(env, [case.body for case in statement.cases] + [None])

    def _small(self, small: cst.BaseSmallStatement, env: Env) -> None:
        kind = small.__class__  # exact classes: isinstance goes through the ABC machinery
        if kind is cst.Assign:
            self._expression(small.value, env, small)
            for target in small.targets:
                self._bind(target.target, env, small)
        elif kind is cst.AnnAssign:
            if small.value is not None:
                self._expression(small.value, env, small)
                self._bind(small.target, env, small)
        elif kind is cst.AugAssign:
            self._expression(small.value, env, small)
            self._expression(small.target, env, small)  # the old value is read
            if small.target.__class__ is cst.Name:
                self._define(small.target, env)
        elif kind is cst.Global or kind is cst.Nonlocal:
            self.globals.update(item.name.value for item in small.names)
        elif kind is cst.Import or kind is cst.ImportFrom:
            return
        else:  # Expr, Return, Assert, Raise, Del
            for child in children(small):
                self._expression(child, env, small)

    # expressions
    def _expression(self, expr: cst.CSTNode, env: Env, parent: cst.CSTNode) -> None:
        self.parents[id(expr)] = parent
        # Exact classes: ``isinstance`` against libcst's classes goes through the ABC
        # machinery, and this runs for every node of every function asked about.
        kind = expr.__class__
        if kind is cst.Name:
            self._load(expr, env)
        elif kind is cst.Attribute or kind is cst.Arg:
            self._expression(expr.value, env, expr)
        elif kind is cst.Call:
            self._expression(expr.func, env, expr)
            for arg in expr.args:
                self._expression(arg, env, expr)
            self._note_assertion(expr, env)
        elif kind is cst.Lambda:
            inner = dict(env)
            for param in expr.params.params:
                inner.pop(param.name.value, None)
            self._expression(expr.body, inner, expr)
        elif kind in _COMPREHENSIONS:
            self._comprehension(expr, env)
        elif kind is cst.NamedExpr:
            self._expression(expr.value, env, expr)
            self._bind(expr.target, env, expr)
        else:
            for child in children(expr):
                self._expression(child, env, expr)

    def _comprehension(self, expr: cst.CSTNode, env: Env) -> None:
        inner = dict(env)
        comp_for = expr.for_in
        outer = True
        while comp_for is not None:
            self.parents[id(comp_for)] = expr
            self._expression(comp_for.iter, env if outer else inner, comp_for)
            self._bind(comp_for.target, inner, comp_for)
            for condition in comp_for.ifs:
                self._expression(condition.test, inner, condition)
                self.parents[id(condition)] = comp_for
            comp_for, outer = comp_for.inner_for_in, False
        if isinstance(expr, cst.DictComp):
            self._expression(expr.key, inner, expr)
            self._expression(expr.value, inner, expr)
        else:
            self._expression(expr.elt, inner, expr)

    def _note_assertion(self, call: cst.Call, env: Env) -> None:
        """``tf.debugging.assert_positive(x)``, ``assert_greater(x, 0)``: from here on,
        ``x`` is known to be positive (a statement or a control dependency)."""
        last = last_name(call.func)
        if last not in GUARDS:
            return  # (nearly every call: no list of its arguments made)
        kind = _ASSERTIONS.get(last)
        args = [arg.value for arg in call.args if arg.keyword is None]
        if last in ("assert_greater", "assert_greater_equal") and len(args) == 2 and (
                isinstance(args[1], (cst.Integer, cst.Float))):
            bound = float(args[1].evaluated_value)
            kind = "positive" if bound > 0 or last == "assert_greater" and bound == 0 else (
                "nonnegative" if bound == 0 else None)
        if kind is None or not args or not isinstance(args[0], cst.Name):
            return
        name = args[0].value
        if name in env:
            env[name] = (env[name][0], kind)


def _join_envs(envs: List[Env]) -> Env:
    joined: Env = {}
    for env in envs:
        for name, (definitions, asserted) in env.items():
            found = joined.get(name)
            if found is None:
                joined[name] = (definitions, asserted)
            else:
                joined[name] = (found[0] | definitions,
                                asserted if asserted == found[1] else None)
    for name in joined:
        if any(name not in env for env in envs):
            joined[name] = (joined[name][0], None)
    return joined


def _loads_before_rebinding(body: cst.BaseSuite, env: Env):
    """Loads in a loop body of names that ``env`` defines (the body's own definitions,
    seen again on the next iteration)."""
    stack: List[cst.CSTNode] = [body]
    while stack:
        item = stack.pop()
        if isinstance(item, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(item, cst.Name):
            found = env.get(item.value)
            if found is not None:
                yield item, found[0]  # the caller keeps only the loads it saw
        elif isinstance(item, cst.Attribute):
            stack.append(item.value)
        elif isinstance(item, cst.AssignTarget):
            if not isinstance(item.target, cst.Name):
                stack.append(item.target)
        else:
            stack.extend(children(item))


GUARDS = frozenset({*_ASSERTIONS, "assert_greater", "assert_greater_equal"})
