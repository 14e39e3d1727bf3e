"""The value analysis every rule shares: what can this expression be, and does a gradient
flow through it?

The layers, each importing only the ones below it (no arrow points back up)::

    facade       Analysis: the public questions rules ask (value, op_of, number, ...)
      │
    expressions  the expression walk: names → bindings, calls → producers/functions
      │
    sites        the module's calls of each of its functions and lambdas
      │
    producers    what each TF/Keras op and layer yields (driven by nanlint.optable)
      │
    sources      where values start: layer activations, metric state, gradients, casts
      │
    constants    Number: the constant a name, flag, default or config key stands for
      │
    bindings     Cursor, Place, Callee: names, scopes, self-attributes, call resolution
      │
    callsites    the module's calls and their places; arguments bound to parameters
      │
    scopes       the statement index and branch paths of each scope

    data         the scale of input data (np.random.uniform(-10, 10), np.arange, known
                 datasets) and `name.method(...)` uses; asks only the facade's questions
    precision    the float16 dtype policy in force at each statement, layers with a dtype
                 of their own; asks only the facade's questions
    flow         gradient reach: where a value goes (objective, unknown, none), per function
      │
    sinks        what calls do with a value, as data        defuse  one walk per function:
                                                                    definitions -> uses
                                                            modindex  one walk per module:
                                                                    parents, functions,
                                                                    call sites (made by
                                                                    bindings, shared)

    tree         cheap walks of libcst trees (children, read-only visitors): the bottom

    arithmetic   pure functions: sum, product, quotient, power, square, clip of Values
      │
    lattice      Value, Evidence, join, render: the bottom, imports nothing of nanlint

``Bindings`` → ``Constants`` → ``Sources`` → ``Producers`` → ``Sites`` →
``Expressions`` → ``Analysis`` is one class stack: each layer extends the one below; a
lower layer asks for a value only through the ``_value`` hook that ``expressions``
implements. Rules import none of this directly: they
use ``nanlint.rule``, which re-exports the questions' types.
"""

from nanlint.analysis.bindings import Callee, Cursor, Place
from nanlint.analysis.constants import Number
from nanlint.analysis.facade import Analysis
from nanlint.analysis.lattice import CONFIDENCE_ORDER, UNKNOWN, Evidence, Value, render
from nanlint.analysis.settings import Settings

__all__ = ["Analysis", "CONFIDENCE_ORDER", "Callee", "Cursor", "Evidence", "Number", "Place",
           "Settings", "UNKNOWN", "Value", "render"]
