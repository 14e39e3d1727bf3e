"""NAN105 vanishing-epsilon."""

from __future__ import annotations

import math
from typing import Optional, Tuple

import libcst as cst

from nanlint.rule import (FLOAT16, FLOAT16_MAX, OPTIMIZER_EPSILON, Evidence, Fix, Option, Rule,
                          Value, WIDE, stored)

# What each dtype can hold (IEEE 754; bfloat16 is float32 with 8 significand bits).
FLOAT32_EPSILON = 1.1920929e-07  # machine epsilon: 1 + 1e-7 is the next float32 after 1
FLOAT16_EPSILON = 9.765625e-04
FLOAT16_TINY = 6.1035156e-05  # smallest normal float16
FLOAT16_SUBNORMAL = 5.9604645e-08  # smallest subnormal float16: below half of it is 0.0
# Epsilon candidates offered as a replacement, smallest first: the first that survives wins.
CANDIDATES = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2)
# Where a constant sum meets a tensor inside a call: elementwise ops that convert it.
MEETING_OPS = frozenset({"clip", "maximum", "minimum", "add", "subtract", "multiply",
                         "divide", "where", "divide_no_nan"})
_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)
_LITERALS = (cst.Integer, cst.Float)


def _number(value: float) -> str:
    """``1e-08`` → ``1e-8``, ``0.0009765625`` → ``9.77e-4``: numbers as people write them."""
    text = f"{value:.3g}"
    if "e" not in text and 0 < abs(value) < 0.01:
        mantissa, exponent = f"{value:.2e}".split("e")
        text = f"{mantissa.rstrip('0').rstrip('.')}e{exponent}"
    return text.replace("e-0", "e-").replace("e+0", "e+")


