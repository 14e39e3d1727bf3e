"""Scopes and bindings: which expression a name stands for at a given statement.

A scope (module, class, function or lambda) is indexed once, on first use, by walking its
statements only — never its expressions, except to find walrus bindings (``(d := x)``) in a
module that has one — so the cost is small and paid only for scopes a rule asks about. Every
statement gets an order number and its path through the branches around it
(``if``/``elif``/``else``, ``try``/``except``, ``match`` arms). A name used at statement N
stands for its latest binding before N (``lookup``), or for every binding that can reach N
(``reaching``): the join of the arms of a branch, and the binding before it where an arm
binds nothing. Loops are read as straight-line code.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple, Union

import libcst as cst

from nanlint.analysis.tree import children

ScopeNode = Union[cst.Module, cst.FunctionDef, cst.ClassDef, cst.Lambda]

# Statement order used for "after everything": closures and module names seen from functions.
END = 1 << 60
# The modules conventional aliases stand for, where a package imports its own module under
# one (`from . import backend as K`).
CONVENTIONAL_ALIASES = {"K": "keras.backend", "tf": "tensorflow", "np": "numpy"}


@dataclass
class Binding:
    # "assign", "augassign", "unpack", "element" (a `for` target: an element of `value`, then
    # unpacked at `position`), "import", "def", "class", "param", "unknown"
    kind: str
    index: int  # order of the binding statement in its scope
    value: Optional[cst.BaseExpression] = None  # the assigned (for "unpack": unpacked) value
    node: Optional[cst.CSTNode] = None  # FunctionDef / ClassDef / AugAssign / Param
    qualified: Optional[str] = None  # for imports: the dotted name bound
    position: Tuple[int, ...] = ()  # for "unpack": where in the value, `(a, b), c = v`: a (0, 0)


# A conventional alias the file never binds, as the import it stands for (``Resolver.resolve``
# answers with these where no scope binds the name).
FREE_ALIASES = {alias: Binding("import", 0, qualified=module)
                for alias, module in CONVENTIONAL_ALIASES.items()}


def is_free(binding: Binding) -> bool:
    """Whether ``binding`` is a conventional alias the file never binds: good for reading
    the file, but not a name a fix may write where the file does not already use it."""
    return any(binding is free for free in FREE_ALIASES.values())


@dataclass
class Branch:
    """An ``if``/``try``/``match`` statement: its arms, numbered in order, and whether one of
    them always runs (``if`` with an ``else``, ``try`` with handlers)."""

    arms: List[bool] = field(default_factory=list)  # per arm: it ends in return/raise/...
    complete: bool = False


# A statement's place among the branches around it: ((branch index, arm), ...), outermost
# first. Loops are not branches: their body is read as straight-line code.
Path = Tuple[Tuple[int, int], ...]


# A list's methods that add an element (`extend`: the elements of a literal it is given).
_ADDING = frozenset({"append", "insert", "extend"})


@dataclass
class Scope:
    node: ScopeNode
    parent: Optional["Scope"]
    cls: Optional[cst.ClassDef] = None  # for methods: the class they belong to
    bindings: Dict[str, List[Binding]] = field(default_factory=dict)
    order: Dict[int, int] = field(default_factory=dict)  # id(statement) -> order number
    returns: List[Binding] = field(default_factory=list)  # kind "return", value = expression
    self_attributes: Dict[str, List[Binding]] = field(default_factory=dict)  # self.x = ...
    item_written: Set[str] = field(default_factory=set)  # `a[i] = ...`, `self.a[i] += ...`
    updated: Set[str] = field(default_factory=set)  # `self.a += ...`, `a.mul_(b)` (in place)
    # name -> what `name.append(v)`, `name.insert(i, v)`, `name.extend([v, w])` put in it
    appended: Dict[str, List[Binding]] = field(default_factory=dict)
    is_generator: bool = False
    paths: Dict[int, Path] = field(default_factory=dict)  # order number -> its branch path
    branches: Dict[int, Branch] = field(default_factory=dict)  # order number of the statement
    _counter: int = 0
    # name -> the statement index of each binding, ascending (a binary search, not a scan:
    # a script that rebinds one name thousands of times must not become quadratic)
    _indices: Dict[str, List[int]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        node = self.node
        return node.name.value if isinstance(node, (cst.FunctionDef, cst.ClassDef)) else ""

    def lookup(self, name: str, index: int) -> Optional[Binding]:
        """The latest binding of ``name`` in this scope before statement ``index``."""
        at = bisect_left(self._indices.get(name, ()), index)
        return self.bindings[name][at - 1] if at else None

    def reaching(self, name: str, index: int) -> List[Binding]:
        """The bindings of ``name`` that can reach statement ``index``: the latest one, and
        where it lies in an arm of a branch that does not contain the use, the latest of
        every other arm (and the binding before the branch where an arm binds nothing or
        no arm need run). Arms that end in ``return``/``raise`` reach nothing after them."""
        before = self.bindings.get(name, [])[:bisect_left(self._indices.get(name, ()), index)]
        found = self._reaching(before, self.paths.get(index, ()))
        unique: List[Binding] = []
        for binding in found:
            if not any(binding is seen for seen in unique):
                unique.append(binding)
        return unique

    def assigned_before(self, attr: str, index: int) -> Optional[Binding]:
        """The latest ``self.attr = ...`` of this scope that runs on every path to statement
        ``index`` (not in a branch the use is outside of), else None."""
        before = [b for b in self.self_attributes.get(attr, ()) if b.index < index]
        if not before:
            return None
        where, path = self.paths.get(before[-1].index, ()), self.paths.get(index, ())
        return before[-1] if path[:len(where)] == where else None

    def _reaching(self, bindings: List[Binding], path: Path) -> List[Binding]:
        if not bindings:
            return []
        last = bindings[-1]
        where = self.paths.get(last.index, ())
        depth = 0
        while depth < len(where) and depth < len(path) and where[depth] == path[depth]:
            depth += 1
        if depth == len(where):
            return [last]  # in the use's own block or one around it: it dominates the use
        branch_index = where[depth][0]
        earlier = [b for b in bindings if b.index < branch_index]
        if depth < len(path) and path[depth][0] == branch_index:
            return self._reaching(earlier, path)  # another arm of the branch the use is in
        branch = self.branches[branch_index]
        prefix = where[:depth]
        found: List[Binding] = []
        for arm, terminates in enumerate(branch.arms):
            if terminates:
                continue
            inside = [b for b in bindings if b.index > branch_index
                      and len(self.paths.get(b.index, ())) > depth
                      and self.paths[b.index][depth] == (branch_index, arm)]
            found.extend(self._reaching(earlier + inside, prefix + ((branch_index, arm),)))
        if not branch.complete:
            found.extend(self._reaching(earlier, prefix))
        return found

    def index_of(self, statement: Optional[cst.CSTNode]) -> int:
        if statement is None:
            return END
        return self.order.get(id(statement), END)


def build_scope(node: ScopeNode, parent: Optional[Scope], cls: Optional[cst.ClassDef] = None,
                walrus: bool = True) -> Scope:
    """The scope of ``node``; ``walrus`` False when the module is known to have no ``:=``."""
    scope = Scope(node=node, parent=parent, cls=cls)
    _Indexer(scope, walrus).index()
    return scope


class _Indexer:
    def __init__(self, scope: Scope, walrus: bool) -> None:
        self.scope = scope
        self.path: Path = ()
        self.walrus = walrus  # the module may have `(name := value)`: look for them

    def index(self) -> None:
        node = self.scope.node
        kind = node.__class__  # exact classes: isinstance goes through the ABC machinery
        if kind is cst.Module:
            self._block(node.body)
        elif kind is cst.Lambda:
            self._params(node.params)
        elif kind is cst.FunctionDef:
            self._params(node.params)
            self._suite(node.body)
        elif kind is cst.ClassDef:
            self._suite(node.body)

    # -- helpers ----------------------------------------------------------------------------
    def _bind(self, name: str, binding: Binding) -> None:
        self.scope.bindings.setdefault(name, []).append(binding)
        self.scope._indices.setdefault(name, []).append(binding.index)

    def _next(self, statement: cst.CSTNode) -> int:
        index = self.scope._counter
        self.scope._counter += 1
        self.scope.order[id(statement)] = index
        if self.path:
            self.scope.paths[index] = self.path
        return index

    def _arms(self, index: int, suites: List[cst.BaseSuite], complete: bool) -> None:
        """Index each suite as one arm of the branch statement at ``index``."""
        branch = Branch(complete=complete)
        self.scope.branches[index] = branch
        outer = self.path
        for arm, suite in enumerate(suites):
            branch.arms.append(_terminates(suite))
            self.path = outer + ((index, arm),)
            self._suite(suite)
        self.path = outer

    def _params(self, params: cst.Parameters) -> None:
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            self._bind(param.name.value, Binding("param", -1, node=param))
        for star in (params.star_arg, params.star_kwarg):
            if star.__class__ is cst.Param:
                self._bind(star.name.value, Binding("unknown", -1, node=star))

    def _suite(self, suite: cst.BaseSuite) -> None:
        if suite.__class__ is cst.IndentedBlock:
            self._block(suite.body)
        else:  # SimpleStatementSuite: `if x: y = 1`
            for small in suite.body:
                self._small(small)

    def _block(self, statements) -> None:
        for statement in statements:
            self._statement(statement)

    def _statement(self, statement: cst.CSTNode) -> None:
        if statement.__class__ is cst.SimpleStatementLine:
            for small in statement.body:
                self._small(small)
            return
        index = self._next(statement)
        if self.walrus:
            self._named(_header(statement), index)
        if isinstance(statement, cst.FunctionDef):
            self._bind(statement.name.value, Binding("def", index, node=statement))
        elif isinstance(statement, cst.ClassDef):
            self._bind(statement.name.value, Binding("class", index, node=statement))
        elif isinstance(statement, cst.If):
            orelse = statement.orelse
            suites: List[cst.BaseSuite] = [statement.body]
            if isinstance(orelse, cst.If):  # `elif`: the else arm holds the next `if`
                suites.append(cst.IndentedBlock(body=[orelse]))
            elif orelse is not None:
                suites.append(orelse.body)
            self._arms(index, suites, orelse is not None)
        elif isinstance(statement, (cst.For, cst.While)):
            if isinstance(statement, cst.For):  # `for g, v in pairs`: elements of `pairs`
                self._target(statement.target, index, None,
                             unpacked=(statement.iter, ()), kind="element")
            self._suite(statement.body)
            if statement.orelse is not None:
                self._suite(statement.orelse.body)
        elif isinstance(statement, cst.With):
            for item in statement.items:
                if item.asname is not None:
                    self._target(item.asname.name, index, item.item)
            self._suite(statement.body)
        elif isinstance(statement, (cst.Try, cst.TryStar)):
            for handler in statement.handlers:
                if handler.name is not None:
                    self._target(handler.name.name, index, None)
            body: cst.BaseSuite = statement.body
            if statement.orelse is not None:  # runs after the body: the same arm
                body = cst.IndentedBlock(body=[*_statements(body),
                                               *_statements(statement.orelse.body)])
            self._arms(index, [body, *(h.body for h in statement.handlers)],
                       bool(statement.handlers))
            if statement.finalbody is not None:
                self._suite(statement.finalbody.body)
        elif isinstance(statement, cst.Match):
            self._arms(index, [case.body for case in statement.cases], False)

    def _named(self, expressions: List[cst.CSTNode], index: int) -> None:
        """Bind the walrus targets in ``expressions`` (a statement, or a compound statement's
        header) as assignments of that statement: seen by the statements after it. A lambda
        is a scope of its own; a comprehension binds in the scope around it (PEP 572)."""
        stack = list(expressions)
        while stack:
            node = stack.pop()
            kind = node.__class__
            if kind is cst.Lambda or kind is cst.FunctionDef or kind is cst.ClassDef:
                continue
            if kind is cst.NamedExpr:
                self._target(node.target, index, node.value)
            stack.extend(children(node))

    def _small(self, small: cst.BaseSmallStatement) -> None:
        index = self._next(small)
        if self.walrus:
            self._named([small], index)
        kind = small.__class__  # exact classes: isinstance goes through the ABC machinery
        if kind is cst.Assign:
            for target in small.targets:
                self._target(target.target, index, small.value)
        elif kind is cst.AnnAssign:
            if small.value is not None:
                self._target(small.target, index, small.value)
        elif kind is cst.AugAssign:
            if isinstance(small.target, cst.Name):
                self._bind(small.target.value,
                           Binding("augassign", index, value=small.value, node=small))
            elif small.target.__class__ is cst.Subscript:
                self._item_written(small.target.value)
            elif _self_attribute(small.target):
                self.scope.updated.add(f"self.{small.target.attr.value}")
        elif kind is cst.Return:
            if small.value is not None:
                self.scope.returns.append(Binding("return", index, value=small.value))
        elif kind is cst.Expr and isinstance(small.value, (cst.Yield, cst.Await)):
            self.scope.is_generator = isinstance(small.value, cst.Yield)
        elif kind is cst.Expr and small.value.__class__ is cst.Call:
            self._call_statement(small.value, index)
        elif kind is cst.Import:
            for alias in small.names:
                dotted = _dotted(alias.name)
                if alias.asname is not None:
                    self._target(alias.asname.name, index, None, qualified=dotted)
                else:
                    head = dotted.split(".", 1)[0]
                    self._bind(head, Binding("import", index, qualified=head))
        elif kind is cst.ImportFrom:
            if isinstance(small.names, cst.ImportStar):
                return
            if small.relative or small.module is None:
                # A package's own module under a conventional alias (`from . import backend
                # as K` in a Keras-like package) is the module the alias stands for; any
                # other name is the package's own, qualified with its leading dots
                # (`.compat.reduce_sum`): another module's function.
                dots = "." * len(small.relative)
                module = f"{_dotted(small.module)}." if small.module is not None else ""
                for alias in small.names:
                    bound = alias.asname.name if alias.asname is not None else alias.name
                    conventional = CONVENTIONAL_ALIASES.get(bound.value) if (
                        alias.asname is not None and isinstance(bound, cst.Name)) else None
                    self._target(bound, index, None, qualified=conventional or (
                        f"{dots}{module}{_dotted(alias.name)}"))
                return
            module = _dotted(small.module)
            for alias in small.names:
                qualified = f"{module}.{_dotted(alias.name)}"
                bound = alias.asname.name if alias.asname is not None else alias.name
                self._target(bound, index, None, qualified=qualified)

    def _call_statement(self, call: cst.Call, index: int) -> None:
        """`self.register_buffer("total", torch.zeros(n))`: PyTorch's way to set
        `self.total`, a state tensor that is not trained. `self.total.add_(x)`,
        `v.mul_(b).addcmul_(g, g)` (PyTorch's in place): it is updated."""
        func = call.func
        if func.__class__ is cst.Attribute and func.attr.value in _ADDING and (
                func.value.__class__ is cst.Name) and call.args:
            added = call.args[-1].value
            values = ([element.value for element in added.elements
                       if element.__class__ is cst.Element]
                      if func.attr.value == "extend" and added.__class__ in (cst.List, cst.Tuple)
                      else [added] if func.attr.value != "extend" else [])
            self.scope.appended.setdefault(func.value.value, []).extend(
                Binding("assign", index, value=value) for value in values)
            return
        if func.__class__ is cst.Attribute and func.attr.value.endswith("_"):
            root = func.value  # `v.mul_(b).add_(x)`: in place, each on what the last gave
            while root.__class__ is cst.Call and root.func.__class__ is cst.Attribute and (
                    root.func.attr.value.endswith("_")):
                root = root.func.value
            if root.__class__ is cst.Name:
                self.scope.updated.add(root.value)
            elif _self_attribute(root):
                self.scope.updated.add(f"self.{root.attr.value}")
            return
        if (func.__class__ is cst.Attribute and func.attr.value == "register_buffer"
                and _self_attribute(func) and len(call.args) > 1
                and call.args[0].value.__class__ is cst.SimpleString):
            name = call.args[0].value.evaluated_value
            if isinstance(name, str):
                self.scope.self_attributes.setdefault(name, []).append(
                    Binding("assign", index, value=call.args[1].value))

    def _item_written(self, array: cst.BaseExpression) -> None:
        """`a[i] = ...`, `self.a[i] += ...`: an item of ``array`` is written (a name, or an
        attribute of ``self`` as ``self.a``)."""
        if array.__class__ is cst.Name:
            self.scope.item_written.add(array.value)
        elif array.__class__ is cst.Attribute and array.value.__class__ is cst.Name and (
                array.value.value == "self"):
            self.scope.item_written.add(f"self.{array.attr.value}")

    def _target(self, target: cst.BaseExpression, index: int,
                value: Optional[cst.BaseExpression], qualified: Optional[str] = None,
                unpacked: Optional[Tuple[cst.BaseExpression, Tuple[int, ...]]] = None,
                kind: str = "unpack") -> None:
        if isinstance(target, cst.Name):
            if qualified is not None:
                binding = Binding("import", index, qualified=qualified)
            elif value is not None:
                binding = Binding("assign", index, value=value)
            elif unpacked is not None:
                binding = Binding(kind, index, value=unpacked[0], position=unpacked[1])
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
                    self._target(element, index, None, unpacked=(source, (*path, position)),
                                 kind=kind)
                else:
                    self._target(element, index, None)
        elif isinstance(target, cst.Attribute):
            if isinstance(target.value, cst.Name) and target.value.value == "self" and (
                    value is not None or unpacked is not None):
                # `self.p, self.v = self.build(x)`: a piece of the call's result, as for names.
                binding = (Binding("assign", index, value=value) if value is not None else
                           Binding("unpack", index, value=unpacked[0], position=unpacked[1]))
                self.scope.self_attributes.setdefault(target.attr.value, []).append(binding)
        elif isinstance(target, cst.StarredElement):
            self._target(target.value, index, None)
        elif isinstance(target, cst.Subscript) and value is not None:
            self._item_written(target.value)
            index_ = target.slice[0].slice if len(target.slice) == 1 else None
            key = (index_.value.evaluated_value if index_.__class__ is cst.Index
                   and index_.value.__class__ is cst.SimpleString else None)
            if target.value.__class__ is cst.Name and isinstance(key, str):
                # `out["count"] = ...`: read back as `out["count"]`
                self._bind(entry_name(target.value, key), Binding("assign", index, value=value))
            elif _self_attribute(target.value) and isinstance(key, str):
                # `self.outputs["p"] = ...` in one method, read back as that in any other
                self.scope.self_attributes.setdefault(
                    attribute_entry(target.value.attr.value, key), []).append(
                        Binding("assign", index, value=value))


def entry_name(base: cst.Name, key: str) -> str:
    """The name a dict entry ``base["key"]`` is bound under."""
    return f"{base.value}[{key!r}]"


def attribute_entry(attr: str, key: str) -> str:
    """The attribute a dict entry ``self.attr["key"]`` is held under (no attribute's own
    name has brackets)."""
    return f"{attr}[{key!r}]"


def _self_attribute(node: cst.BaseExpression) -> bool:
    """``self.attr``."""
    return (node.__class__ is cst.Attribute and node.value.__class__ is cst.Name
            and node.value.value == "self")


def _header(statement: cst.CSTNode) -> List[cst.CSTNode]:
    """The expressions of a compound statement outside its blocks."""
    kind = statement.__class__
    if kind is cst.If or kind is cst.While:
        return [statement.test]
    if kind is cst.For:
        return [statement.iter]
    if kind is cst.With:
        return [item.item for item in statement.items]
    if kind is cst.Match:
        return [statement.subject]
    return []


def _statements(suite: cst.BaseSuite) -> List[cst.CSTNode]:
    if isinstance(suite, cst.IndentedBlock):
        return list(suite.body)
    return [cst.SimpleStatementLine(body=list(suite.body))]


def _terminates(suite: cst.BaseSuite) -> bool:
    """The suite ends in ``return``, ``raise``, ``continue`` or ``break``."""
    statements = _statements(suite)
    last = statements[-1] if statements else None
    if isinstance(last, cst.SimpleStatementLine) and last.body:
        return isinstance(last.body[-1], (cst.Return, cst.Raise, cst.Continue, cst.Break))
    return False


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def dotted_parts(node: cst.BaseExpression) -> Optional[List[str]]:
    """``tf.math.log`` → ``["tf", "math", "log"]``; None if it is not a plain dotted name."""
    parts: List[str] = []
    while node.__class__ is cst.Attribute:  # (exact classes: no ABC isinstance)
        parts.append(node.attr.value)
        node = node.value
    if node.__class__ is not cst.Name:
        return None
    parts.append(node.value)
    parts.reverse()
    return parts
