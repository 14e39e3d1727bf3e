"""Calls of the module's own functions: where they are, and which argument each parameter
gets (issue 15 §2: results with the caller's arguments, parameters from their call sites).

Pure helpers under ``bindings``: one walk that lists the module's calls with the scopes and
the statement around each, and the binding of a call's arguments to a function's parameters.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple, Union

import libcst as cst

from nanlint.analysis.scopes import END, Scope

# id(call) -> (the scope nodes around it, outermost first; the innermost statement)
Places = Dict[int, Tuple[Tuple[cst.CSTNode, ...], Optional[cst.CSTNode]]]

_SCOPE_NODES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_STATEMENT_NODES = frozenset({
    cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.FunctionDef, cst.ClassDef,
    cst.Match, cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr, cst.Return, cst.Raise,
    cst.Assert, cst.Del, cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal, cst.Pass,
    cst.Break, cst.Continue})
_NOT_CODE = frozenset({"lpar", "rpar", "comma", "semicolon", "leading_lines",
                       "lines_after_decorators", "header", "footer", "newline", "equal", "colon",
                       "dot", "star", "arrow", "asynchronous", "operator", "indent",
                       "trailing_whitespace", "lbracket", "rbracket", "lbrace", "rbrace",
                       "comment"})
_CODE_FIELDS: Dict[type, Tuple[str, ...]] = {}


def collect_calls(module: cst.Module, places: Places, escaped: Set[str]) -> List[cst.Call]:
    """Every call whose callee is a name or a dotted name, in order, with the scopes and the
    statement around it (into ``places``); names passed as arguments go into ``escaped``
    (a function passed as a value has callers the module does not show).

    One iterative walk over the fields that hold code: a libcst visitor costs several
    times more on a large file."""
    calls: List[cst.Call] = []
    stack: List[Tuple[Any, Tuple[cst.CSTNode, ...], Optional[cst.CSTNode]]] = [
        (module, (), None)]
    node_class = cst.CSTNode
    while stack:
        node, scopes, statement = stack.pop()
        kind = node.__class__
        if kind in _STATEMENT_NODES:
            statement = node
        if kind is cst.Call:
            func = node.func
            if func.__class__ is cst.Name or func.__class__ is cst.Attribute:
                calls.append(node)
                places[id(node)] = (scopes, statement)
            for arg in node.args:
                value = arg.value
                if value.__class__ is cst.Name:
                    escaped.add(value.value)
                elif value.__class__ is cst.Attribute:
                    escaped.add(value.attr.value)
        elif kind in _SCOPE_NODES:
            scopes = scopes + (node,)
        children = []
        for name in _code_fields(kind):
            child = getattr(node, name)
            if isinstance(child, node_class):
                children.append((child, scopes, statement))
            elif child.__class__ is tuple or child.__class__ is list:
                children.extend((c, scopes, statement) for c in child
                                if isinstance(c, node_class))
        children.reverse()
        stack.extend(children)
    return calls


def _code_fields(kind: type) -> Tuple[str, ...]:
    fields = _CODE_FIELDS.get(kind)
    if fields is None:
        fields = _CODE_FIELDS[kind] = tuple(
            f.name for f in dataclasses.fields(kind)
            if f.name not in _NOT_CODE and "whitespace" not in f.name)
    return fields


def parent_map(module: cst.Module) -> Dict[int, cst.CSTNode]:
    """id(node) -> the node that contains it, for every node that holds code (the same
    iterative field walk as ``collect_calls``)."""
    parents: Dict[int, cst.CSTNode] = {}
    stack: List[Any] = [module]
    node_class = cst.CSTNode
    while stack:
        node = stack.pop()
        for name in _code_fields(node.__class__):
            child = getattr(node, name)
            if isinstance(child, node_class):
                parents[id(child)] = node
                stack.append(child)
            elif child.__class__ is tuple or child.__class__ is list:
                for item in child:
                    if isinstance(item, node_class):
                        parents[id(item)] = node
                        stack.append(item)
    return parents


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
    return any(isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
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
