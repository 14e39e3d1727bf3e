"""Gradient reach: where a value goes, and whether a gradient flows back through it.

A gradient hazard (a root, a norm, a ``where``, a clip whose gradient is NaN or 0) matters
only if the value can reach a *differentiated objective*: what an optimizer minimizes, what
``tape.gradient`` / ``tf.gradients`` / ``compute_gradients`` differentiate, ``add_loss``, what
a loss function, ``train_step`` or ``compute_loss`` returns. For an expression, :class:`Flow`
answers with a :class:`~nanlint.analysis.sinks.Reach`: OBJECTIVE (some path gets there),
UNKNOWN (a path leaves what the module shows: a caller outside the file, an attribute of
an object other than ``self``, a call into another module — rules act as before), or NONE
(every path ends in a metric, a summary, a log, a fetch, an assertion, a comparison, or is
cut; or the code is under ``@tf.custom_gradient``, in a test or in a metric).

How: each function body is walked once (:mod:`nanlint.analysis.defuse`) to link definitions
to uses. A node's *path* climbs its parents to where its value ends: a sink (a reach), or
definitions it feeds (an assignment, a parameter of the module's own function, the
function's return). Each definition and each function's return is a variable whose reach is
the join of its uses' paths; a question solves only the variables it depends on, to a
fixpoint, once. Paths are cached per node: no tree is walked per question.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, FrozenSet, List, Optional, Tuple

import libcst as cst

from nanlint.analysis import sinks
from nanlint.analysis.defuse import Body, Unit, dotted
from nanlint.analysis.modindex import ModuleIndex
from nanlint.analysis.tree import last_name
from nanlint.analysis.sinks import (CUSTOM, IN_EVALUATION, IN_METRIC, IN_TEST, NOWHERE,
                                    REACH_UNKNOWN, REACHES_OBJECTIVE, Reach, join, none)

# (callee expression, unit) -> (qualified name or None, the module's function it calls)
Resolver = Callable[[cst.BaseExpression, Unit], Tuple[Optional[str], Optional[cst.FunctionDef]]]
Path = Tuple[Reach, FrozenSet[int]]  # where a node's value ends, and the variables it feeds
Edge = Tuple[bool, Reach, FrozenSet[int]]  # (value ends here, reach added, variables fed)
_EMPTY: FrozenSet[int] = frozenset()
_PASSES: Edge = (False, NOWHERE, _EMPTY)
_CARRIERS = frozenset({cst.Arg, cst.Element, cst.StarredElement, cst.Tuple, cst.List, cst.Set,
                       cst.Dict, cst.StarredDictElement, cst.BooleanOperation, cst.Await,
                       cst.Lambda, cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp})
_GRADIENT_METHODS = ("gradient", "jacobian", "batch_jacobian")


class Flow:
    """Gradient reach of one module. ``resolve`` names callees, ``index`` gives the module's
    index (made on first use); the patterns are the configuration's (loss-function names,
    functions where no gradient is taken); ``gradient_free`` says why what a function returns
    lets no gradient back (computed through `argmax`), or "" where it may."""

    def __init__(self, resolve: Resolver, index: Callable[[], ModuleIndex],
                 loss_pattern: "re.Pattern", no_gradient_pattern: "re.Pattern",
                 gradient_free: Callable[[cst.FunctionDef], str]) -> None:
        self._resolve = resolve
        self.module_index = index
        self._gradient_free = gradient_free
        self._loss = loss_pattern
        self._no_gradient = no_gradient_pattern
        self._bodies: Dict[int, Body] = {}
        self._owner: Dict[int, Body] = {}  # definition -> the body it is defined in
        self._functions: Dict[int, cst.FunctionDef] = {}  # return variable -> function
        self._equations: Dict[int, Tuple[Reach, List[Path]]] = {}
        self._solved: Dict[int, Reach] = {}
        self._contexts: Dict[int, Optional[Reach]] = {}
        self._callees: Dict[int, Tuple[str, Optional[cst.FunctionDef]]] = {}
        # `self.x` of a class: a variable (a negative number, apart from node ids)
        self._attributes: Dict[Tuple[int, str], int] = {}
        self._attribute_keys: Dict[int, Tuple[int, str]] = {}
        # An element of a tuple a function returns: a variable of its own (by position)
        self._elements: Dict[Tuple[int, int], int] = {}
        self._element_keys: Dict[int, Tuple[cst.FunctionDef, int]] = {}

    def close(self) -> None:
        """Let go of ``gradient_free`` (the analysis's: a reference cycle with it)."""
        self._gradient_free = _closed

    # -- questions ---------------------------------------------------------------------------
    def reach(self, node: cst.CSTNode, unit: Unit) -> Reach:
        """Where the value of ``node``, an expression of ``unit``, can go."""
        context = self._context(unit)
        if context is not None:
            return context
        body = self._body(unit)
        if id(node) not in body.parents:
            return REACH_UNKNOWN
        reach, feeds = self._path(body, node)
        for variable in feeds:
            reach = join(reach, self._value(variable))
        return reach

    def asserted(self, name: cst.Name, unit: Unit) -> Optional[str]:
        """"positive", "nonnegative" or "nonzero" if an assertion about ``name`` precedes
        this read of it with no assignment in between; else None."""
        return self._body(unit).asserted.get(id(name))

    def has_assertions(self) -> bool:
        """Whether the module calls an assertion that guards a value anywhere."""
        return self.module_index().assertions

    def enclosing(self, function: cst.FunctionDef
                  ) -> Tuple[Optional[Unit], Optional[cst.ClassDef]]:
        """The unit ``function`` is defined in, and its class if it is a method."""
        info = self.module_index().functions.get(id(function))
        return (info.unit, info.cls) if info is not None else (None, None)

    # -- bodies and variables ----------------------------------------------------------------
    def body(self, unit: Unit) -> Body:
        return self._body(unit)

    def _body(self, unit: Unit) -> Body:
        body = self._bodies.get(id(unit))
        if body is None:
            body = self._bodies[id(unit)] = Body(unit)
            for definition in body.names:
                self._owner[definition] = body
        return body

    def _value(self, variable: int) -> Reach:
        """The reach of a definition or a function's return: solves the variables it depends
        on (and only those), to a fixpoint."""
        solved = self._solved.get(variable)
        if solved is not None:
            return solved
        pending, stack = [], [variable]
        seen = {variable}
        while stack:
            current = stack.pop()
            pending.append(current)
            for _, feeds in self._equation(current)[1]:
                for fed in feeds:
                    if fed not in seen and fed not in self._solved:
                        seen.add(fed)
                        stack.append(fed)
        state = {v: self._equation(v)[0] for v in pending}
        changed = True
        while changed:
            changed = False
            for current in pending:
                reach = state[current]
                for base, feeds in self._equation(current)[1]:
                    reach = join(reach, base)
                    for fed in feeds:
                        reach = join(reach, state.get(fed) or self._solved.get(
                            fed, REACH_UNKNOWN))
                if reach != state[current]:
                    state[current], changed = reach, True
        self._solved.update(state)
        return state[variable]

    def _equation(self, variable: int) -> Tuple[Reach, List[Path]]:
        """(initial reach, paths whose join it is) of a variable."""
        found = self._equations.get(variable)
        if found is not None:
            return found
        body = self._owner.get(variable)
        if body is not None:
            uses = body.uses[variable]
            params = body.params.values()
            context = self._context(body.node) if variable in params else None
            if context is not None:
                found = (context, [])
            elif variable in body.escaping or (not uses and variable not in params and (
                    body.node.__class__ is not cst.FunctionDef or body.reads_namespace)):
                # (a module's names are read where other modules import them; a function's
                # that nothing reads are dead: `_, indices = tf.nn.top_k(cost, k)`)
                found = (REACH_UNKNOWN, [])
            else:
                found = (NOWHERE, [self._path(body, use) for use in uses])
        elif variable in self._functions:
            found = self._return(self._functions[variable])
        elif variable in self._attribute_keys:
            found = self._attribute_uses(self._attribute_keys[variable])
        elif variable in self._element_keys:
            found = self._element_uses(*self._element_keys[variable])
        else:
            found = (REACH_UNKNOWN, [])
        self._equations[variable] = found
        return found

    def _return(self, function: cst.FunctionDef) -> Tuple[Reach, List[Path]]:
        """Where the module sends what ``function`` returns: an objective for a loss; a
        metric for a function passed only in ``metrics=``; else its call sites."""
        index = self.module_index()
        info = index.functions.get(id(function))
        if info is None:
            return REACH_UNKNOWN, []
        name = function.name.value
        params = {p.name.value for p in (*function.params.params,
                                         *function.params.posonly_params)}
        cls = info.cls
        loss_class = cls is not None and name == "call" and any(
            dotted(base.value).endswith("Loss") for base in cls.bases)
        if name in index.losses or name in sinks.OBJECTIVE_FUNCTIONS or loss_class:
            return REACHES_OBJECTIVE, []
        if params & sinks.METRIC_PARAMETERS:  # TF1's metric signature: evaluation only
            return IN_METRIC, []
        references = index.references.get(name, 0)
        calls = index.method_calls.get(name, []) if cls is not None else index.calls.get(name, [])
        metric_uses = index.metrics.get(name, 0) if cls is None else 0
        start = NOWHERE
        if metric_uses and references == metric_uses + len(calls):
            start = IN_METRIC
        elif self._loss.search(name.lower()):
            return REACHES_OBJECTIVE, []
        elif params & {"y_true", "labels"} and not _private(name):
            # a loss or a metric by its parameters (a private helper's callers say): a
            # metric where nothing it returns could carry a gradient back
            cut = self._gradient_free(function)
            if cut:
                return none(f"in a metric: what `{name}` returns is {cut}"), []
            if sinks.METRIC_NAME.search(name.lower()):  # a metric, unless a loss calls it
                return IN_METRIC, self._caller_paths(calls)
            return REACHES_OBJECTIVE, []
        elif not calls and not references and cls is None and info.unit.__class__ is cst.Module:
            return sinks.called_elsewhere(name), []  # imported by the files that call it
        elif not calls or (cls is not None and (name in sinks.FRAMEWORK_METHODS
                                                or name.startswith("__"))):
            return REACH_UNKNOWN, []
        elif cls is None and references > len(calls):
            return REACH_UNKNOWN, []  # passed around as a value: called from anywhere
        return start, self._caller_paths(calls)

    def _returned_element(self, body: Body, element: cst.Element, returned: cst.Tuple
                          ) -> Optional[int]:
        """The variable of an element of the tuple a function returns (`return loss,
        accuracy`): its callers may unpack the tuple and send each part its own way."""
        if body.node.__class__ is not cst.FunctionDef or (
                body.parents.get(id(returned)).__class__ is not cst.Return):
            return None
        position = next(i for i, e in enumerate(returned.elements) if e is element)
        if any(e.__class__ is cst.StarredElement for e in returned.elements[:position]):
            return None
        self._functions[id(body.node)] = body.node
        key = (id(body.node), position)
        variable = self._elements.get(key)
        if variable is None:
            variable = self._elements[key] = -(1 << 40) - len(self._elements)
            self._element_keys[variable] = (body.node, position)
        return variable

    def _element_uses(self, function: cst.FunctionDef, position: int
                      ) -> Tuple[Reach, List[Path]]:
        """Where the element at ``position`` of what ``function`` returns goes: where each
        call site of the file that unpacks the tuple sends that part (`loss, accuracy =
        model_loss(y, p)`: the accuracy to a summary), the whole tuple's way at the others.
        A part unpacked to a name like a loss's is an objective by that name, as the whole
        return of a function named like a loss is. With no call site in the file, or one
        that passes the function around, the whole return's way."""
        index = self.module_index()
        info = index.functions.get(id(function))
        name = function.name.value
        calls = [] if info is None else (index.method_calls.get(name, [])
                                         if info.cls is not None else index.calls.get(name, []))
        if not calls or (info.cls is None and index.references.get(name, 0) > len(calls)):
            return self._return(function)
        return NOWHERE, self._caller_paths(calls, position)

    def _caller_paths(self, calls: List[Tuple[cst.Call, Unit]],
                      position: Optional[int] = None) -> List[Path]:
        """Where each call of a function sends what it returns; with ``position``, the
        element there of a returned tuple, where a call's statement unpacks it."""
        paths: List[Path] = []
        for call, unit in calls:
            context = self._context(unit)
            if context is not None:
                paths.append((context, _EMPTY))
                continue
            body = self._body(unit)
            target = (_unpacked(body.parents.get(id(call)), call, position)
                      if position is not None else None)
            if target is None:
                paths.append(self._path(body, call) if id(call) in body.parents
                             else (REACH_UNKNOWN, _EMPTY))
            elif target.__class__ is cst.Name and self._loss.search(target.value.lower()):
                paths.append((REACHES_OBJECTIVE, _EMPTY))
            else:
                _, reach, feeds = self._into(body, [target])
                paths.append((reach, feeds))
        return paths

    def _attribute_uses(self, key: Tuple[int, str]) -> Tuple[Reach, List[Path]]:
        """Where ``self.x`` goes: the reads of it in the class's methods, and anywhere the
        object goes (unknown: a caller reads ``model.x``)."""
        paths = []
        for read, unit in self.module_index().attribute_reads.get(key, ()):
            context = self._context(unit)
            if context is not None:
                paths.append((context, _EMPTY))
                continue
            body = self._body(unit)
            if id(read) in body.parents:
                paths.append(self._path(body, read))
        return REACH_UNKNOWN, paths

    def _attribute_variable(self, body: Body, target: cst.Attribute) -> Optional[int]:
        """The variable of ``self.x``, assigned in a method of a class."""
        if target.value.__class__ is not cst.Name or target.value.value != "self":
            return None
        method = self.module_index().functions.get(id(body.node))
        if method is None or method.cls is None:
            return None
        key = (id(method.cls), target.attr.value)
        variable = self._attributes.get(key)
        if variable is None:
            variable = self._attributes[key] = -1 - len(self._attributes)
            self._attribute_keys[variable] = key
        return variable

    def _context(self, unit: Unit) -> Optional[Reach]:
        """NONE for all of a function under ``@tf.custom_gradient``, a test, a metric's
        bookkeeping (the configured pattern) or a method of a Metric class."""
        if unit.__class__ is not cst.FunctionDef:
            return None
        key = id(unit)
        if key in self._contexts:
            return self._contexts[key]
        self._contexts[key] = None
        context = None
        name = unit.name.value
        if unit.decorators and any(
                dotted(getattr(d.decorator, "func", d.decorator)).endswith("custom_gradient")
                for d in unit.decorators):
            context = CUSTOM
        elif self._no_gradient.search(name):
            context = (IN_EVALUATION if name in sinks.EVALUATION_METHODS else IN_TEST
                       if name.startswith("test") else IN_METRIC
                       if name in sinks.METRIC_METHODS else none("in an optimizer update"))
        else:
            info = self.module_index().functions.get(key)
            if info is not None and info.cls is not None and any(
                    dotted(base.value).endswith("Metric") for base in info.cls.bases):
                context = IN_METRIC
            elif info is not None:
                context = self._context(info.unit)
        self._contexts[key] = context
        return context

    # -- paths: from a node up to where its value ends ------------------------------------
    def _path(self, body: Body, node: cst.CSTNode) -> Path:
        chain: List[Tuple[int, Reach]] = []  # nodes climbed, and the reach their edge adds
        while True:
            cached = body.paths.get(id(node))
            if cached is not None:
                result = cached
                break
            parent = body.parents.get(id(node))
            if parent is None:
                result = (REACH_UNKNOWN, _EMPTY)
                break
            ends, reach, feeds = self._edge(body, node, parent)
            if ends:
                result = body.paths[id(node)] = (reach, feeds)
                break
            chain.append((id(node), reach))
            node = parent
        reach, feeds = result
        for key, added in reversed(chain):
            reach = join(reach, added)
            body.paths[key] = (reach, feeds)
        return reach, feeds

    def _edge(self, body: Body, child: cst.CSTNode, parent: cst.CSTNode) -> Edge:
        """What ``parent`` does with the value of ``child``."""
        kind = parent.__class__  # exact classes: isinstance goes through the ABC machinery
        if kind is cst.Tuple and child.__class__ is cst.Element:
            element = self._returned_element(body, child, parent)
            if element is not None:
                return True, NOWHERE, frozenset((element,))
        if kind in _CARRIERS:
            return _PASSES
        if kind is cst.Call:
            return _PASSES if child is parent.func else self._argument(body, parent, child)
        if kind is cst.BinaryOperation:
            operator = parent.operator.__class__
            if operator is cst.FloorDivide:
                return True, sinks.CUT, _EMPTY
            if operator is cst.Modulo and parent.left.__class__ in (cst.SimpleString,
                                                                    cst.ConcatenatedString):
                return True, sinks.LOGGED, _EMPTY
            return _PASSES
        if kind is cst.UnaryOperation:
            return (True, sinks.CUT, _EMPTY) if parent.operator.__class__ is cst.Not else (
                _PASSES)
        ended = _ENDS.get(kind)
        if ended is not None:
            return True, ended, _EMPTY
        if kind is cst.IfExp:
            return (True, sinks.CONDITION, _EMPTY) if child is parent.test else _PASSES
        if kind is cst.Subscript or kind is cst.DictElement:
            return _PASSES if child is parent.value else (True, sinks.CUT, _EMPTY)  # a key
        if kind is cst.Attribute:
            return self._attribute(body, parent)
        if kind is cst.Return:
            if body.node.__class__ is cst.FunctionDef:
                self._functions[id(body.node)] = body.node
                return True, NOWHERE, frozenset((id(body.node),))
            return True, REACH_UNKNOWN, _EMPTY
        if kind is cst.Assign or kind is cst.AnnAssign or kind is cst.AugAssign:
            targets = ([t.target for t in parent.targets] if kind is cst.Assign
                       else [parent.target])
            return self._into(body, targets)
        if kind is cst.For or kind is cst.CompFor:
            return self._into(body, [parent.target])
        if kind is cst.WithItem and parent.asname is not None:
            return self._into(body, [parent.asname.name])
        return True, REACH_UNKNOWN, _EMPTY  # an unused expression, a default, a decorator

    def _into(self, body: Body, targets: List[cst.BaseExpression]) -> Edge:
        """An assignment: the value goes where the assigned names go."""
        reach, feeds = NOWHERE, set()
        stack = list(targets)
        while stack:
            target = stack.pop()
            if isinstance(target, cst.Name) and id(target) in body.names:
                feeds.add(id(target))
            elif isinstance(target, (cst.Tuple, cst.List)):
                stack.extend(element.value for element in target.elements)
            elif isinstance(target, cst.StarredElement):
                stack.append(target.value)
            elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and (
                    body.load_defs.get(id(target.value))):
                feeds |= body.load_defs[id(target.value)]  # `d[k] = v`: into `d`
            else:
                attribute = (self._attribute_variable(body, target)
                             if target.__class__ is cst.Attribute else None)
                if attribute is not None:  # `self.x = v`: read in the class's methods
                    feeds.add(attribute)
                else:
                    reach = REACH_UNKNOWN  # read wherever the object goes
        return True, reach, frozenset(feeds)

    def _attribute(self, body: Body, attribute: cst.Attribute) -> Edge:
        """The value is the object of ``value.attr``: ``x.numpy()``, ``x.shape``, ``x.mean()``."""
        name = attribute.attr.value
        if name in sinks.NO_GRADIENT_ATTRIBUTES:
            numpy = name in ("numpy", "eval", "item", "tolist")
            return True, (sinks.NUMPY if numpy else sinks.CUT), _EMPTY
        call = body.parents.get(id(attribute))
        if isinstance(call, cst.Call) and call.func is attribute:
            if name in sinks.DIFFERENTIATING_METHODS:
                return True, REACHES_OBJECTIVE, _EMPTY  # `loss.backward()`
            if name in sinks.CONTAINER_METHODS:
                return True, NOWHERE, _EMPTY  # `losses.append(x)`: the list itself goes on
            if name in sinks.CARRYING_METHODS:
                return _PASSES  # `x.mean()`: the result carries the value on
        return True, REACH_UNKNOWN, _EMPTY

    def _argument(self, body: Body, call: cst.Call, arg: cst.CSTNode) -> Edge:
        """What the callee of ``call`` does with its argument ``arg``."""
        if not isinstance(arg, cst.Arg):
            return True, REACH_UNKNOWN, _EMPTY
        func = call.func
        keyword = arg.keyword.value if arg.keyword is not None else None
        position = None
        if keyword is None and not arg.star:
            position = [a for a in call.args if a.keyword is None].index(arg)
        qualified, local = self._callee(func, body.node)
        last = last_name(func)
        method = isinstance(func, cst.Attribute)
        if local is not None:
            return self._parameter(local, call, arg, position, keyword)
        if qualified in ("tensorflow.gradients", "keras.backend.gradients") or (
                method and last in sinks.OBJECTIVE_METHODS and not qualified.startswith("numpy")
                and not (last in _GRADIENT_METHODS and len(call.args) < 2)):
            objective = sinks.OBJECTIVE_METHODS.get(last, "ys")
            if position == 0 or keyword == objective or not objective:
                return True, REACHES_OBJECTIVE, _EMPTY
            return True, none("a source of the gradient"), _EMPTY
        ended = sinks.sink(func, qualified, last, method, call, arg, position, keyword)
        if ended is not None:
            return True, ended, _EMPTY
        if method and last in sinks.CONTAINER_METHODS and isinstance(func.value, cst.Name):
            feeds = body.load_defs.get(id(func.value))
            if feeds:
                return True, NOWHERE, feeds  # `losses.append(x)`: x goes where `losses` goes
        if isinstance(func, cst.Name) and not qualified:
            if func.value in sinks.BUILTINS_WITHOUT_GRADIENT:
                return True, sinks.BUILTINS_WITHOUT_GRADIENT[func.value], _EMPTY
            if func.value in sinks.PASSING_BUILTINS:
                return _PASSES
        if qualified.startswith(("tensorflow.", "keras.", "tensorflow_probability.")):
            return _PASSES  # an op (a distribution, a bijector): its result carries the value on
        return False, REACH_UNKNOWN, _EMPTY  # an unknown callee: its result, and more

    def _callee(self, func: cst.BaseExpression, unit: Unit
                ) -> Tuple[str, Optional[cst.FunctionDef]]:
        key = id(func)
        found = self._callees.get(key)
        if found is None:
            qualified, local = self._resolve(func, unit)
            found = (sinks.normalized(qualified) if qualified else "", local)
            self._callees[key] = found
        return found

    def _parameter(self, function: cst.FunctionDef, call: cst.Call, arg: cst.Arg,
                   position: Optional[int], keyword: Optional[str]) -> Edge:
        """An argument of the module's own function goes where the parameter goes."""
        params = function.params
        positional = [*params.posonly_params, *params.params]
        if (isinstance(call.func, cst.Attribute) and positional
                and positional[0].name.value in ("self", "cls")):
            positional = positional[1:]
        param = None
        if keyword is not None:
            param = next((p for p in (*positional, *params.kwonly_params)
                          if p.name.value == keyword), None)
        elif position is not None and position < len(positional):
            param = positional[position]
        if param is None:
            return True, REACH_UNKNOWN, _EMPTY  # *args, **kwargs
        self._body(function)
        return True, NOWHERE, frozenset((id(param.name),))


# Statements and expressions that end a value without a gradient.
_ENDS: Dict[type, Reach] = {
    cst.Comparison: sinks.COMPARED, cst.ComparisonTarget: sinks.COMPARED,
    cst.If: sinks.CONDITION, cst.While: sinks.CONDITION, cst.CompIf: sinks.CONDITION,
    cst.Assert: sinks.ASSERTED, cst.Raise: sinks.CUT, cst.Del: sinks.CUT,
    cst.SubscriptElement: sinks.CUT, cst.Index: sinks.CUT, cst.Slice: sinks.CUT,
    cst.FormattedStringExpression: sinks.LOGGED, cst.FormattedString: sinks.LOGGED,
}


def _private(name: str) -> bool:
    """``_helper``, not ``__call__``."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _unpacked(statement: Optional[cst.CSTNode], call: cst.Call, position: int
              ) -> Optional[cst.BaseExpression]:
    """The target that ``statement`` (`a, b = f(x)`) unpacks the element at ``position`` of
    what ``call`` returns into; None where it does not unpack the call's result."""
    if statement.__class__ is not cst.Assign or statement.value is not call or len(
            statement.targets) != 1:
        return None
    target = statement.targets[0].target
    if target.__class__ not in (cst.Tuple, cst.List) or len(target.elements) <= position:
        return None
    if any(e.__class__ is cst.StarredElement for e in target.elements[:position + 1]):
        return None
    return target.elements[position].value


def _closed(function: cst.FunctionDef) -> str:
    """``gradient_free`` once the analysis is closed: nothing asks it any more."""
    raise RuntimeError("the analysis of this module is closed")
