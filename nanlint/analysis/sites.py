"""Call sites: where the module calls one of its own functions or lambdas — by name, as a
method through ``self``, through a ``keras.layers.Lambda`` layer, or mapped over a tensor
(``tf.map_fn(fn, elems)``) — each with its place; the calls of each canonical op; what the
module's text spells. Given the resolver; the evaluator joins a parameter over these sites.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Dict, List, Optional, Tuple, Union

import libcst as cst

from nanlint import optable
from nanlint.analysis.callsites import (Activation, argument_expression, bind_arguments,
                                        is_static)
from nanlint.analysis.resolver import Place, Resolver
from nanlint.analysis.scopes import END, Scope

Callable = Union[cst.FunctionDef, cst.Lambda]  # what a call of the module can run
_WORD = re.compile(r"\w+")


class Sites:
    """The module's calls of each of its functions and lambdas (cached per function)."""

    def __init__(self, resolver: Resolver, source: Optional[str]) -> None:
        self.resolver = resolver
        self._source = source  # the module's text, when the engine has it
        # `tf.map_fn(fn, elems)`: the call `fn(elems)` it makes, kept alive (values are
        # cached by node id).
        self._mapped_calls: Dict[int, cst.Call] = {}
        self._mentioned: Dict[Tuple[str, ...], bool] = {}
        self._sites: Dict[int, List[Tuple[cst.Call, Scope, int, bool]]] = {}
        self._calls_by_name: Optional[Dict[str, List[cst.Call]]] = None
        self._op_calls: Optional[Dict[str, List[cst.Call]]] = None
        self._words: Optional[Counter] = None

    def calls_of(self, op_name: str) -> List[cst.Call]:
        """Every call of the module that invokes the canonical op ``op_name``, wherever it
        is (resolved through the module's imports)."""
        if not self.mentions(optable.OP_LAST_NAMES[op_name]):
            return []  # (every call the table resolves is spelled with one of these)
        if self._op_calls is None:
            found: Dict[str, List[cst.Call]] = {}
            for call in self.resolver.named_calls():
                callee = self.resolver.compute_callee(call.func, self.resolver.module_scope, END, 0)
                if callee is not None and callee.op is not None:
                    found.setdefault(callee.op.name, []).append(call)
            self._op_calls = found
        return self._op_calls.get(op_name, [])

    def mentions(self, words: Tuple[str, ...]) -> bool:
        """Whether the module's text holds one of ``words`` (answered once per module, as
        each answer reads the whole text; True when the text is unknown)."""
        found = self._mentioned.get(words)
        if found is None:
            found = self._mentioned[words] = self._source is None or any(
                word in self._source for word in words)
        return found

    def spelled(self, name: str) -> int:
        """How often the word ``name`` occurs in the module's text (strings and comments
        included; many when the text is unknown): one count of every word, once."""
        if self._source is None:
            return 2
        if self._words is None:
            self._words = Counter(_WORD.findall(self._source))
        return self._words[name]

    def call_sites(self, node: Callable) -> List[Tuple[cst.Call, Scope, int, bool]]:
        """The module's calls of the function or lambda ``node`` — by its name, or through
        a ``keras.layers.Lambda(node)`` layer — each with its place and whether it calls a
        method through ``self``."""
        found = self._sites.get(id(node))
        if found is not None:
            return found
        found = self._sites[id(node)] = []
        if isinstance(node, cst.FunctionDef):
            name: Optional[str] = node.name.value
            if name == "__init__":
                found.extend(self._constructions(node))
        else:
            assign = self.resolver.parent(node)  # `f = lambda x: ...`
            name = _assigned_name(assign) if isinstance(assign, cst.Assign) else None
        if name is not None and self.spelled(name) < 2:
            return found  # spelled once, where it is defined: every call would spell it again
        found.extend(self._calls_named(name, node))
        found.extend(self._dispatched(name, node))
        for wrapper in self.calls_of("lambda_layer"):
            scopes, statement = self.resolver.call_places.get(id(wrapper), ((), None))
            where, index = self.resolver.place_of(scopes, [statement] if statement else [])
            # what `Lambda(f)(x)` calls
            callee = self.resolver.made_callee(wrapper, where, index, 0)
            if callee is None or callee.node is not node:
                continue
            parent = self.resolver.parent(wrapper)
            if isinstance(parent, cst.Call) and parent.func is wrapper:  # `Lambda(f)(x)`
                found.append((parent, where, index, False))
            elif isinstance(parent, cst.Assign):  # `layer = Lambda(f)` ... `layer(x)`
                found.extend(self._calls_named(_assigned_name(parent), node))
        return found

    def _dispatched(self, name: Optional[str], node: Callable
                    ) -> List[Tuple[cst.Call, Scope, int, bool]]:
        """The calls through a dict of functions that holds ``node`` (`fns[mode](x)`, or
        `fn = fns[mode]` then `fn(x)`): each may call it (``ModuleIndex.dispatched``)."""
        found = []
        for call, _, entry in self.resolver.module_index().dispatched.get(name or "", ()):
            scopes, statement = self.resolver.call_places.get(id(call), ((), None))
            where, index = self.resolver.place_of(scopes, [statement] if statement else [])
            callee = self.resolver.callee(entry, where, index)
            if callee is not None and callee.kind == "function" and callee.node is node:
                found.append((call, where, index, False))
        return found

    def _constructions(self, init: cst.FunctionDef) -> List[Tuple[cst.Call, Scope, int, bool]]:
        """The calls of the class ``init`` is the `__init__` of (`Schedule(3.0, -10.0)`):
        each passes its arguments to ``init`` after `self`."""
        block = self.resolver.parent(init)
        cls = self.resolver.parent(block) if block is not None else None
        if not isinstance(cls, cst.ClassDef) or self.spelled(cls.name.value) < 2:
            return []
        found = []
        for call in self.by_last_name().get(cls.name.value, ()):
            if call.func.__class__ is not cst.Name:
                continue
            scopes, statement = self.resolver.call_places.get(id(call), ((), None))
            where, index = self.resolver.place_of(scopes, [statement] if statement else [])
            binding, _ = self.resolver.resolve(cls.name.value, where, index)
            if binding is not None and binding.kind == "class" and binding.node is cls:
                found.append((call, where, index, True))
        return found

    def by_last_name(self) -> Dict[str, List[cst.Call]]:
        """The module's calls `f(...)` and `a.b.f(...)`, by the callee's last name `f`."""
        if self._calls_by_name is None:
            by_name: Dict[str, List[cst.Call]] = {}
            for call in self.resolver.named_calls():
                func = call.func
                last = func.attr.value if isinstance(func, cst.Attribute) else func.value
                by_name.setdefault(last, []).append(call)
            self._calls_by_name = by_name
        return self._calls_by_name

    def calls_named(self, *names: str) -> List[cst.Call]:
        """Every call `f(...)` or `a.b.f(...)` of the module whose callee's last name is one
        of ``names``, wherever it is."""
        found = self.by_last_name()
        return [call for name in names for call in found.get(name, ())]

    def _calls_named(self, name: Optional[str], node: Callable
                     ) -> List[Tuple[cst.Call, Scope, int, bool]]:
        """The calls ``name(...)`` or ``x.name(...)`` of the module that call ``node``."""
        found = []
        for call in self.by_last_name().get(name or "", ()):
            scopes, statement = self.resolver.call_places.get(id(call), ((), None))
            where, index = self.resolver.place_of(scopes, [statement] if statement else [])
            callee = self.resolver.callee(call.func, where, index)
            if callee is not None and callee.kind in ("function", "lambda") and (
                    callee.node is node):
                method = self.resolver.through_instance(call, node, where, index)
                found.append((call, where, index, method))
        for name in optable.MAP_NAMES:
            for call in self._calls_by_name.get(name, ()):
                site = self._mapped_site(call, node)
                if site is not None:
                    found.append(site)
        return found

    def _mapped_site(self, call: cst.Call, node: cst.FunctionDef
                     ) -> Optional[Tuple[cst.Call, Scope, int, bool]]:
        """``tf.map_fn(fn, elems)`` as a call site of ``fn``: ``fn(elems)`` (an element of a
        tensor has the tensor's value); for another ``map(fn, xs)``, an unknown argument."""
        first = call.args[0] if call.args else None
        if first is None or first.keyword is not None or not isinstance(
                first.value, (cst.Name, cst.Attribute)):
            return None
        scopes, statement = self.resolver.call_places.get(id(call), ((), None))
        where, index = self.resolver.place_of(scopes, [statement] if statement else [])
        passed = self.resolver.callee(first.value, where, index)
        if passed is None or passed.kind != "function" or passed.node is not node:
            return None
        site = self._mapped_calls.get(id(call))
        if site is None:
            callee = self.resolver.callee(call.func, where, index)
            op = callee.op if callee is not None and callee.kind == "op" else None
            mapped = op is not None and op.transfer == "map"
            elems = self.resolver.argument(call, op, 1) if mapped else None
            site = self._mapped_calls[id(call)] = cst.Call(
                func=first.value, args=[cst.Arg(elems)] if elems is not None else [])
        method = isinstance(first.value, cst.Attribute) and not is_static(node)
        return site, where, index, method


    def arguments_of(self, name: str, place: Place
                     ) -> Optional[List[Tuple[cst.BaseExpression, Place]]]:
        """What the module's calls pass to the parameter ``name`` of the function ``place``
        is in, each with the place to resolve it at; None where a caller is not shown
        (nobody here calls the function, it is passed as a value, a call binds nothing to
        the parameter)."""
        node = place.scope.node
        if not isinstance(node, cst.FunctionDef) or node.name.value in self.resolver.escaped:
            return None
        passed = []
        for _, argument in site_arguments(node, name, place.scope, self.call_sites(node)):
            if argument is None:
                return None
            expr, (at, at_index) = argument
            passed.append((expr, Place(at, at_index)))
        return passed or None


def site_arguments(node: cst.FunctionDef, name: str, scope: Scope, sites):
    """For each call site of ``node``, the argument its parameter ``name`` gets there
    with the scope and index to resolve it at, or None where the call binds nothing
    to it."""
    for call, where, index, method in sites:
        yield call, argument_expression(name, Activation(
            scope, bind_arguments(call, node, method), (where, index),
            any(arg.star for arg in call.args)))

def _assigned_name(assign: cst.Assign) -> Optional[str]:
    """``f`` of ``f = ...``: the one plain name an assignment binds, else None."""
    if len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name):
        return assign.targets[0].target.value
    return None
