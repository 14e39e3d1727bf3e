"""Precision: the float dtype the module's Keras layers compute in. Used by the facade
(``Analysis.dtype_policy``, ``Analysis.layer_dtypes``); given the resolver (callees and
places of calls) and the call sites, it asks them nothing else.

A dtype policy is set for the whole process by a call (``set_global_policy``, TF 2.3's
``mixed_precision.experimental.set_policy``, ``set_floatx``), so the policy in force at a
statement is the one the last such call before it in source order set (a later call replaces
an earlier one; ``'float32'``, ``'mixed_bfloat16'``, ... end float16; ``set_floatx`` only
counts until a policy is set: Keras derives the policy from floatx only while none is set).
The argument is a
string, a ``Policy('mixed_float16')`` call, or a name bound to one (the last ``Policy(...)``
made before the setter). A layer or ``Input`` can also choose its own dtype
(``dtype='mixed_float16'``, ``dtype=tf.float16``) or opt out of the cast of its inputs
(``autocast=False``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import libcst as cst

from nanlint import optable
from nanlint.optable import Op
from nanlint.analysis.lattice import DTYPES, FLOAT16 as FLOAT16_NAMES, INTEGER_DTYPES
from nanlint.analysis.scopes import dotted_parts
from nanlint.analysis.tree import visit

FLOAT16 = FLOAT16_NAMES | {"mixed_float16"}  # a dtype or policy that computes in float16
# The last names of the calls that set a policy or make one (their ops: set_dtype_policy,
# set_floatx, dtype_policy in nanlint.optable).
NAMES = tuple(sorted({spelling.rsplit(".", 1)[-1] for op in ("set_dtype_policy", "set_floatx",
                                                             "dtype_policy")
                      for spelling in optable.TABLE.by_name[op].spellings}))


@dataclass(frozen=True)
class Policy:
    """A float16 dtype policy: "float16" (variables too) or "mixed_float16" (layers compute
    in float16, variables stay float32), and the call that set it."""

    name: str
    call: cst.Call


@dataclass(frozen=True)
class Layer:
    """A Keras layer or ``Input`` made with a dtype of its own: the call, "float16" or
    "float32", and the function it is made in (None: the module's top level)."""

    call: cst.Call
    dtype: str
    function: Optional[cst.FunctionDef]


def dtype_name(expr: Optional[cst.BaseExpression]) -> Optional[str]:
    """``'float16'``, ``tf.float16`` / ``np.float16`` or an imported ``float16`` as the dtype
    name, else None (the one reading of a ``dtype=`` argument: layers, casts, constructors)."""
    if isinstance(expr, cst.SimpleString):
        text = expr.evaluated_value
        return text if isinstance(text, str) else None
    parts = dotted_parts(expr) if expr is not None else None
    return parts[-1] if parts and parts[-1] in DTYPES else None


def integer_dtype(expr: Optional[cst.BaseExpression]) -> bool:
    """``tf.int32``, ``'int64'``, an imported ``uint8``: an integer dtype."""
    if isinstance(expr, cst.SimpleString):
        return expr.evaluated_value in INTEGER_DTYPES
    parts = dotted_parts(expr) if expr is not None else None
    return bool(parts) and parts[-1] in INTEGER_DTYPES


class Precision:
    """Answers ``policy(statements)`` and ``layers()`` for one module."""

    def __init__(self, resolver, sites) -> None:
        self.resolver = resolver
        self.sites = sites
        self._at: Optional[Dict[int, Optional[Policy]]] = None
        self._layers: Optional[List[Tuple[cst.Call, str]]] = None

    # -- the global policy ------------------------------------------------------------------
    def policy(self, statements: Sequence[cst.CSTNode]) -> Optional[Policy]:
        """The float16 policy in force at the innermost of ``statements`` (the traversal's
        statement stack), or None."""
        if self._at is None:
            self._at = self._policies()
        for statement in reversed(statements):
            if id(statement) in self._at:
                return self._at[id(statement)]
        return None

    def name(self, expr: Optional[cst.BaseExpression], last_object: Optional[str]
              ) -> Optional[str]:
        if isinstance(expr, cst.Call):
            op = self.resolver.op_at(expr, self.resolver.call_place(expr))
            if op is not None and op.name == "dtype_policy":
                return self.name(self.resolver.argument(expr, op, 0), None)
            return None
        if isinstance(expr, cst.Name):
            return last_object  # `policy = Policy(...)`, then `set_global_policy(policy)`
        return dtype_name(expr)

    def _policies(self) -> Dict[int, Optional[Policy]]:
        """The policy in force at each statement, in one walk in source order (only for a
        module that sets a policy)."""
        resolver = self.resolver
        setters, objects = {}, set()
        for call in self.sites.calls_named(*NAMES):
            op = resolver.op_at(call, resolver.call_place(call))
            if op is not None and op.name in ("set_dtype_policy", "set_floatx"):
                setters[id(call)] = op
            elif op is not None and op.name == "dtype_policy":
                objects.add(id(call))
        if not setters:
            return {}
        walk = _PolicyWalk(self, setters, objects)
        visit(resolver.module, walk)
        return walk.at

    # -- layers that choose their own dtype -------------------------------------------------
    def layers(self) -> List[Layer]:
        """The Keras layers and ``Input``s of the module made with a dtype of their own;
        ``autocast=False`` counts as float32 (the layer computes in the dtype its inputs
        arrive in)."""
        if self._layers is None:
            self._layers = self._dtype_layers()
        return self._layers

    def _dtype_layers(self) -> List[Layer]:
        layers = _DtypeLayers(self.resolver)
        visit(self.resolver.module, layers)
        return layers.found


class _DtypeLayers(cst.CSTVisitor):
    """The Keras layers made with a dtype of their own (``Precision.layers``)."""

    def __init__(self, resolver) -> None:
        self.resolver = resolver
        self.found: List[Layer] = []

    def visit_Call(self, node: cst.Call) -> None:
        resolver = self.resolver
        dtype = resolver.keyword(node, "dtype")
        autocast = resolver.keyword(node, "autocast")
        if dtype is None and autocast is None:
            return
        place = resolver.call_place(node)
        qualified = resolver.qualified_at(node.func, place) or ""
        if not qualified.startswith(("keras.", "tensorflow.keras.", "tf_keras.")):
            return
        if isinstance(autocast, cst.Name) and autocast.value == "False":
            self.found.append(Layer(node, "float32", resolver.function_of(node)))
            return
        if isinstance(dtype, cst.Call):
            op = resolver.op_at(dtype, place)
            dtype = resolver.argument(dtype, op, 0) if op is not None and (
                op.name == "dtype_policy") else None
        name = dtype_name(dtype)
        if name in FLOAT16 or name in ("float32", "float64"):
            self.found.append(Layer(node, "float16" if name in FLOAT16 else "float32",
                                    resolver.function_of(node)))


class _PolicyWalk(cst.CSTVisitor):
    """Records, at each statement, the policy in force when it starts (source order)."""

    def __init__(self, precision: Precision, setters: Dict[int, Op], objects) -> None:
        self.precision, self.setters, self.objects = precision, setters, objects
        self.at: Dict[int, Optional[Policy]] = {}
        self.policy: Optional[Policy] = None
        self.last_object: Optional[str] = None  # the name of the last `Policy(...)`
        self.explicit = False  # a policy was set: `set_floatx` no longer changes it

    def record(self, node: cst.CSTNode) -> None:
        self.at[id(node)] = self.policy

    def visit_Call(self, node: cst.Call) -> None:
        key = id(node)
        if key in self.objects:
            self.last_object = self.precision.name(node, None)
        elif key in self.setters:
            op = self.setters[key]
            if op.name == "set_floatx" and self.explicit:
                return
            self.explicit = self.explicit or op.name == "set_dtype_policy"
            name = self.precision.name(self.precision.resolver.argument(node, op, 0),
                                       self.last_object)
            if name in FLOAT16:
                self.policy = Policy("mixed_float16" if name == "mixed_float16" else "float16",
                                     node)
            elif name is not None:
                self.policy = None  # float32, bfloat16, ...: float16 no longer applies


# The statements the traversal enters (the engine's statement stack).
for _kind in (cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.FunctionDef,
              cst.ClassDef, cst.Match, cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr,
              cst.Return, cst.Raise, cst.Assert, cst.Del):
    setattr(_PolicyWalk, "visit_" + _kind.__name__, _PolicyWalk.record)
