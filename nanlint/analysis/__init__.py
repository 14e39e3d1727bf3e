"""The value analysis every rule shares: what can this expression be, and does a gradient
flow through it?

A few parts, each an object given the others it needs when it is made; none inherits from
another (no arrow points back up)::

    facade       Analysis: the public questions rules ask (value, op_of, number, reach, ...);
      │          makes the parts for one module and asks them
      │
      ├── evaluator   Evaluator(resolver, sites, flow): an expression to a Value, through
      │     │         names, operators (arithmetic) and the op model's transfer functions
      │     ├── producers  the op model's transfer functions: TRANSFERS, one for each
      │     │              ``Op.transfer`` of nanlint.optable
      │     └── sources    where values start (activations, state, gradients, casts)
      │
      ├── flow        Flow(callees, module index): gradient reach, where a value goes
      │     └── sinks, defuse   what calls do with a value; one walk per function
      │
      ├── constants   Constants(resolver): the number a name, flag, default or key is
      ├── sites       Sites(resolver): the module's calls by op and by name, the call sites
      │               of each of its functions and lambdas
      │
      └── resolver    Resolver(module, source, evaluate): where the traversal is
            │         (Cursor, Place), scopes, names, callees (Callee), self-attributes
            └── callsites, scopes, modindex   calls and places; scope indexes; one walk
                                              per module (parents, functions, call sites)

    data         the scale of input data and ``name.method(...)`` uses; given the
                 resolver, the constants and the sites
    precision    the float16 dtype policy in force at each statement; given the resolver
                 and the sites

    arithmetic   the lattice's algebra and identities: pure functions of Values
    lattice      Value, Evidence, join, render: the bottom, imports nothing of nanlint
    tree         cheap walks of libcst trees (children, read-only visitors)

The resolver and the evaluator need each other. The evaluator holds the resolver; the
resolver is given the evaluator's ``piece`` function as ``evaluate`` when it is made (is a
call's result a layer object? what does ``self.x`` hold?), and ``Analysis.close`` cuts
that loop once the file is done. Rules import none of this directly: they use
``nanlint.rule``, which re-exports the questions' types.
"""

from nanlint.analysis.resolver import Callee, Cursor, Place
from nanlint.analysis.constants import Number
from nanlint.analysis.facade import Analysis
from nanlint.analysis.lattice import CONFIDENCE_ORDER, UNKNOWN, Evidence, Value, render
from nanlint.analysis.settings import Settings

__all__ = ["Analysis", "CONFIDENCE_ORDER", "Callee", "Cursor", "Evidence", "Number", "Place",
           "Settings", "UNKNOWN", "Value", "render"]
