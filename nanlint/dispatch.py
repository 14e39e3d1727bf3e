"""The analysis stage: one walk over the module that keeps the analysis informed of the
current scope and statement and runs every enabled rule's handlers at each node. A rule
that raises is switched off for the rest of the file and reported (``Crash``); the other
rules finish it. Reports replaced by a superseding rule's are dropped here.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Optional, Set, Tuple

import libcst as cst

from nanlint.analysis import CONFIDENCE_ORDER, Analysis
from nanlint.analysis.tree import children, is_leaf
from nanlint.options import LintOptions
from nanlint.rule import Report, Rule

Handler = Callable[[cst.CSTNode], None]


class RuleCrash(Exception):
    """A handler raised: which one, and what."""

    def __init__(self, handler: Handler, error: BaseException) -> None:
        super().__init__(str(error))
        self.handler = handler
        self.error = error

    @property
    def code(self) -> str:
        owner = getattr(self.handler, "__self__", None)
        return getattr(owner, "code", "") or "the engine"


Boundary = Tuple[Callable[[], None], Callable[[], None]]


def _raise_crash(handler: Handler, error: Exception, node: cst.CSTNode) -> None:
    raise RuleCrash(handler, error) from error


def walk(module: cst.Module, visit: Dict[type, List[Handler]],
         leave: Dict[type, List[Handler]], boundaries: Optional[Dict[int, Boundary]] = None,
         on_crash: Callable[[Handler, Exception, cst.CSTNode], None] = _raise_crash,
         parents: Optional[Dict[int, cst.CSTNode]] = None) -> None:
    """Pre-order traversal with leave events, iterative (deep nesting is no problem).

    ``boundaries`` maps ``id(node)`` to (enter, exit) callbacks run around that one node: a
    function's scope starts at its body, after its decorators and default values.
    A handler that raises is passed to ``on_crash`` with the error and the node it was
    visiting; ``on_crash`` may raise or let the walk go on
    (``visit`` is looked up afresh for every node, so handlers can be taken out of it).
    A RecursionError goes there too, unless the module nests deeper than ``DEEP_NESTING``:
    then it propagates (the module is too deep to analyse, whatever handler ran).
    ``parents``, if given, is filled with the parent of every node below a visited one, by
    id, before that node is visited.
    """
    stack: List[Any] = [module]
    boundaries = boundaries if boundaries is not None else {}
    # Leaves nothing is run at (names, numbers, strings: nearly half the nodes of a module,
    # and `pass`, `break` when no handler takes statements): popped and left at once.
    inert: Dict[type, bool] = {tuple: False}  # (a tuple marks a node to leave)
    note = parents.update if parents is not None else None
    from_keys = dict.fromkeys
    deep: Optional[bool] = None  # whether the module nests deeply: asked at a RecursionError
    while stack:
        item = stack.pop()
        quiet = inert.get(item.__class__)
        if quiet is None:
            kind = item.__class__
            quiet = inert[kind] = is_leaf(kind) and kind not in visit and kind not in leave
        if quiet:
            boundary = boundaries.get(id(item)) if boundaries else None
            if boundary is not None:  # (a lambda's body, an iterable: a name)
                boundary[0]()
                boundary[1]()
            continue
        if item.__class__ is tuple:
            node = item[0]
            if node.__class__ is _Exit:
                node.exit()
                continue
            for handler in leave[node.__class__]:
                handler(node)
            continue
        boundary = boundaries.get(id(item)) if boundaries else None
        if boundary is not None:
            boundary[0]()
            stack.append((_Exit(boundary[1]),))
        node_type = item.__class__
        handlers = visit.get(node_type)
        if handlers:
            for handler in handlers:
                try:
                    handler(item)
                except RecursionError as error:
                    if deep is None:
                        deep = _nested_deeper_than(module, DEEP_NESTING)
                    if deep:
                        raise  # the module itself: the engine says "nested too deeply"
                    on_crash(handler, error, item)  # a cycle in the handler: its bug
                except Exception as error:
                    on_crash(handler, error, item)
        if node_type in leave:
            stack.append((item,))
        below = children(item) if node_type is not cst.If else _live_arms(item)
        if note is not None:
            note(from_keys(map(id, below), item))
        below.reverse()
        stack.extend(below)


# Nodes nested deeper than this (expressions of hundreds of terms or calls) can exhaust the
# recursion room of any analysis; in a module without them, a RecursionError is a cycle.
DEEP_NESTING = 200


def _nested_deeper_than(module: cst.Module, limit: int) -> bool:
    """Whether some node of ``module`` lies more than ``limit`` levels below it."""
    stack = [(module, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children(node))
    return False


def _live_arms(node: cst.If) -> List[cst.CSTNode]:
    """The parts of an ``if`` that can run: not the ``else`` of ``if True:`` nor the body
    of ``if False:`` (a switch left in the code; nothing there ever runs)."""
    parts = children(node)
    test = node.test
    if test.__class__ is cst.Name and test.value in ("True", "False") or (
            test.__class__ is cst.Integer and test.value in ("0", "1")):
        dead = node.orelse if test.value in ("True", "1") else node.body
        parts = [part for part in parts if part is not dead]
    return parts


class _Exit:
    __slots__ = ("exit",)

    def __init__(self, exit_: Callable[[], None]) -> None:
        self.exit = exit_


COMPOUND = (cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.FunctionDef,
             cst.ClassDef, cst.Match)
_SMALL = (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr, cst.Return, cst.Raise, cst.Assert,
          cst.Del, cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal, cst.Pass, cst.Break,
          cst.Continue)
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _tracker(analysis: Analysis) -> Tuple[Dict[type, List[Handler]], Dict[type, List[Handler]],
                                          Dict[int, Boundary]]:
    """Handlers that keep the analysis informed of the current scope and statement."""
    visit: Dict[type, List[Handler]] = {}
    leave: Dict[type, List[Handler]] = {}
    boundaries: Dict[int, Boundary] = {}

    def on(types, enter: Handler, exit_: Callable[[], None]) -> None:
        for node_type in types:
            visit.setdefault(node_type, []).append(enter)
            leave.setdefault(node_type, []).append(lambda _node: exit_())

    on(COMPOUND + _SMALL, analysis.enter_statement, analysis.leave_statement)

    def scope_at_body(node: cst.CSTNode) -> None:
        # Decorators, default values and annotations belong to the enclosing scope.
        boundaries[id(node.body)] = (lambda: analysis.enter_scope(node), analysis.leave_scope)

    for node_type in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
        visit.setdefault(node_type, []).append(scope_at_body)

    def enter_comprehension(node: cst.CSTNode) -> None:
        names = set()
        comp_for = node.for_in
        while comp_for is not None:
            names.update(_target_names(comp_for.target))
            comp_for = comp_for.inner_for_in
        # The outermost targets are elements of its iterable (`[log(d) for d in dists]`).
        outer = node.for_in
        analysis.enter_comprehension(frozenset(names), outer.target, outer.iter)
        # The outermost iterable is evaluated in the enclosing scope.
        boundaries[id(node.for_in.iter)] = (lambda: analysis.enter_comprehension(None),
                                            analysis.leave_comprehension)

    on(_COMPREHENSIONS, enter_comprehension, analysis.leave_comprehension)
    return visit, leave, boundaries


def _target_names(target: cst.BaseExpression) -> List[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for element in target.elements for n in _target_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


SITES_LISTING = "the hunt's listing of hazard sites"  # what a crash of ``Sites`` names


class Crash(NamedTuple):
    """A rule that raised: its code, the error, and the node it was visiting."""

    code: str
    error: Exception
    node: cst.CSTNode


def run_rules(analysis: Analysis, reports: List[Report], silent: List[Report],
              options: LintOptions) -> Tuple[List[Crash], Any]:
    """The rules' walk over the module: the crashes of rules, and, in suspects mode, the
    hazardous sites the walk collected (``nanlint.hazard_sites.Sites``; else None).
    ``reports`` and ``silent`` are the lists the rules fill (shown ones, and those of
    silent rules); superseded reports are taken out of ``reports``. Raises RecursionError
    for a module nested too deeply, RuleCrash when the engine's own bookkeeping raises."""
    visit, leave, boundaries = _tracker(analysis)
    threshold = CONFIDENCE_ORDER[options.min_confidence]
    replaced: Set[Tuple[int, str]] = set()  # filled as superseding rules report
    # Superseding rules first at each node, so that a rule can skip a finding already
    # replaced (``Rule.superseded``); otherwise in their order.
    for rule_class in sorted((*options.rules, *options.silent_rules),
                             key=lambda rule_class: not rule_class.supersedes):
        rule = rule_class(analysis, silent if rule_class in options.silent_rules else reports,
                          options.rule_settings.get(rule_class.code))
        rule._superseded, rule._superseding_confidence = replaced, threshold
        rule.keep_unreached = options.suspects
        rule.keep_pending = options.pending
        rule.fixing = not options.suspects
        for node_type, method in rule_class.handlers():
            visit.setdefault(node_type, []).append(getattr(rule, method))
    sites = None
    if options.suspects:
        from nanlint.hazard_sites import Sites

        sites = Sites(analysis)
        for node_type, handler in sites.handlers():
            visit.setdefault(node_type, []).append(handler)
    crashes: List[Crash] = []

    def switch_off(handler: Handler, error: Exception, node: cst.CSTNode) -> None:
        """A rule that raises is a bug: report it, and let the other rules finish the file."""
        rule = getattr(handler, "__self__", None)
        if sites is not None and rule is sites:
            # The hunt's listing of hazard sites: a node it fails on costs that node only,
            # and the first failure is said.
            if not any(crash.code == SITES_LISTING for crash in crashes):
                crashes.append(Crash(SITES_LISTING, error, node))
            return
        if not isinstance(rule, Rule):
            raise RuleCrash(handler, error) from error  # the engine's own bookkeeping
        for node_type, handlers in visit.items():
            visit[node_type] = [h for h in handlers if getattr(h, "__self__", None) is not rule]
        crashes.append(Crash(rule.code, error, node))

    walk(analysis.module, visit, leave, boundaries, on_crash=switch_off,
         parents=analysis.resolver.walked_parents)
    superseded = set(replaced)  # (Rule.report filled it, for the reports of every rule)
    # A finding that covers inner nodes (one binary cross-entropy over two logs, also when
    # the logs were assigned to variables lines before) replaces its own code's there.
    superseded |= {(id(node), r.rule.code) for r in reports for node in r.covers
                   if CONFIDENCE_ORDER[r.confidence] >= threshold}
    if superseded:
        reports[:] = [r for r in reports if (id(r.node), r.rule.code) not in superseded]
    return crashes, sites
