"""Scopes and bindings: which expression a name stands for at a given statement.

A scope (module, class, function or lambda) is indexed once, on first use, by walking its
statements only — never its expressions — so the cost is small and paid only for scopes a
rule asks about. Every statement gets an order number; a name used at statement N stands for
its latest binding before N. That is exact for straight-line code and a reasonable reading of
branches and loops, which is all a linter that needs positive evidence can ask for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple, Union

import libcst as cst

ScopeNode = Union[cst.Module, cst.FunctionDef, cst.ClassDef, cst.Lambda]

# Statement order used for "after everything": closures and module names seen from functions.
END = 1 << 60


@dataclass
class Binding:
    kind: str  # "assign", "augassign", "unpack", "import", "def", "class", "param", "unknown"
    index: int  # order of the binding statement in its scope
    value: Optional[cst.BaseExpression] = None  # the assigned (for "unpack": unpacked) value
    node: Optional[cst.CSTNode] = None  # FunctionDef / ClassDef / AugAssign / Param
    qualified: Optional[str] = None  # for imports: the dotted name bound
    position: Tuple[int, ...] = ()  # for "unpack": where in the value, `(a, b), c = v`: a (0, 0)


@dataclass
class Scope:
    node: ScopeNode
    parent: Optional["Scope"]
    cls: Optional[cst.ClassDef] = None  # for methods: the class they belong to
    bindings: Dict[str, List[Binding]] = field(default_factory=dict)
    order: Dict[int, int] = field(default_factory=dict)  # id(statement) -> order number
    returns: List[Binding] = field(default_factory=list)  # kind "return", value = expression
    self_attributes: Dict[str, List[Binding]] = field(default_factory=dict)  # self.x = ...
    is_generator: bool = False
    _counter: int = 0

    @property
    def name(self) -> str:
        node = self.node
        return node.name.value if isinstance(node, (cst.FunctionDef, cst.ClassDef)) else ""

    def lookup(self, name: str, index: int) -> Optional[Binding]:
        """The latest binding of ``name`` in this scope before statement ``index``."""
        found = None
        for binding in self.bindings.get(name, ()):
            if binding.index < index:
                found = binding
            else:
                break
        return found

    def index_of(self, statement: Optional[cst.CSTNode]) -> int:
        if statement is None:
            return END
        return self.order.get(id(statement), END)


def build_scope(node: ScopeNode, parent: Optional[Scope], cls: Optional[cst.ClassDef] = None
                ) -> Scope:
    scope = Scope(node=node, parent=parent, cls=cls)
    _Indexer(scope).index()
    return scope


class _Indexer:
    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def index(self) -> None:
        node = self.scope.node
        if isinstance(node, cst.Module):
            self._block(node.body)
        elif isinstance(node, cst.Lambda):
            self._params(node.params)
        elif isinstance(node, cst.FunctionDef):
            self._params(node.params)
            self._suite(node.body)
        elif isinstance(node, cst.ClassDef):
            self._suite(node.body)

    # -- helpers ----------------------------------------------------------------------------
    def _bind(self, name: str, binding: Binding) -> None:
        self.scope.bindings.setdefault(name, []).append(binding)

    def _next(self, statement: cst.CSTNode) -> int:
        index = self.scope._counter
        self.scope._counter += 1
        self.scope.order[id(statement)] = index
        return index

    def _params(self, params: cst.Parameters) -> None:
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            self._bind(param.name.value, Binding("param", -1, node=param))
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                self._bind(star.name.value, Binding("unknown", -1, node=star))

    def _suite(self, suite: cst.BaseSuite) -> None:
        if isinstance(suite, cst.IndentedBlock):
            self._block(suite.body)
        else:  # SimpleStatementSuite: `if x: y = 1`
            for small in suite.body:
                self._small(small)

    def _block(self, statements) -> None:
        for statement in statements:
            self._statement(statement)

    def _statement(self, statement: cst.CSTNode) -> None:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                self._small(small)
            return
        index = self._next(statement)
        if isinstance(statement, cst.FunctionDef):
            self._bind(statement.name.value, Binding("def", index, node=statement))
        elif isinstance(statement, cst.ClassDef):
            self._bind(statement.name.value, Binding("class", index, node=statement))
        elif isinstance(statement, cst.If):
            self._suite(statement.body)
            orelse = statement.orelse
            if isinstance(orelse, cst.If):
                self._statement(orelse)
            elif orelse is not None:
                self._suite(orelse.body)
        elif isinstance(statement, (cst.For, cst.While)):
            if isinstance(statement, cst.For):
                self._target(statement.target, index, None)
            self._suite(statement.body)
            if statement.orelse is not None:
                self._suite(statement.orelse.body)
        elif isinstance(statement, cst.With):
            for item in statement.items:
                if item.asname is not None:
                    self._target(item.asname.name, index, item.item)
            self._suite(statement.body)
        elif isinstance(statement, (cst.Try, cst.TryStar)):
            self._suite(statement.body)
            for handler in statement.handlers:
                if handler.name is not None:
                    self._target(handler.name.name, index, None)
                self._suite(handler.body)
            for extra in (statement.orelse, statement.finalbody):
                if extra is not None:
                    self._suite(extra.body)
        elif isinstance(statement, cst.Match):
            for case in statement.cases:
                self._suite(case.body)

    def _small(self, small: cst.BaseSmallStatement) -> None:
        index = self._next(small)
        if isinstance(small, cst.Assign):
            for target in small.targets:
                self._target(target.target, index, small.value)
        elif isinstance(small, cst.AnnAssign):
            if small.value is not None:
                self._target(small.target, index, small.value)
        elif isinstance(small, cst.AugAssign):
            if isinstance(small.target, cst.Name):
                self._bind(small.target.value,
                           Binding("augassign", index, value=small.value, node=small))
        elif isinstance(small, cst.Return):
            if small.value is not None:
                self.scope.returns.append(Binding("return", index, value=small.value))
        elif isinstance(small, cst.Expr) and isinstance(small.value, (cst.Yield, cst.Await)):
            self.scope.is_generator = isinstance(small.value, cst.Yield)
        elif isinstance(small, cst.Import):
            for alias in small.names:
                dotted = _dotted(alias.name)
                if alias.asname is not None:
                    self._target(alias.asname.name, index, None, qualified=dotted)
                else:
                    head = dotted.split(".", 1)[0]
                    self._bind(head, Binding("import", index, qualified=head))
        elif isinstance(small, cst.ImportFrom):
            if small.relative or small.module is None or isinstance(small.names, cst.ImportStar):
                return
            module = _dotted(small.module)
            for alias in small.names:
                qualified = f"{module}.{_dotted(alias.name)}"
                bound = alias.asname.name if alias.asname is not None else alias.name
                self._target(bound, index, None, qualified=qualified)

    def _target(self, target: cst.BaseExpression, index: int,
                value: Optional[cst.BaseExpression], qualified: Optional[str] = None,
                unpacked: Optional[Tuple[cst.BaseExpression, Tuple[int, ...]]] = None) -> None:
        if isinstance(target, cst.Name):
            if qualified is not None:
                binding = Binding("import", index, qualified=qualified)
            elif value is not None:
                binding = Binding("assign", index, value=value)
            elif unpacked is not None:
                binding = Binding("unpack", index, value=unpacked[0], position=unpacked[1])
            else:
                binding = Binding("unknown", index)
            self._bind(target.value, binding)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = [element.value for element in target.elements]
            values = None
            if (isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(elements)
                    and not any(isinstance(e, cst.StarredElement) for e in value.elements)):
                values = [element.value for element in value.elements]
            for position, element in enumerate(elements):
                if values:
                    self._target(element, index, values[position])
                elif value is not None or unpacked is not None:
                    # `(x, y), _ = load_data()`: x is element (0, 0) of the call's result.
                    source, path = unpacked if unpacked is not None else (value, ())
                    self._target(element, index, None, unpacked=(source, (*path, position)))
                else:
                    self._target(element, index, None)
        elif isinstance(target, cst.Attribute):
            if (isinstance(target.value, cst.Name) and target.value.value == "self"
                    and value is not None):
                self.scope.self_attributes.setdefault(target.attr.value, []).append(
                    Binding("assign", index, value=value))
        elif isinstance(target, cst.StarredElement):
            self._target(target.value, index, None)


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def dotted_parts(node: cst.BaseExpression) -> Optional[List[str]]:
    """``tf.math.log`` → ``["tf", "math", "log"]``; None if it is not a plain dotted name."""
    parts: List[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    parts.reverse()
    return parts
