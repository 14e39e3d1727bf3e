"""The resolver: which expression a name, a call or an attribute stands for, and where.

:class:`Resolver` knows where the traversal is (the :class:`Cursor`), indexes scopes on
first use (``scopes``), resolves a name at a place to its binding, a call to its
:class:`Callee` (a canonical op through the module's imports, a function or lambda of the
file, a Keras layer object), and ``self.x`` to the join of what the methods of the class
assign to it. It also keeps the one call of a module function being evaluated with its
arguments (``active``), under which a parameter names the caller's argument.

Computing a value is the evaluator's job: where resolving needs one (is this call's result
a layer? what is ``self.x``?) the resolver asks the ``evaluate`` function it is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import (Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set,
                    Tuple, TypeVar)

import libcst as cst

from nanlint import optable
from nanlint.analysis.callsites import (Activation, Places, argument_expression, axis_argument,
                                        collect_calls, decorated, is_static, keyword_argument,
                                        op_argument)
from nanlint.analysis.lattice import UNKNOWN, Value, join, written_in_place
from nanlint.analysis.defuse import Unit
from nanlint.analysis.modindex import ModuleIndex
from nanlint.analysis.scopes import END, FREE_ALIASES, Binding, Scope, build_scope, dotted_parts
from nanlint.analysis.tree import names_in
from nanlint.analysis.tree import array_receiver, dotted_code, generated
from nanlint.optable import Op

T = TypeVar("T")
# (expression, path in a tuple or dict value, scope, index) -> what that piece can be
Evaluate = Callable[[cst.BaseExpression, Tuple, Scope, int], Value]


@dataclass
class Callee:
    # "op", "function", "lambda", "layer", "identity" (Flatten()), "rescaling" (Dropout(): the
    # input, some of it scaled), "external"
    kind: str
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
    # per comprehension: its outermost targets, as (iterable, position in an element)
    elements: List[Dict[str, Tuple[cst.BaseExpression, Tuple[int, ...]]]] = field(
        default_factory=list)


class Resolver:
    """Scope lookup and call resolution for one module. ``evaluate`` gives the value of an
    expression (a piece of it, for a path) where resolving depends on one."""

    def __init__(self, module: cst.Module, source: Optional[str], evaluate: Evaluate) -> None:
        self.module = module
        self.evaluate = evaluate
        # Walrus bindings are looked for only in a module that spells one (its text, when the
        # engine has it, is searched once).
        self._walrus = source is None or ":=" in source
        self.cursor = Cursor(scopes=[module])
        self._scopes: Dict[int, Scope] = {}
        self._callees: Dict[int, Optional[Callee]] = {}
        self._attributes: Dict[Tuple[int, str], Value] = {}
        self._in_progress: set = set()
        self._index: Optional[ModuleIndex] = None
        self._calls: Optional[List[cst.Call]] = None
        self._where_cache: Optional[Tuple[Scope, int]] = None
        # One call of a module function evaluated with its arguments (see ``callsites``).
        self.active: Optional[Activation] = None
        self.param_readers: Set[int] = set()  # id(FunctionDef) whose parameters were read
        self.call_places: Places = {}
        self.escaped: Set[str] = set()  # names passed as values: their callers are unknown
        # id(node) -> (the node, its code): by id, as libcst's ``__hash__`` is a Python call;
        # the node is kept so that its id is not another's.
        self._code: Dict[int, Tuple[cst.CSTNode, str]] = {}
        # id(node) -> its parent, for the nodes the rules' walk has met (it fills this).
        self.walked_parents: Dict[int, cst.CSTNode] = {}
        self.module_scope = self.scope_for(module, None)

    def code(self, node: cst.CSTNode) -> str:
        """The node's source, as ``module.code_for_node`` gives it (cached: messages, fixes
        and spellings ask for the same nodes many times, and each costs a code generation)."""
        known = self._code.get(id(node))
        if known is not None:
            return known[1]
        text = dotted_code(node)
        if text is None:
            text = generated(node, self.module)
        self._code[id(node)] = (node, text)
        return text

    # -- the traversal tells the analysis where it is ---------------------------------------
    def enter_scope(self, node: cst.CSTNode) -> None:
        self.cursor.scopes.append(node)
        self._where_cache = None

    def leave_scope(self) -> None:
        self.cursor.scopes.pop()
        self._where_cache = None

    def enter_statement(self, node: cst.CSTNode) -> None:
        self.cursor.statements.append(node)
        self._where_cache = None

    def leave_statement(self) -> None:
        self.cursor.statements.pop()
        self._where_cache = None

    def enter_comprehension(self, names: Optional[FrozenSet[str]],
                            target: Optional[cst.BaseExpression] = None,
                            iterable: Optional[cst.BaseExpression] = None) -> None:
        """The names a comprehension binds; those of its outermost ``target`` are elements
        of ``iterable`` (unless the iterable reads one of them)."""
        self.cursor.shadowed.append(names)
        elements: Dict[str, Tuple[cst.BaseExpression, Tuple[int, ...]]] = {}
        if names and target is not None and iterable is not None and not (
                names & set(names_in(iterable))):
            _element_paths(target, iterable, (), elements)
        self.cursor.elements.append(elements)
        self._where_cache = None

    def leave_comprehension(self) -> None:
        self.cursor.shadowed.pop()
        self.cursor.elements.pop()
        self._where_cache = None

    # -- scopes -----------------------------------------------------------------------------
    def scope_for(self, node: cst.CSTNode, parent: Optional[Scope],
                   cls: Optional[cst.ClassDef] = None) -> Scope:
        scope = self._scopes.get(id(node))
        if scope is None:
            scope = build_scope(node, parent, cls,
                                walrus=self._walrus)
            self._scopes[id(node)] = scope
        return scope

    def where(self) -> Tuple[Scope, int]:
        if self._where_cache is None:
            self._where_cache = self._locate()
        return self._where_cache

    def _locate(self) -> Tuple[Scope, int]:
        return self.place_of(self.cursor.scopes[1:], self.cursor.statements)

    def place_of(self, scopes: Sequence[cst.CSTNode], statements: Sequence[cst.CSTNode]
                  ) -> Tuple[Scope, int]:
        """The scope and statement order of a point inside ``scopes`` (outermost first,
        the module excluded) at the innermost of ``statements`` that scope orders."""
        scope = self.module_scope
        cls = None
        for node in scopes:  # (exact classes: no ABC isinstance)
            if node.__class__ is cst.ClassDef:
                scope = self.scope_for(node, scope)
                cls = node
            else:
                # Methods see the enclosing scope of their class, not the class body.
                parent = scope.parent if scope.node.__class__ is cst.ClassDef else scope
                scope = self.scope_for(node, parent, cls if node.__class__ is cst.FunctionDef
                                        else None)
                cls = None
        statement = None
        for candidate in reversed(statements):
            if id(candidate) in scope.order:
                statement = candidate
                break
        return scope, scope.index_of(statement)

    def in_function(self) -> Optional[cst.FunctionDef]:
        for node in reversed(self.cursor.scopes):
            if isinstance(node, cst.FunctionDef):
                return node
        return None

    def function_of(self, node: cst.CSTNode) -> Optional[cst.FunctionDef]:
        """The function whose body holds ``node`` anywhere in the module (``in_function``
        is the traversal's own), or None at the top level."""
        parent = self.parent(node)
        while parent is not None and not isinstance(parent, cst.FunctionDef):
            parent = self.parent(parent)
        return parent

    # -- names ------------------------------------------------------------------------------
    def resolve(self, name: str, scope: Scope, index: int
                 ) -> Tuple[Optional[Binding], Optional[Scope]]:
        if self.cursor.shadowed and (scope, index) == self.where():
            suspended = False  # None marks an outermost iterable: its comprehension is outside
            for names, elements in zip(reversed(self.cursor.shadowed),
                                       reversed(self.cursor.elements)):
                if names is None:
                    suspended = True
                elif suspended:
                    suspended = False
                elif name in names:
                    element = elements.get(name)
                    if element is not None:
                        # (``node`` marks it: no statement of the scope binds it)
                        return Binding("element", index, value=element[0], node=element[0],
                                       position=element[1]), scope
                    return Binding("unknown", -1), scope
        current: Optional[Scope] = scope
        while current is not None:
            binding = current.lookup(name, index)
            if binding is not None:
                if binding.kind == "assign" and name in FREE_ALIASES and (
                        binding.value.__class__ is cst.Name and binding.value.value == "None"):
                    # `tf = None` held until a function imports it (`global tf`): the lazy
                    # import of a module under its conventional alias.
                    return FREE_ALIASES[name], self.module_scope
                return binding, current
            if name in current.bindings and current is scope:
                # Bound later in this scope only: a use before assignment (loops) — unknown.
                return Binding("unknown", -1), current
            current = current.parent
            while current is not None and current.node.__class__ is cst.ClassDef:
                current = current.parent
            index = END
        conventional = FREE_ALIASES.get(name)
        if conventional is not None:
            # Bound nowhere in the file: brought in by a star import (`from utils import *`),
            # a `global` set by an import inside a function, or a snippet that leaves its
            # imports out; the conventional alias is the module it stands for.
            return conventional, self.module_scope
        return None, None

    def reaching(self, name: str, scope: Scope, index: int) -> List[Tuple[Binding, Scope]]:
        """Every binding of ``name`` that can reach the use: branches join."""
        binding, where = self.resolve(name, scope, index)
        if binding is None or where is None:
            return []
        if binding.index < 0 or binding.node is binding.value is not None:
            return [(binding, where)]  # unknown, or a comprehension's target
        found = where.reaching(name, index if where is scope else END)
        return [(b, where) for b in found] or [(binding, where)]

    # -- one call evaluated with its arguments ----------------------------------------------
    def within(self, scope: Scope) -> Optional[Activation]:
        """The activation being evaluated, if ``scope`` is its function or inside it."""
        activation = self.active
        if activation is None:
            return None
        inside = activation.inside.get(id(scope))
        if inside is None:
            current: Optional[Scope] = scope
            while current is not None and current is not activation.scope:
                current = current.parent
            inside = activation.inside[id(scope)] = current is not None
        return activation if inside else None

    def outside(self, work: Callable[[], T]) -> T:
        """Run ``work`` with no activation: what lies outside the called function does not
        depend on the call."""
        activation, self.active = self.active, None
        try:
            return work()
        finally:
            self.active = activation

    # -- callees ----------------------------------------------------------------------------
    def callee(self, func: cst.BaseExpression, scope: Scope, index: int,
                depth: int = 0) -> Optional[Callee]:
        activation = self.within(scope)
        if self.active is not None and activation is None:
            return self.outside(lambda: self.callee(func, scope, index, depth))
        callees = activation.callees if activation is not None else self._callees
        key = id(func)
        if key in callees:
            return callees[key]
        result = self.compute_callee(func, scope, index, depth)
        callees[key] = result
        return result

    def compute_callee(self, func: cst.BaseExpression, scope: Scope, index: int,
                        depth: int) -> Optional[Callee]:
        if depth > 8:
            return None
        kind = func.__class__  # exact classes: isinstance goes through the ABC machinery
        if kind is cst.Call:
            return self.made_callee(func, scope, index, depth)
        if kind is cst.Lambda:  # passed as an argument: `apply(lambda v: ..., x)`
            return Callee("lambda", node=func, scope=scope)
        method = self._array_method(func, scope, index)
        if method is not None:
            return Callee("op", op=method)
        parts = dotted_parts(func)
        if parts is None:
            return None
        head, rest = parts[0], parts[1:]
        if head == "self" and len(rest) == 1 and scope.cls is not None:
            return self._self_callee(rest[0], scope, depth)
        binding, where = self.resolve(head, scope, index)
        if binding is None or where is None:
            return None
        if binding.kind == "import" and binding.qualified:
            qualified = ".".join([binding.qualified, *rest])
            op = optable.lookup(qualified)
            return Callee("op", op=op, qualified=qualified) if op else Callee(
                "external", qualified=qualified)
        if binding.kind == "def" and not rest:
            return Callee("function", node=binding.node, scope=where)
        if binding.kind == "class" and len(rest) == 1:
            # `Vector.norm(v)`: a method called through its class, `v` its `self`
            class_scope = self._scopes.get(id(binding.node))
            method = class_scope.lookup(rest[0], END) if class_scope is not None else None
            if method is not None and method.kind == "def":
                return Callee("function", node=method.node, scope=class_scope)
        if binding.kind == "param" and not rest:
            # A function passed as an argument (`act=tf.nn.relu`): known for one call.
            activation = self.within(where)
            if activation is None or activation.scope is not where:
                self.param_readers.add(id(where.node))
                return None
            argument = argument_expression(head, activation)
            if argument is None:
                return None
            expr, (at, at_index) = argument
            return self.outside(lambda: self.compute_callee(expr, at, at_index, depth + 1))
        if binding.kind == "assign" and binding.value is not None:
            target = binding.value
            if isinstance(target, (cst.Name, cst.Attribute)):
                # An alias: `tfm = tf.math`, `act = tf.nn.relu`.
                alias = target
                for part in rest:
                    alias = cst.Attribute(value=alias, attr=cst.Name(part))
                return self.compute_callee(alias, where, binding.index, depth + 1)
            if isinstance(target, cst.Lambda) and not rest:
                return Callee("lambda", node=target, scope=where)
            if isinstance(target, cst.Call) and not rest:
                return self.made_callee(target, where, binding.index, depth)
        return None

    def through_instance(self, call: cst.Call, node: cst.CSTNode, scope: Scope,
                         index: int) -> bool:
        """Whether ``call`` calls the method ``node`` of an object (`self.f(x)`, `obj.f(x)`),
        whose ``self`` it does not pass; not a static method, nor one called through its
        class (`Vector.norm(v)` passes ``self``; a class method's ``cls`` never is)."""
        func = call.func
        if func.__class__ is not cst.Attribute or not isinstance(node, cst.FunctionDef) or (
                is_static(node)):
            return False
        if func.value.__class__ is cst.Name and not decorated(node, "classmethod"):
            binding, _ = self.resolve(func.value.value, scope, index)
            return binding is None or binding.kind != "class"
        return True

    def _array_method(self, func: cst.BaseExpression, scope: Scope, index: int
                      ) -> Optional[Op]:
        """The op of `x.max(...)`, a method of a value (not `np.max` of a module, nor a
        method of the class, `self.max(...)`)."""
        if func.__class__ is not cst.Attribute or func.attr.value not in optable.ARRAY_METHODS:
            return None
        parts = dotted_parts(func.value)
        if parts is not None:
            if parts[0] in ("self", "cls") and len(parts) == 1:
                return None
            if self._module(parts[0], scope, index, 0):
                return None  # a module's function (`np.max`), or a name nothing binds
        name = func.attr.value
        call = self.parent(func)
        if call.__class__ is cst.Call and call.func is func and array_receiver(
                call, optable.METHOD_ARITY.get(name, 0)) is None:
            return None  # `lib.log(x)`: a function of a module the resolver cannot see
        return optable.TABLE.methods[name]

    def _module(self, name: str, scope: Scope, index: int, depth: int) -> bool:
        """Whether ``name`` is a module (an import, or an alias of one: `tf = tf.compat.v1`),
        or bound by nothing the resolver sees."""
        binding, where = self.resolve(name, scope, index)
        if binding is None or binding.kind == "import":
            return True
        if binding.kind == "assign" and depth < 3 and where is not None and (
                binding.value.__class__ in (cst.Name, cst.Attribute)):
            parts = dotted_parts(binding.value)
            return parts is not None and self._module(parts[0], where, binding.index, depth + 1)
        return False

    def made_callee(self, call: cst.Call, scope: Scope, index: int, depth: int
                     ) -> Optional[Callee]:
        """What calling the result of ``call`` calls: a Keras layer object, the function
        that a ``keras.layers.Lambda(f)`` applies, or (``Flatten()``) the identity."""
        callee = self.callee(call.func, scope, index)
        if callee is not None and callee.op is not None and callee.op.transfer == "apply":
            if not callee.op.args:  # `Dropout(rate)(x)` also scales what it keeps
                return Callee("identity" if callee.op.integral is not False else "rescaling")
            function = self.argument(call, callee.op, 0)
            if function is None:
                return None
            return self.compute_callee(function, scope, index, depth + 1)
        value = self.evaluate(call, (), scope, index)
        return Callee("layer", value=value) if value.layer else None

    def _self_callee(self, attr: str, scope: Scope, depth: int) -> Optional[Callee]:
        cls = scope.cls
        class_scope = self._scopes.get(id(cls))
        if class_scope is None:
            return None
        method = class_scope.lookup(attr, END)
        if method is not None and method.kind == "def":
            return Callee("function", node=method.node, scope=class_scope)
        stored = self._stored_function(attr, class_scope, depth)
        if stored is not None:
            return stored
        value = self.self_attribute(attr, class_scope)
        return Callee("layer", value=value) if value.layer else None

    def _stored_function(self, attr: str, class_scope: Scope, depth: int) -> Optional[Callee]:
        """``self.act = tf.nn.relu`` (or a lambda) in some method: the op or function that
        ``self.act(x)`` calls, when every such assignment agrees. ``depth`` counts the
        attributes followed so far: `self.a = self.b` and `self.b = self.a` (or
        `self.a = self.a`) lead back to themselves."""
        found: List[Callee] = []
        for method_scope in self._methods(class_scope):
            for assigned in method_scope.self_attributes.get(attr, ()):
                if assigned.position or not isinstance(
                        assigned.value, (cst.Name, cst.Attribute, cst.Lambda)):
                    return None
                callee = self.outside(lambda: self.compute_callee(
                    assigned.value, method_scope, assigned.index, depth + 1))
                if callee is None or callee.kind not in ("op", "function", "lambda"):
                    return None
                found.append(callee)
        if found and all(c.op is found[0].op and c.node is found[0].node for c in found):
            return found[0]
        return None

    def self_attribute(self, attr: str, class_scope: Scope) -> Value:
        """``self.attr``: the join of what the methods of the class, and of the classes
        related to it (``_related_classes``), assign to it."""
        if self.active is not None:
            return self.outside(lambda: self.self_attribute(attr, class_scope))
        key = (id(class_scope.node), attr)
        cached = self._attributes.get(key)
        if cached is not None:
            return cached
        if key in self._in_progress:
            return UNKNOWN  # `self.a = self.a * 2`
        self._in_progress.add(key)
        try:
            values, written, updated = [], False, False
            for related in self._related_classes(class_scope):
                for method_scope in self._methods(related):
                    for assigned in method_scope.self_attributes.get(attr, ()):
                        values.append(self.evaluate(assigned.value, assigned.position,
                                                    method_scope, assigned.index))
                    written = written or f"self.{attr}" in method_scope.item_written
                    updated = updated or f"self.{attr}" in method_scope.updated
        finally:
            self._in_progress.discard(key)
        result = join(values) if values else UNKNOWN
        if written or updated:  # `self.a = np.zeros(n)`, then `self.a[i] = ...`, `self.a += x`
            result = written_in_place(result, whole=not written)
        self._attributes[key] = result
        return result

    def self_assignments(self, attr: str, class_scope: Scope
                         ) -> List[Tuple[Optional[cst.BaseExpression], Place]]:
        """What the methods of the class (and of the classes related to it) assign to
        ``self.attr``, each with the place to resolve its names; none where one of them
        writes into it or updates it in place (what it holds is then not one expression)."""
        found: List[Tuple[Optional[cst.BaseExpression], Place]] = []
        name = f"self.{attr}"
        for related in self._related_classes(class_scope):
            for method_scope in self._methods(related):
                if name in method_scope.item_written or name in method_scope.updated:
                    return []
                found.extend((assigned.value, Place(method_scope, assigned.index))
                             for assigned in method_scope.self_attributes.get(attr, ()))
        return found

    def _methods(self, class_scope: Scope) -> Iterator[Scope]:
        """The scopes of the methods defined in a class's body."""
        for bindings in class_scope.bindings.values():
            for binding in bindings:
                if binding.kind == "def":
                    yield self.scope_for(binding.node, class_scope.parent, class_scope.node)

    def _related_classes(self, class_scope: Scope) -> List[Scope]:
        """The classes, defined beside this one, whose methods can set an attribute of an
        object that runs this class's methods: the class, its subclasses, and the bases of
        each (named plainly, as `class Child(Base)`)."""
        parent = class_scope.parent
        if parent is None:
            return [class_scope]
        # A name may be bound to several classes (a script that defines `class Model`
        # twice): a base is the class its name is bound to where the subclass is defined.
        named: Dict[str, List[Tuple[int, cst.ClassDef]]] = {}
        order: Dict[int, int] = {}
        for name, bindings in parent.bindings.items():
            for binding in bindings:
                if binding.kind == "class" and id(binding.node) not in order:
                    named.setdefault(name, []).append((binding.index, binding.node))
                    order[id(binding.node)] = binding.index
        classes = {id(node): node for pairs in named.values() for _, node in pairs}
        classes.setdefault(id(class_scope.node), class_scope.node)
        if len(classes) < 2:
            return [class_scope]

        def base_of(name: str, index: int) -> List[cst.ClassDef]:
            before = [node for at, node in named.get(name, ()) if at < index]
            return before[-1:] if before else [node for _, node in named.get(name, ())]

        bases = {key: [base for b in node.bases if b.value.__class__ is cst.Name
                       for base in base_of(b.value.value, order.get(key, 0))]
                 for key, node in classes.items()}
        below = {id(class_scope.node): class_scope.node}  # the class and its subclasses
        grown = True
        while grown:
            grown = False
            for node in classes.values():
                if id(node) not in below and any(id(b) in below for b in bases[id(node)]):
                    below[id(node)] = node
                    grown = True
        related = dict(below)
        stack = list(below.values())
        while stack:  # and the bases of each
            for base in bases[id(stack.pop())]:
                if id(base) not in related:
                    related[id(base)] = base
                    stack.append(base)
        return [class_scope] + [self.scope_for(node, parent) for key, node in related.items()
                                if key != id(class_scope.node)]

    # -- calls and arguments ----------------------------------------------------------------
    argument = staticmethod(op_argument)
    keyword = staticmethod(keyword_argument)
    axis = staticmethod(axis_argument)

    def named_calls(self) -> List[cst.Call]:
        """Every call of the module whose callee is a name or a dotted name, in order."""
        if self._calls is None:
            self._calls = collect_calls(self.module, self.call_places, self.escaped)
        return self._calls

    def module_index(self) -> ModuleIndex:
        """The module's one walk (functions, call sites, names, parents), made on first use."""
        if self._index is None:
            self._index = ModuleIndex(self.module)
        return self._index

    def module_indexed(self) -> bool:
        """Whether the module's index is made (asking for a parent makes it)."""
        return self._index is not None

    def parent(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The node that contains ``node``: noted by the rules' walk where it has been (most
        files never need the module's index), else from the module's index."""
        index = self._index
        if index is None:
            known = self.walked_parents.get(id(node))
            if known is not None or node is self.module:
                return known
            index = self.module_index()
        return index.parents.get(id(node))

    def scope_of(self, node: cst.CSTNode) -> Optional[Scope]:
        """The scope of a class or function already indexed, else None."""
        return self._scopes.get(id(node))

    def function_scope(self, node: cst.FunctionDef, defined_in: Optional[Scope]) -> Scope:
        """The scope of the function ``node`` defined in ``defined_in`` (a method's class
        body is not a parent scope of its body)."""
        parent, cls = defined_in, None
        if parent is not None and isinstance(parent.node, cst.ClassDef):
            parent, cls = parent.parent, parent.node
        return self.scope_for(node, parent, cls)

    def dict_entry(self, expr: cst.Subscript, scope: Scope, index: int
                   ) -> Optional[Tuple[cst.BaseExpression, Scope, int]]:
        """The entry ``config["key"]`` reads from a dict literal (or ``dict(key=...)``) bound
        to a name, with the place to resolve it at."""
        if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
            return None
        key = expr.slice[0].slice.value
        if not (isinstance(key, cst.SimpleString) and isinstance(expr.value, cst.Name)):
            return None
        binding, where = self.resolve(expr.value.value, scope, index)
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
        return (entry, where, binding.index) if entry is not None else None

    # -- questions at a place (rules, data and precision follow values backwards) ---------
    def here(self) -> Place:
        """The place of the traversal's current statement."""
        scope, index = self.where()
        return Place(scope, index)

    def binding(self, name: str, place: Place) -> Optional[Tuple[Binding, Place]]:
        """What ``name`` is bound to at ``place``, and the place of that binding, where the
        names of its value are to be resolved."""
        binding, where = self.resolve(name, place.scope, place.index)
        if binding is None or where is None:
            return None
        return binding, Place(where, binding.index)

    def op_at(self, call: cst.Call, place: Place) -> Optional[Op]:
        """The canonical op ``call`` invokes, resolved at ``place``."""
        callee = self.callee(call.func, place.scope, place.index)
        return callee.op if callee is not None and callee.kind == "op" else None

    def qualified_at(self, expr: cst.BaseExpression, place: Place) -> Optional[str]:
        """The qualified name ``expr`` stands for at ``place`` (through the imports)."""
        callee = self.callee(expr, place.scope, place.index)
        return callee.qualified if callee is not None else None

    def call_place(self, call: cst.Call) -> Place:
        """The place where ``call`` is made: its callee resolves there (a function's own
        imports included); the module's end for a call whose callee is not a name."""
        self.named_calls()
        scopes, statement = self.call_places.get(id(call), ((), None))
        scope, index = self.place_of(scopes, [statement] if statement else [])
        return Place(scope, index)

    # -- for the gradient flow, which works per unit (a function, or the module) ------------
    def unit_callee(self, func: cst.BaseExpression, unit: Unit
                    ) -> Tuple[Optional[str], Optional[cst.FunctionDef]]:
        """The qualified name of a callee in ``unit``, or the module's function it is."""
        scope = self._unit_scope(unit)
        callee = self.compute_callee(func, scope, END, 0) if scope is not None else None
        if callee is None:
            return None, None
        local = callee.node if callee.kind == "function" and isinstance(
            callee.node, cst.FunctionDef) else None
        return callee.qualified, local

    def _unit_scope(self, unit: Unit) -> Optional[Scope]:
        if isinstance(unit, cst.Module):
            return self.module_scope
        info = self.module_index().functions.get(id(unit))
        outer_unit, cls = (info.unit, info.cls) if info is not None else (None, None)
        outer = self._unit_scope(outer_unit) if outer_unit is not None else None
        if outer is None:
            return None
        if cls is not None:
            self.scope_for(cls, outer)
        return self.scope_for(unit, outer, cls)


def _element_paths(target: cst.BaseExpression, iterable: cst.BaseExpression,
                   path: Tuple[int, ...],
                   found: Dict[str, Tuple[cst.BaseExpression, Tuple[int, ...]]]) -> None:
    if isinstance(target, cst.Name):
        found[target.value] = (iterable, path)
    elif isinstance(target, (cst.Tuple, cst.List)):
        for position, element in enumerate(target.elements):
            if not isinstance(element.value, cst.StarredElement):
                _element_paths(element.value, iterable, (*path, position), found)
