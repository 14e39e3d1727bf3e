"""Calls of the module's own functions: where they are, and which argument each parameter
gets (results with the caller's arguments, parameters from their call sites).

Pure helpers under the resolver: one walk that lists the module's calls with the scopes and
the statement around each, and the binding of a call's arguments to a function's parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple, Union

import libcst as cst

from nanlint.analysis.scopes import END, Scope
from nanlint.analysis.tree import children, last_name
from nanlint.optable import AXIS_KEYWORDS, MAP_NAMES, Op

# id(call) -> (the scope nodes around it, outermost first; the innermost statement)
Places = Dict[int, Tuple[Tuple[cst.CSTNode, ...], Optional[cst.CSTNode]]]

_SCOPE_NODES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_STATEMENT_NODES = frozenset({
    cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.FunctionDef, cst.ClassDef,
    cst.Match, cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr, cst.Return, cst.Raise,
    cst.Assert, cst.Del, cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal, cst.Pass,
    cst.Break, cst.Continue})


def collect_calls(module: cst.Module, places: Places, escaped: Set[str]) -> List[cst.Call]:
    """Every call whose callee is a name or a dotted name, in order, with the scopes and the
    statement around it (into ``places``); names passed as arguments go into ``escaped``
    (a function passed as a value has callers the module does not show).

    One iterative walk over the fields that hold code (``tree.children``)."""
    calls: List[cst.Call] = []
    # Two parallel stacks, nodes and their (scopes, statement): a context is shared by the
    # children of a node, not built once per node.
    nodes: List[Any] = [module]
    contexts: List[Tuple[Tuple[cst.CSTNode, ...], Optional[cst.CSTNode]]] = [((), None)]
    while nodes:
        node = nodes.pop()
        context = contexts.pop()
        kind = node.__class__
        if kind in _STATEMENT_NODES:
            context = (context[0], node)
        if kind is cst.Call:
            func = node.func
            if func.__class__ is cst.Name or func.__class__ is cst.Attribute:
                calls.append(node)
                places[id(node)] = context
            elif func.__class__ is cst.Subscript:  # `table[key](...)`: placed, not named
                places[id(node)] = context
            mapped = last_name(func) in MAP_NAMES  # `map_fn(f, xs)`: a call site of `f`
            for position, arg in enumerate(node.args):
                value = arg.value
                if mapped and position == 0 and arg.keyword is None:
                    continue
                if value.__class__ is cst.Name:
                    escaped.add(value.value)
                elif value.__class__ is cst.Attribute:
                    escaped.add(value.attr.value)
        elif kind in _SCOPE_NODES:
            context = (context[0] + (node,), context[1])
        below = children(node)
        if below:
            below.reverse()
            nodes.extend(below)
            contexts.extend([context] * len(below))
    return calls


def bind_arguments(call: cst.Call, node: Union[cst.FunctionDef, cst.Lambda], method: bool
                   ) -> Dict[str, cst.BaseExpression]:
    """Parameter name -> the argument ``call`` passes (``self`` skipped for a method called
    through ``self``); the positions after a ``*args`` are not bound."""
    params = [*node.params.posonly_params, *node.params.params]
    if method and params:
        params = params[1:]
    bound: Dict[str, cst.BaseExpression] = {}
    position = 0
    for arg in call.args:
        if arg.keyword is not None:
            bound[arg.keyword.value] = arg.value
        elif arg.star:
            position = len(params)
        else:
            if position < len(params):
                bound[params[position].name.value] = arg.value
            position += 1
    return bound


def is_static(node: cst.FunctionDef) -> bool:
    return decorated(node, "staticmethod")


def decorated(node: cst.FunctionDef, name: str) -> bool:
    """Whether ``node`` is decorated by the plain name ``name`` (`@classmethod`)."""
    return any(isinstance(d.decorator, cst.Name) and d.decorator.value == name
               for d in node.decorators)


@dataclass
class Activation:
    """One call of a module function, evaluated with the caller's arguments (one level)."""

    scope: Scope  # the function's scope
    arguments: Dict[str, cst.BaseExpression]  # parameter -> the caller's argument
    caller: Tuple[Scope, int]  # where the arguments are resolved
    starred: bool  # the call passes *args / **kwargs: an absent parameter is unknown
    values: Dict[int, Any] = field(default_factory=dict)  # this call's value cache
    callees: Dict[int, Any] = field(default_factory=dict)  # ... and callee cache
    inside: Dict[int, bool] = field(default_factory=dict)  # id(scope) -> in the function


def argument_expression(name: str, activation: Activation
                        ) -> Optional[Tuple[cst.BaseExpression, Tuple[Scope, int]]]:
    """The expression bound to parameter ``name`` for one call, and where to resolve it:
    the caller's argument, or else the parameter's default (at the definition)."""
    if name in activation.arguments:
        return activation.arguments[name], activation.caller
    node = activation.scope.node
    if activation.starred or not isinstance(node, (cst.FunctionDef, cst.Lambda)):
        return None
    params = node.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == name and param.default is not None:
            outer = activation.scope.parent
            while outer is not None and isinstance(outer.node, cst.ClassDef):
                outer = outer.parent
            return (param.default, (outer, END)) if outer is not None else None
    return None


def op_argument(call: cst.Call, op: Op, position: int) -> Optional[cst.BaseExpression]:
    """The argument bound to ``op.args[position]``, by position or by keyword; for a method
    (``Op.method``), the receiver is the first."""
    positional = 0
    if op.method:
        if position == 0:
            return call.func.value if call.func.__class__ is cst.Attribute else None
        positional = 1
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


def keyword_argument(call: cst.Call, name: str) -> Optional[cst.BaseExpression]:
    """The argument passed as ``name=...``, or None."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    return None


def passed_argument(call: cst.Call, name: str, position: int = 0
                    ) -> Optional[cst.BaseExpression]:
    """The argument passed as ``name=...``, else the one at ``position`` among the
    positional arguments, or None."""
    found = keyword_argument(call, name)
    if found is not None:
        return found
    positional = [arg.value for arg in call.args if arg.keyword is None]
    return positional[position] if position < len(positional) else None


def axis_argument(call: cst.Call, position: int = 1) -> Optional[cst.BaseExpression]:
    """The axis a reduction or softmax passes, under any of its keywords (``axis=``,
    ``reduction_indices=``, ``dim=``) or as the positional argument at ``position``; None if
    it passes none (an explicit ``axis=None`` is returned as the expression ``None``)."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in AXIS_KEYWORDS:
            return arg.value
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    return positional[position] if len(positional) > position else None
