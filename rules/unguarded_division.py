"""NAN101 unguarded-division."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from nanlint.rule import Evidence, Option, Rule, Value


class UnguardedDivision(Rule):
    """
    ## What it does
    Flags a division (`a / b`, `tf.divide`, `tf.math.divide`, `tf.div`, `tf.truediv`,
    `tf.realdiv`, `keras.ops.divide`, `/=`) whose denominator is a tensor that can be exactly
    0: a count of a mask, a sum or mean of relu outputs, a sum of squares or a norm of a
    difference, `1 - p` of a probability, a trainable variable (with high confidence when
    its initializer can be 0, e.g. `tf.Variable(tf.random.uniform([], 0.0, 2.0))`, also
    kept in a config dict or returned by a helper), a hand-computed variance
    `E[x²] - E[x]²` (or `sum_sq - mean * sum`), a difference of two sums. It also flags
    `tf.math.divide_no_nan(a, b)` when `b` is a continuous value that can get tiny (a
    product of probabilities, a variance, the denominator of a normalized
    cross-correlation), which `divide_no_nan` does not guard.

    The sum of a parameter named like a mask (`mask`, `*_mask`, `valid`, `weights`,
    `is_*`: the `mask-parameters` setting), or of a parameter cast to float, is a count by
    convention: it is reported with medium confidence, and the message says so.

    ## Why is this bad?
    `x / 0` is `inf` and `0 / 0` is `NaN`; either poisons the loss, and the gradient of
    `a / b` with respect to `b` is `-a / b**2`, which overflows as `b` approaches 0 even when
    the forward value looks fine. This is the classic "loss is fine, then suddenly NaN" bug:
    one batch without a positive label, one dead relu row, one exact fit.
    `divide_no_nan` returns 0 only for an exact 0: a denominator of 1e-20 still gives a
    value of 1e20 and an infinite gradient.

    ## Example
    ```python
    count = tf.reduce_sum(tf.cast(labels > 0, tf.float32))
    loss = tf.reduce_sum(per_example * mask) / count
    ```

    ## Use instead
    ```python
    loss = tf.math.divide_no_nan(tf.reduce_sum(per_example * mask), count)
    # or, for a continuous denominator:
    loss = total / (count + 1e-7)
    ```

    ## Fix safety
    Unsafe: where the denominator is known not to be negative, the fix adds the configured
    `fix-epsilon` to it (`total / (count + 1e-7)`; `fix-epsilon-float16` for a float16
    value), also inside `tf.divide(a, b)` and `divide_no_nan(a, b)`. That changes values
    where the denominator is near 0, which is the point, so it is applied only with
    `--unsafe-fixes`. For a count, `tf.math.divide_no_nan` (0 for an empty mask) may be what
    you mean; the fix does not choose it for you. A denominator that can be negative gets
    no fix: adding an epsilon can move its zero instead of removing it.

    ## Options
    - `check-divide-no-nan` (bool, default `true`): also report `divide_no_nan` by a
      continuous value that can get tiny.
    """

    code = "NAN101"
    name = "unguarded-division"
    severity = "error"
    summary = "division by a tensor that can be 0"
    fix_safety = "unsafe"
    options = {
        "check-divide-no-nan": Option(True, bool, "also report divide_no_nan by a continuous "
                                      "value that can get tiny"),
    }
    VALID = [
        "import tensorflow as tf\nc = tf.reduce_sum(tf.cast(y > 0, tf.float32))\n"
        "r = tf.math.divide_no_nan(t, c)\n",
        "import tensorflow as tf\nh = tf.nn.relu(x)\nw = h / (tf.reduce_sum(h) + 1e-7)\n",
        "import tensorflow as tf\ndef f(x, scale):\n    return x / scale\n",
        "total = 3.0\nsteps = 2\navg = total / steps\n",
    ]
    INVALID = [
        "import tensorflow as tf\nc = tf.reduce_sum(tf.cast(y > 0, tf.float32))\nr = t / c\n",
        "import tensorflow as tf\ndef f(x, mask):\n"
        "    return tf.reduce_sum(x * mask) / tf.reduce_sum(mask)\n",
        "import tensorflow as tf\nh = tf.nn.relu(x)\nw = tf.divide(h, tf.reduce_sum(h))\n",
        "from keras import ops\nd = ops.sum(ops.square(a - b))\nr = ops.divide(1.0, d)\n",
    ]

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Divide):
            self._check(node, node.right)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.operator, cst.DivideAssign):
            self._check(node, node.value)

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None:
            return
        if op.name == "divide":
            denominator = self.analysis.argument(node, op, 1)
            if denominator is not None:
                self._check(node, denominator)
        elif op.name == "divide_no_nan" and self.settings["check-divide-no-nan"]:
            denominator = self.analysis.argument(node, op, 1)
            if denominator is not None:
                self._check_no_nan(node, denominator)

    def _evidence(self, denominator: cst.BaseExpression) -> Optional[Evidence]:
        value: Value = self.analysis.value(denominator)
        evidence = value.zero
        if evidence is None or (evidence.convention and not evidence.discrete):
            return None  # a probability-named parameter is too weak; a mask count is not
        return evidence

    def _check(self, node: cst.CSTNode, denominator: cst.BaseExpression) -> None:
        evidence = self._evidence(denominator)
        if evidence is None:
            return
        shown = self.source(denominator)
        if evidence.discrete:
            suggestion = (f"use `tf.math.divide_no_nan(numerator, {shown})`, or clamp the "
                          f"count: `tf.maximum({shown}, 1.0)`")
        else:
            suggestion = f"add an epsilon to the denominator: `({shown} + 1e-7)`"
        self.report(node, f"division by `{shown}`, which can be 0: {{evidence}}",
                    evidence=evidence, suggestion=suggestion,
                    fix=self._fix(denominator, isinstance(node, cst.BinaryOperation)))

    def _fix(self, denominator: cst.BaseExpression, operand: bool = False):
        value = self.analysis.value(denominator)
        if value.negative is not None:
            return None
        return self.fix("add an epsilon to the denominator", denominator,
                        self.plus_epsilon(denominator, value, parenthesize=operand))

    def _check_no_nan(self, node: cst.Call, denominator: cst.BaseExpression) -> None:
        evidence = self._evidence(denominator)
        if evidence is None or not evidence.tiny:
            return  # an exact 0 (a count, a mask, a relu) is what divide_no_nan guards
        shown = self.source(denominator)
        self.report(node, f"`divide_no_nan` guards only an exact 0, but `{shown}` can get "
                    f"tiny without being 0 (the value and its gradient overflow): {{evidence}}",
                    evidence=evidence.weaker("medium"),
                    suggestion=f"add an epsilon instead: `numerator / ({shown} + 1e-7)`",
                    fix=self._fix(denominator))
