"""The module's index for gradient reach: one walk of the whole module that finds the
functions and the unit each is defined in, the call sites of the module's functions and
methods, every read of a name, the names passed as ``loss=`` or ``metrics=``, and whether an
assertion that guards a value is called anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from nanlint.analysis.defuse import GUARDS, Unit
from nanlint.analysis.tree import children, last_name


@dataclass
class Function:
    unit: Unit  # the unit the function is defined in
    cls: Optional[cst.ClassDef]  # for a method: its class


class ModuleIndex:
    """One walk of the module: functions and their enclosing units, call sites of the
    module's functions and methods, and the names passed as ``loss=`` / ``metrics=``."""

    def __init__(self, module: cst.Module) -> None:
        self.functions: Dict[int, Function] = {}
        self.calls: Dict[str, List[Tuple[cst.Call, Unit]]] = {}  # f(...) by name
        self.method_calls: Dict[str, List[Tuple[cst.Call, Unit]]] = {}  # self.f(...)
        self.references: Dict[str, int] = {}  # every read of a name
        self.losses: Set[str] = set()  # names passed as `loss=`
        self.metrics: Dict[str, int] = {}  # names listed in `metrics=`
        self.assertions = False  # an assertion that guards a value is called somewhere
        stack: List[Tuple[cst.CSTNode, Unit, Optional[cst.ClassDef]]] = [(module, module, None)]
        while stack:
            node, unit, cls = stack.pop()
            kind = node.__class__  # exact classes: isinstance goes through the ABC machinery
            if kind is cst.FunctionDef:
                self.functions[id(node)] = Function(unit, cls)
                stack.extend((d, unit, cls) for d in node.decorators)
                stack.extend((p, unit, cls) for p in children(node.params))
                stack.append((node.body, node, None))
                continue
            if kind is cst.ClassDef:
                stack.extend((d, unit, cls) for d in node.decorators)
                stack.extend((a, unit, cls) for a in node.bases)
                stack.append((node.body, unit, node))
                continue
            if kind is cst.Import or kind is cst.ImportFrom:
                continue
            if kind is cst.Name:
                self.references[node.value] = self.references.get(node.value, 0) + 1
                continue
            if kind is cst.Attribute:
                stack.append((node.value, unit, cls))
                continue
            if kind is cst.Param:
                if node.default is not None:
                    stack.append((node.default, unit, cls))
                continue
            if kind is cst.Arg:
                self._keyword(node)
                stack.append((node.value, unit, cls))
                continue
            if kind is cst.Call:
                func = node.func
                if last_name(func) in GUARDS:
                    self.assertions = True
                if isinstance(func, cst.Name):
                    self.calls.setdefault(func.value, []).append((node, unit))
                elif (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                      and func.value.value in ("self", "cls")):
                    self.method_calls.setdefault(func.attr.value, []).append((node, unit))
            below = children(node)
            stack.extend(zip(below, repeat(unit), repeat(cls)))

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