class VanishingEpsilon(Rule):
    """
    ## What it does
    Flags an epsilon that its dtype cannot hold next to the other terms:

    - a constant sum such as `1e-10 + 1` or `1 - 1e-10` that meets a float32 tensor
      (`1e-10 + 1 - tf.sigmoid(z)`, `tf.clip_by_value(p, 1e-10, 1 - 1e-10)`): Python folds
      it in float64, but it becomes exactly `1.0` when it is converted to float32 (an
      epsilon is a small number, below 1e-2: the `+ 1` of a mask fill `-(2**32) + 1` is no
      epsilon, and losing it guards nothing that was guarded). A clip's upper bound is not
      reported where the clipped value only feeds a `log`: `log(1)` is 0, and only `1 - p`
      needs p kept below 1;
    - an epsilon below `float16-min-epsilon` (default 1e-4) added to a float16 value, or used
      as the lower bound of a `tf.clip_by_value` / `tf.maximum` of one: a value from
      `tf.cast(x, tf.float16)` or `dtype=tf.float16`, or, under a float16 dtype policy
      (`tf.keras.mixed_precision.set_global_policy('mixed_float16')`, `'float16'`,
      `tf.keras.backend.set_floatx('float16')`), a value inside a layer's `call`;
    - an optimizer `epsilon` that float16 flushes to 0 (`Adam(epsilon=1e-8)`, also passed
      positionally, `tf.train.AdamOptimizer(1e-3, 0.9, 0.999, 1e-8)`, or left at its
      default: TF1's `AdamOptimizer` and `AdadeltaOptimizer` default to 1e-8,
      `RMSPropOptimizer` to 1e-10; Keras' 1e-7 is a float16 subnormal, not 0) under a pure
      float16 policy (`set_floatx('float16')`, the policy `'float16'`) or where the module
      creates its variables as float16 (`tf.get_variable(..., dtype=tf.float16)`).

    The epsilon may be a literal, a named constant (`EPS = 1e-10` at module level), an
    entry of a config dict (`CONFIG["eps"]`) or a parameter's default (`def loss(p,
    eps=1e-10)`: what the function uses wherever a caller leaves it out; the message says
    where the default is written). Python reads `1e-10 + 1 - p` as
    `(1e-10 + 1) - p`, so the epsilon is absorbed before `p` is subtracted; `1 - p + 1e-10`
    is fine.

    ## Why is this bad?
    float32 resolves 1.19e-7 relative to a value (its machine epsilon), so any term below
    ~6e-8 vanishes next to 1: `log(1e-10 + 1 - sigmoid(100))` is `-inf` despite the
    "epsilon". float16 is much coarser: machine epsilon 9.77e-4 (`1 + 1e-4` is 1.0), smallest
    normal 6.1e-5, smallest subnormal ~6e-8 — `1e-8` in float16 is `0.0`, and `1 / 1e-5`
    exceeds the float16 maximum 65504. An epsilon that rounds away guards nothing: the log,
    the division or the optimizer's `m / (sqrt(v) + epsilon)` it was meant to protect sees 0.
    Under the *mixed* policy Keras keeps variables and optimizer slots in float32, so an
    optimizer epsilon is not reported there; under a pure float16 policy the slots are
    float16 too.
    The severity is warning: the value is wrong only near the point the epsilon was meant to
    guard, and other code may keep it away from there.

    ## Example
    ```python
    p = tf.sigmoid(logits)
    loss = -tf.math.log(1e-10 + 1 - p)
    p = tf.clip_by_value(p, 1e-10, 1.0 - 1e-10)
    h = tf.cast(x, tf.float16)
    y = h / (tf.reduce_sum(h) + 1e-8)
    ```

    ## Use instead
    ```python
    loss = -tf.math.log(1 - p + 1e-7)  # or tf.math.log_sigmoid(-logits)
    p = tf.clip_by_value(p, 1e-7, 1.0 - 1e-7)  # tf.keras.backend.epsilon()
    y = h / (tf.reduce_sum(h) + 1e-4)  # or compute the sum in float32
    ```

    ## Fix safety
    Unsafe: the fix replaces a literal epsilon by one the dtype holds — the smallest of
    1e-7, 1e-6, ... that survives next to the other term of a constant sum (`1e-10 + 1` →
    `1e-7 + 1`), `fix-epsilon-float16` (default 1e-3, at least `float16-min-epsilon`) next to
    a float16 value, and `1e-4` for an optimizer's `epsilon`. A larger epsilon changes
    values near the point it guards, so it is applied only with `--unsafe-fixes`. A named
    constant (`EPS = 1e-10`) is not rewritten: its other uses may be right as they are.

    ## Options
    - `float16-min-epsilon` (number, default `1e-4`): the smallest epsilon accepted next to
      a float16 value. Below it the message says what float16 makes of it (0, a subnormal,
      a reciprocal above 65504).
    """

    code = "NAN105"
    hazard = "forward"
    name = "vanishing-epsilon"
    severity = "warning"
    summary = "epsilon too small to survive its dtype"
    fix_safety = "unsafe"
    options = {
        "float16-min-epsilon": Option(1e-4, float, "the smallest epsilon accepted next to a "
                                      "float16 value"),
    }
    VALID = [
        "import tensorflow as tf\np = tf.sigmoid(z)\nl = tf.math.log(1 - p + 1e-7)\n",
        "import tensorflow as tf\np = tf.clip_by_value(tf.sigmoid(z), 1e-7, 1 - 1e-7)\n",
        "import tensorflow as tf\nh = tf.cast(x, tf.float16)\ny = h / (tf.reduce_sum(h) + 1e-3)\n",
        "weights = (0.435575156943986 - 4e-10, 0.023291483426056 + 1e-15)\n",
    ]
    INVALID = [
        "import tensorflow as tf\np = tf.sigmoid(z)\nl = tf.math.log(1e-10 + 1 - p)\n",
        "from tensorflow.keras import backend as K\n"
        "def loss(y_true, y_pred):\n    return K.clip(y_pred, 1e-10, 1.0 - 1e-10)\n",
        "import tensorflow as tf\nh = tf.cast(x, tf.float16)\ny = tf.math.log(h + 1e-8)\n",
        "import tensorflow as tf\ntf.keras.backend.set_floatx('float16')\n"
        "opt = tf.keras.optimizers.Adam(epsilon=1e-8)\n",
        "import tensorflow.compat.v1 as tf\nw = tf.get_variable('w', [8], dtype=tf.float16)\n"
        "opt = tf.train.AdamOptimizer(1e-3, 0.9, 0.999, 1e-8)\n",
    ]

    # -- visits -----------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None:
            return
        if "optimizer" in op.tags:
            self._check_optimizer(node)
        elif op.name in MEETING_OPS:
            self._check_call(node)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if not isinstance(node.operator, _ARITHMETIC):
            return
        for expr, other in ((node.left, node.right), (node.right, node.left)):
            if self._check_constant_sum(expr, other):
                return
        # Values only where an epsilon can meet a float16 tensor: asking them of every
        # operand of every sum was most of this rule's cost.
        if isinstance(node.operator, (cst.Add, cst.Subtract)) and self.analysis.may_hold(
                "float16"):
            left, right = self.analysis.value(node.left), self.analysis.value(node.right)
            for eps, other, eps_node in ((left, right, node.left), (right, left, node.right)):
                if self._check_float16_epsilon(node, eps, other, "added to", eps_node):
                    return

    # -- a constant sum that meets a tensor --------------------------------------------------
    def _constant_sum(self, expr: cst.BaseExpression
                      ) -> Optional[Tuple[float, float, float]]:
        """(big, small, total) for `c ± e` of two constants, e.g. `1 - 1e-10`."""
        if not (isinstance(expr, cst.BinaryOperation)
                and isinstance(expr.operator, (cst.Add, cst.Subtract))):
            return None
        # Both sides must be constants: stop at the first that is not, trying a literal first.
        first, second = ((expr.right, expr.left) if isinstance(expr.right, _LITERALS)
                         else (expr.left, expr.right))
        found = self._constant(first)
        other = self._constant(second) if found is not None else None
        if other is None:
            return None
        a, b = (found, other) if first is expr.left else (other, found)
        sign = -1.0 if isinstance(expr.operator, cst.Subtract) else 1.0
        big, small = (a, sign * b) if abs(a) >= abs(b) else (sign * b, a)
        # An epsilon is a small number: in `-(2**32) + 1` (a mask fill) the 1 is no epsilon,
        # and its loss next to 2**32 guards nothing because it was guarding nothing.
        if small == 0 or big == 0 or abs(small) >= 1e-2 * abs(big) or abs(small) >= 1e-2:
            return None
        return big, small, a + sign * b

    def _constant(self, expr: cst.BaseExpression) -> Optional[float]:
        """A literal, a named constant, an entry of a config dict (`CONFIG["eps"]`), or a
        parameter's default (`def loss(p, eps=1e-10)`: what the function uses wherever a
        caller leaves it out)."""
        const = self.analysis.value(expr).const
        if const is None and isinstance(expr, (cst.Subscript, cst.Name)):
            number = self.analysis.number(expr)
            const = number.value if number is not None else None
        return const

    def _tensor_dtype(self, other: Value) -> Optional[Tuple[str, str]]:
        """(dtype, confidence) of the tensor a constant meets, or None."""
        if not other.tensor or other.const is not None:
            return None
        if other.dtype in WIDE:
            return None
        if other.dtype:
            return other.dtype, "high"
        return "float32", "high" if other.known else "medium"

    def _check_constant_sum(self, expr: cst.BaseExpression, other_node: cst.BaseExpression
                            ) -> bool:
        found = self._constant_sum(expr)
        if found is None:
            return False
        other = self.analysis.value(other_node)
        met = self._tensor_dtype(other)
        if met is None:
            return False
        big, small, total = found
        dtype, confidence = met
        if other.zero is not None and other.zero.convention:
            confidence = "medium"  # a probability-named parameter of a loss function
        if stored(total, dtype) != stored(big, dtype) or stored(small, dtype) == 0:
            return False
        dtype = "float16" if dtype in FLOAT16 else dtype
        resolution = {"float16": FLOAT16_EPSILON, "bfloat16": 2.0 ** -7}.get(
            dtype, FLOAT32_EPSILON)
        shown = self.source(expr)
        working = next((c for c in CANDIDATES
                        if stored(big + math.copysign(c, small), dtype) != stored(big, dtype)),
                       None)
        advice = "K.epsilon()" if dtype == "float32" and working == 1e-7 else None
        message = (f"`{shown}` is {total!r} in Python (float64) but exactly "
                   f"{_number(stored(big, dtype))} once it meets a {dtype} tensor: {dtype}'s "
                   f"machine epsilon is {_number(resolution)}, so a term below "
                   f"~{_number(resolution * abs(big) / 2)} vanishes next to "
                   f"{_number(big)} and the epsilon {_number(abs(small))} guards nothing")
        if working is not None:
            suggestion = (f"use an epsilon that {dtype} can hold next to {_number(big)}: "
                          f"{_number(working)}" + (f" (`{advice}`)" if advice else ""))
            if dtype == "float16":
                suggestion += ", or keep this computation in float32"
        else:
            suggestion = "keep this computation in float32"
        fix = None
        small_node = expr.right if abs(self._constant(expr.left) or 0) >= abs(
            self._constant(expr.right) or 0) else expr.left
        if working is not None:
            fix = self._literal_fix(small_node, working)
        default = self._default(small_node)
        if default is not None:  # the change goes where the default is written
            message += "; {evidence}"
        self.report(expr, message, evidence=default, confidence=confidence,
                    suggestion=suggestion, fix=fix)
        return True

    def _default(self, name: cst.BaseExpression) -> Optional[Evidence]:
        """Where a parameter's default that ``name`` stands for is written, as evidence."""
        if not isinstance(name, cst.Name) or self.analysis.value(name).const is not None:
            return None
        number = self.analysis.number(name)
        if number is None or not isinstance(self.analysis.parent(number.node), cst.Param):
            return None
        return Evidence(number.node, "{src} by default", "wherever a caller leaves it out",
                        "high", producer="default", name=name.value)

    def _literal_fix(self, node: cst.BaseExpression, number: float) -> Optional[Fix]:
        """Replace a literal epsilon (not a named constant: its other uses may be fine)."""
        if not isinstance(node, (cst.Float, cst.Integer)):
            return None
        replacement = self.number(number).with_changes(lpar=node.lpar, rpar=node.rpar)
        return self.fix(f"use the epsilon {_number(number)}", node, replacement)

    # -- an epsilon next to a float16 value --------------------------------------------------
    def _float16_source(self, value: Value) -> Optional[Tuple[str, Optional[Evidence]]]:
        """Why ``value`` is float16: (confidence, evidence for the policy case), or None."""
        if value.const is not None:
            return None
        if value.dtype in FLOAT16:
            return "high", None
        policy = self.analysis.dtype_policy()
        if value.dtype or policy is None:
            return None
        evidence = Evidence(policy.call, "computed under the dtype policy set by `{src}`",
                            "which makes Keras layers compute in float16",
                            producer="policy")
        function = self.analysis.in_function()
        if function is not None and function.name.value == "call" and any(
                isinstance(scope, cst.ClassDef) for scope in self.analysis.cursor.scopes):
            return "medium", evidence  # a layer's `call`: its inputs are cast to float16
        return None  # TF ops outside a layer still default to float32, even under floatx

    def _check_float16_epsilon(self, node: cst.CSTNode, eps: Value, other: Value,
                               how: str, eps_node: Optional[cst.BaseExpression] = None) -> bool:
        epsilon = eps.const
        minimum = self.settings["float16-min-epsilon"]
        if epsilon is None or not 0 < epsilon < minimum:
            return False
        source = self._float16_source(other)
        if source is None:
            return False
        confidence, evidence = source
        in_float16 = stored(epsilon, "float16")
        if in_float16 == 0:
            what = "is exactly 0.0 in float16 (below half the smallest subnormal, ~6e-8)"
        elif in_float16 < FLOAT16_TINY:
            what = (f"is a float16 subnormal ({_number(in_float16)}; the smallest normal is "
                    "6.1e-5, the smallest subnormal ~6e-8)")
            if 1 / in_float16 > FLOAT16_MAX:
                what += f", and 1/{_number(epsilon)} overflows the float16 maximum 65504"
            elif confidence == "high":
                confidence = "medium"
        else:
            what = ("is below the float16 resolution next to values of size ~1 (machine "
                    "epsilon 9.77e-4: `1 + 1e-4` is 1.0 in float16)")
            if confidence == "high":
                confidence = "medium"
        shown = self.source(node)
        message = f"the epsilon {_number(epsilon)} {how} a float16 value in `{shown}` {what}"
        message += ": {evidence}" if evidence is not None else ""
        suggestion = (f"use an epsilon float16 can hold, e.g. {_number(minimum)} next to small "
                      "values (1e-3 next to values of size ~1), or compute this in float32")
        fix = None
        if eps_node is not None:
            fix = self._literal_fix(eps_node, max(self.analysis.settings.fix_epsilon_float16,
                                                  minimum))
        self.report(node, message, evidence=evidence, confidence=confidence,
                    suggestion=suggestion, fix=fix)
        return True

    def _check_call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        expressions = [arg.value for arg in node.args]
        if any(self._constant_sum(expr) is not None for expr in expressions):
            tensors = [expr for expr in expressions
                       if (value := self.analysis.value(expr)).tensor and value.const is None]
            if op is not None and op.name in ("clip", "minimum") and self._only_logged(node):
                # `log(clip(p, eps, 1 - eps))`: a lost upper bound lets p reach 1, where a
                # log is 0 and finite; only `1 - p` (its log, a division by it) minds.
                expressions = [self.analysis.argument(node, op, 1)] if op.name == "clip" else []
            for expr in expressions:
                if tensors and expr is not None and self._check_constant_sum(expr, tensors[0]):
                    return
        if op is None or op.name not in ("clip", "maximum", "add") or not (
                self.analysis.may_hold("float16")):
            return
        first = self.analysis.argument(node, op, 0)
        second = self.analysis.argument(node, op, 1)
        if first is None or second is None:
            return
        a, b = self.analysis.value(first), self.analysis.value(second)
        if op.name == "clip":
            self._check_float16_epsilon(node, b, a, "used as the lower clip bound of", second)
        elif op.name == "maximum":
            if not self._check_float16_epsilon(node, b, a, "used as the floor of", second):
                self._check_float16_epsilon(node, a, b, "used as the floor of", first)
        elif not self._check_float16_epsilon(node, b, a, "added to", second):
            self._check_float16_epsilon(node, a, b, "added to", first)

    def _only_logged(self, clip: cst.Call) -> bool:
        """Whether every reader of the clip's value (the clip, or the name it is assigned
        to; a bound around it, `maximum(minimum(p, 1 - eps), eps)`) is the argument of a
        `log`."""
        outer = clip
        while True:
            arg = self.analysis.parent(outer)
            call = self.analysis.parent(arg) if isinstance(arg, cst.Arg) else None
            op = self.analysis.op_of(call) if isinstance(call, cst.Call) else None
            if op is None or op.name not in ("clip", "minimum", "maximum"):
                break
            outer = call
        readers = self.analysis.readers(outer)
        for reader in readers:
            arg = self.analysis.parent(reader)
            call = self.analysis.parent(arg) if isinstance(arg, cst.Arg) else None
            op = self.analysis.op_of(call) if isinstance(call, cst.Call) else None
            if op is None or op.name != "log" or call.args[0] is not arg:
                return False
        return bool(readers)

    # -- optimizers -------------------------------------------------------------------------
    def _check_optimizer(self, node: cst.Call) -> None:
        evidence = self._float16_variables()
        if evidence is None:
            return  # mixed precision keeps variables and optimizer slots in float32
        spelling = self.analysis.spelling(node.func)
        position, default = OPTIMIZER_EPSILON.get(spelling, (None, None))
        expr = self.analysis.keyword(node, "epsilon")
        if expr is None and position is not None:
            positional = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
            expr = positional[position] if len(positional) > position else None
        epsilon = self.analysis.value(expr).const if expr is not None else default
        if epsilon is None or epsilon <= 0 or stored(epsilon, "float16") != 0:
            return
        if expr is not None:
            what = f"optimizer epsilon `{self.source(expr)}`"
        else:
            what = f"the default epsilon of `{self.source(node.func)}` ({_number(epsilon)})"
        self.report(node, f"{what} is exactly 0.0 in float16 (smallest subnormal ~6e-8), so "
                    "`m / (sqrt(v) + epsilon)` divides by 0 wherever v is 0: {evidence}",
                    evidence=evidence, confidence="high",
                    suggestion="use `epsilon=1e-4` (float16 holds it), or train with the "
                    "'mixed_float16' policy, which keeps the optimizer's slots in float32",
                    fix=self._literal_fix(expr, max(1e-4, self.settings["float16-min-epsilon"]))
                    if expr is not None else None)

    def _float16_variables(self) -> Optional[Evidence]:
        """Why the optimizer's slots are float16: a pure float16 dtype policy, or variables
        created with a float16 dtype in this module."""
        policy = self.analysis.dtype_policy()
        if policy is not None and policy.name == "float16":
            return Evidence(policy.call, "created under the dtype policy set by `{src}`",
                            "which makes the model's variables, and so the optimizer's slots, "
                            "float16", producer="policy")
        for call in self.analysis.calls_of("variable"):
            dtype = self.analysis.keyword(call, "dtype")
            text = self.analysis.code(dtype) if dtype is not None else ""
            if text.rsplit(".", 1)[-1].strip("'\"") in FLOAT16:
                return Evidence(call, "created for the variable `{src}`", "which is float16, "
                                "and so are the optimizer's slots for it", producer="variable")
        return None

