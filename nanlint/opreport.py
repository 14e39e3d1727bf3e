"""``nanlint ops``: the op model of ``optable`` as text or JSON.

JSON: ``{"ops": [...], "not_numeric": [...]}``. Each op has its canonical ``name``, its
``family`` (null for an op written by hand), its ``transfer``, its ``spellings``, its
``range`` and ``domain`` as ``[lo, hi]`` (null for an infinite bound), why it can be exactly
0 (``zero``) or negative (``negative``) or null, the points where its gradient is singular
(``gradient``) and whether finite inputs can make it overflow (``overflows``).
``not_numeric`` lists the spellings declared not numeric, and whole namespaces as ``ns.*``.
"""

from __future__ import annotations

import math
from typing import List, Optional, Tuple

from nanlint import optable
from nanlint.optable import Op


def _bounds(lo: float, hi: float) -> List[Optional[float]]:
    return [None if math.isinf(lo) else lo, None if math.isinf(hi) else hi]


def _why(reason: Optional[optable.Reason]) -> Optional[str]:
    return reason.why if reason is not None else None


def as_json() -> dict:
    families = optable.TABLE.family
    ops = [{"name": op.name, "family": families.get(op.name), "transfer": op.transfer,
            "spellings": list(op.spellings), "range": _bounds(op.lo, op.hi),
            "domain": _bounds(*op.domain), "zero": _why(op.zero),
            "negative": _why(op.negative), "gradient": list(op.gradient),
            "overflows": op.overflows}
           for op in optable.TABLE.by_name.values()]
    not_numeric = sorted(optable.NOT_NUMERIC) + [
        f"{namespace}.*" for namespace in optable.NOT_NUMERIC_NAMESPACES]
    return {"ops": ops, "not_numeric": not_numeric}


def _interval(bounds: Tuple[float, float], open_: Tuple[bool, bool] = (False, False)) -> str:
    lo, hi = bounds
    left = "(" if math.isinf(lo) or open_[0] else "["
    right = ")" if math.isinf(hi) or open_[1] else "]"
    return f"{left}{lo:g}, {hi:g}{right}"


def describe(op: Op) -> str:
    """One line of what the model says of ``op``."""
    parts = [f"transfer {op.transfer}"]
    if op.transfer == "range" or op.lo > -math.inf or op.hi < math.inf:
        parts.append(f"range {_interval((op.lo, op.hi), (op.lo_open, op.hi_open))}")
    if op.domain != (-math.inf, math.inf):
        parts.append(f"domain {_interval(op.domain)}")
    if op.zero is not None:
        parts.append(f"zero: {op.zero.why}")
    if op.negative is not None:
        parts.append(f"negative: {op.negative.why}")
    if op.gradient:
        parts.append("gradient singular at " + ", ".join(op.gradient))
    if op.overflows:
        parts.append("overflows")
    return "; ".join(parts)


def as_text() -> str:
    families = optable.TABLE.family
    lines = []
    for op in optable.TABLE.by_name.values():
        family = families.get(op.name)
        lines.append(f"{op.name}" + (f" ({family})" if family else "") + f": {describe(op)}")
        lines.append("    " + " ".join(op.spellings))
    lines.append("not numeric: " + " ".join(
        [*sorted(optable.NOT_NUMERIC),
         *(f"{namespace}.*" for namespace in optable.NOT_NUMERIC_NAMESPACES)]))
    return "\n".join(lines) + "\n"
