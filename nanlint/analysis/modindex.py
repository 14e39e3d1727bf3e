"""The module's index: one walk of the whole module that finds the parent of every node,
the functions and the unit each is defined in, the call sites of the module's functions and
methods, every read of a name, the names passed as ``loss=`` or ``metrics=``, and whether an
assertion that guards a value is called anywhere. The ``Resolver`` makes it on first use (for a
parent, or for gradient reach) and both share it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from nanlint.analysis.defuse import GUARDS, Unit
from nanlint.analysis.tree import FIELDS, IS_NODE, LEAF, children, is_leaf, last_name


@dataclass
class Function:
    unit: Unit  # the unit the function is defined in
    cls: Optional[cst.ClassDef]  # for a method: its class


class ModuleIndex:
    """One walk of the module: functions and their enclosing units, call sites of the
    module's functions and methods, the names passed as ``loss=`` / ``metrics=``, and the
    parent of every node (a file that needs one often needs the other: one walk serves
    both)."""

    def __init__(self, module: cst.Module) -> None:
        self.functions: Dict[int, Function] = {}
        self.calls: Dict[str, List[Tuple[cst.Call, Unit]]] = {}  # f(...) by name
        self.method_calls: Dict[str, List[Tuple[cst.Call, Unit]]] = {}  # self.f(...)
        self.references: Dict[str, int] = {}  # every read of a name
        self.losses: Set[str] = set()  # names passed as `loss=`
        self.metrics: Dict[str, int] = {}  # names listed in `metrics=`
        self.assertions = False  # an assertion that guards a value is called somewhere
        # Reads of `self.x` in the methods of a class, by (class, attribute): where an
        # attribute set in one method goes in the others.
        self.attribute_reads: Dict[Tuple[int, str], List[Tuple[cst.Attribute, Unit]]] = {}
        self.parents: Dict[int, cst.CSTNode] = {}
        # A dict of functions and the calls through it (`fns = {"a": f, "b": g}`, then
        # `fns[mode](x)`, or `fn = fns[mode]` and `fn(x)`): each is a call of every function.
        self._tables: Dict[Tuple[int, str], List[cst.Name]] = {}  # (unit, name) -> functions
        self._picks: Dict[Tuple[int, str], str] = {}  # (unit, name) -> the table it reads
        self._dispatches: List[Tuple[str, cst.Call, Unit]] = []
        # function name -> the calls through a table, each with the name as the table has it
        self.dispatched: Dict[str, List[Tuple[cst.Call, Unit, cst.Name]]] = {}
        parents, references = self.parents, self.references
        # (node, its unit, its class). The unit None marks a node the index does not read
        # (a name being defined, an attribute's name, a keyword, an import): only its
        # parent is noted, and its children's. A name read is counted where it is met as a
        # child: it has no children to walk.
        stack: List[Tuple[cst.CSTNode, Optional[Unit], Optional[cst.ClassDef]]] = [
            (module, module, None)]
        push = stack.append
        leaf = LEAF
        fields_of, is_node = FIELDS, IS_NODE
        while stack:
            node, unit, cls = stack.pop()
            kind = node.__class__  # exact classes: isinstance goes through the ABC machinery
            fields = fields_of.get(kind)
            if fields is None:
                below = children(node)
            else:  # ``children``, inlined: it runs for every node of the module
                below = []
                for name in fields:
                    child = getattr(node, name)
                    child_kind = child.__class__
                    if child_kind is tuple or child_kind is list:
                        below.extend(child)
                    else:
                        flag = is_node.get(child_kind)
                        if flag:
                            below.append(child)
                        elif flag is None:  # a class not met yet: ``children`` learns it
                            below = children(node)
                            break
            if not below:
                continue
            # The children read, with their unit and class; None: all of them, as this node.
            read: Optional[Dict[int, Tuple[Unit, Optional[cst.ClassDef]]]] = None
            if unit is None or kind is cst.Import or kind is cst.ImportFrom:
                read = {}
            elif kind is cst.FunctionDef:
                self.functions[id(node)] = Function(unit, cls)
                read = {id(node.params): (unit, cls), id(node.body): (node, None),
                        **{id(d): (unit, cls) for d in node.decorators}}
            elif kind is cst.ClassDef:
                read = {id(node.body): (unit, node),
                        **{id(d): (unit, cls) for d in (*node.decorators, *node.bases)}}
            elif kind is cst.Param:
                read = {id(node.default): (unit, cls)} if node.default is not None else {}
            elif kind is cst.Attribute or kind is cst.Arg:  # the value is read, not the names
                value = node.value
                if kind is cst.Arg:
                    self._keyword(node)
                elif value.__class__ is cst.Name and value.value == "self":
                    self._attribute_read(node, unit)
                for child in below:
                    parents[id(child)] = node
                    kind = child.__class__
                    if child is not value:  # the attribute's name, the keyword
                        if not leaf.get(kind, True) or not is_leaf(kind):
                            push((child, None, None))
                    elif kind is cst.Name:
                        references[child.value] = references.get(child.value, 0) + 1
                    elif not leaf.get(kind, True) or not is_leaf(kind):
                        push((child, unit, cls))
                continue
            elif kind is cst.Call:
                self._call(node, unit)
            elif kind is cst.Assign and unit is not None:
                self._table(node, unit)
            if read is None:  # (most nodes: the loop below without its lookups)
                for child in below:
                    parents[id(child)] = node
                    kind = child.__class__
                    if kind is cst.Name:
                        references[child.value] = references.get(child.value, 0) + 1
                    elif not leaf.get(kind, True) or not is_leaf(kind):  # a leaf has no children
                        push((child, unit, cls))
                continue
            for child in below:
                parents[id(child)] = node
                child_unit, child_cls = read.get(id(child), (None, None))
                if child_unit is not None and child.__class__ is cst.Name:
                    references[child.value] = references.get(child.value, 0) + 1
                elif not leaf.get(child.__class__, True) or not is_leaf(child.__class__):
                    push((child, child_unit, child_cls))
        for (unit_id, name), table in self._picks.items():
            self._dispatches.extend((table, call, unit) for call, unit in self.calls.get(name, ())
                                    if id(unit) == unit_id)
        for table, call, unit in self._dispatches:
            names = self._tables.get((id(unit), table)) or self._tables.get((id(module), table))
            for name in names or ():
                self.calls.setdefault(name.value, []).append((call, unit))
                self.dispatched.setdefault(name.value, []).append((call, unit, name))
        del self._tables, self._picks, self._dispatches

    def _call(self, node: cst.Call, unit: Unit) -> None:
        func = node.func
        if last_name(func) in GUARDS:
            self.assertions = True
        kind = func.__class__  # exact classes: isinstance goes through the ABC machinery
        if kind is cst.Name:
            self.calls.setdefault(func.value, []).append((node, unit))
        elif kind is cst.Subscript and func.value.__class__ is cst.Name:
            self._dispatches.append((func.value.value, node, unit))
        elif (kind is cst.Attribute and func.value.__class__ is cst.Name
              and func.value.value in ("self", "cls")):
            self.method_calls.setdefault(func.attr.value, []).append((node, unit))

    def _table(self, node: cst.Assign, unit: Unit) -> None:
        """Note `name = {key: function, ...}` (every value a name) and `name = table[key]`."""
        if len(node.targets) != 1 or node.targets[0].target.__class__ is not cst.Name:
            return
        name, value = node.targets[0].target.value, node.value
        if value.__class__ is cst.Dict and value.elements and all(
                element.__class__ is cst.DictElement and element.value.__class__ is cst.Name
                for element in value.elements):
            self._tables[(id(unit), name)] = [element.value for element in value.elements]
        elif value.__class__ is cst.Subscript and value.value.__class__ is cst.Name:
            self._picks[(id(unit), name)] = value.value.value

    def _attribute_read(self, node: cst.Attribute, unit: Unit) -> None:
        method = self.functions.get(id(unit))
        if method is None or method.cls is None or self.parents.get(id(node)).__class__ in (
                cst.AssignTarget, cst.AnnAssign, cst.AugAssign):
            return
        key = (id(method.cls), node.attr.value)
        self.attribute_reads.setdefault(key, []).append((node, unit))

    def _keyword(self, arg: cst.Arg) -> None:
        if arg.keyword is None or arg.keyword.value not in ("loss", "metrics"):
            return
        value = arg.value
        names = [value] if isinstance(value, cst.Name) else [
            e.value for e in getattr(value, "elements", ()) if isinstance(
                getattr(e, "value", None), cst.Name)]
        for name in names:
            if arg.keyword.value == "loss":
                self.losses.add(name.value)
            else:
                self.metrics[name.value] = self.metrics.get(name.value, 0) + 1


