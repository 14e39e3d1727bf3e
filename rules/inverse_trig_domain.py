"""NAN205 inverse-trig-domain."""

from __future__ import annotations

import libcst as cst

from nanlint.rule import Rule


class InverseTrigDomain(Rule):
    """
    ## What it does
    Flags `tf.math.acos` and `tf.math.asin` (also `tf.acos`, `tf.asin`, `keras.ops.arccos`,
    `keras.ops.arcsin`) of a value that reaches ±1 while a gradient flows through it: a
    cosine of l2-normalized vectors (`reduce_sum(l2_normalize(a) * l2_normalize(b),
    axis)`, `matmul` of two normalized batches; a vector divided by its own norm, `x /
    tf.norm(x, axis=-1, keepdims=True)`, is normalized too), a cosine similarity, a tanh,
    and a clip to `[-1, 1]`; also through variables, helper functions and structure ops. A clip to
    `[-1 + eps, 1 - eps]`, or any value whose range stays inside (-1, 1), is not reported.

    ## Why is this bad?
    The derivative of `acos(x)` is `-1 / sqrt(1 - x²)`, and that of `asin(x)` its negative:
    infinite at `x = ±1`, so the gradient is `inf` there and the chain rule makes it `NaN`.
    The cosine of a vector with itself is exactly the point: an angular loss drives
    matching pairs to cosine 1, and the diagonal of a similarity matrix is 1 by
    construction. Computed in float32, the cosine passes 1 by rounding (under TF 2.21, the
    dot of a normalized 128-wide row with itself is up to 1.0000006), and `acos` of that
    is `NaN` in the forward pass too. A tanh saturates to exactly ±1 once `|x|` passes 7.9, and a
    clip to `[-1, 1]` holds its bound wherever its input passes it.

    ## Example
    ```python
    a = tf.math.l2_normalize(u, axis=-1)
    b = tf.math.l2_normalize(v, axis=-1)
    angle = tf.math.acos(tf.reduce_sum(a * b, axis=-1))
    ```

    ## Use instead
    ```python
    cosine = tf.reduce_sum(a * b, axis=-1)
    angle = tf.math.acos(tf.clip_by_value(cosine, -1.0 + 1e-7, 1.0 - 1e-7))
    ```

    ## Fix safety
    Unsafe: the fix clips the argument to `[-1 + eps, 1 - eps]` with the configured
    `fix-epsilon` (`tf.clip_by_value`, `keras.ops.clip` in that namespace), which changes
    the angle of (nearly) parallel vectors by about `sqrt(2 * eps)` and stops its gradient
    there. It is applied only with `--unsafe-fixes`.

    Not reported where the angle reaches no differentiated objective: an angle only
    printed, summarized or tracked as a metric takes no gradient.

    ## Options
    None.
    """

    code = "NAN205"
    hazard = "gradient"
    name = "inverse-trig-domain"
    severity = "warning"
    summary = "acos or asin of a value that reaches ±1 (infinite gradient, NaN beyond)"
    fix_safety = "unsafe"
    VALID = [
        "import tensorflow as tf\ndef angle_loss(a, b):\n"
        "    c = tf.reduce_sum(tf.math.l2_normalize(a, -1) * tf.math.l2_normalize(b, -1), -1)\n"
        "    return tf.reduce_mean(tf.math.acos(tf.clip_by_value(c, -1.0 + 1e-7, 1.0 - 1e-7)))\n",
        "import tensorflow as tf\ndef angle_loss(c):\n    return tf.math.acos(c)\n",
        "import tensorflow as tf\ndef angle_loss(x):\n"
        "    return tf.math.asin(0.5 * tf.tanh(x))\n",
        "import math\nangle = math.acos(1.0)\n",
    ]
    INVALID = [
        "import tensorflow as tf\ndef angle_loss(a, b):\n"
        "    c = tf.reduce_sum(tf.math.l2_normalize(a, -1) * tf.math.l2_normalize(b, -1), -1)\n"
        "    return tf.reduce_mean(tf.math.acos(c))\n",
        "from keras import ops\ndef angle_loss(x):\n"
        "    return ops.mean(ops.arcsin(ops.tanh(x)))\n",
        "import tensorflow as tf\ndef angle_loss(c):\n"
        "    return tf.reduce_mean(tf.acos(tf.clip_by_value(c, -1.0, 1.0)))\n",
        "import tensorflow as tf\ndef angle_loss(u, v):\n"
        "    a = u / tf.norm(u, axis=-1, keepdims=True)\n"
        "    b = v / tf.norm(v, axis=-1, keepdims=True)\n"
        "    return tf.reduce_mean(tf.math.acos(tf.reduce_sum(a * b, axis=-1)))\n",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None or not {"-1", "1"} <= set(op.gradient):
            return  # the op model: an op whose gradient is infinite at ±1 (acos, asin)
        argument = self.analysis.argument(node, op, 0)
        if argument is None:
            return
        value = self.analysis.value(argument)
        evidence = value.bound
        if evidence is None or (value.hi < 1 and value.lo > -1) or (
                value.hi_open and value.lo_open and value.hi <= 1 and value.lo >= -1):
            return
        func, shown = self.source(node.func), self.source(argument)
        beyond = ("; float32 rounding takes it past ±1, where the value is NaN"
                  if evidence.producer == "cosine" else "")
        family, prefix = self.namespace(node)
        clip = f"{prefix}.clip" if family == "ops" else f"{prefix}.clip_by_value"
        epsilon = self.epsilon(value)
        clipped = self._narrowed(argument, epsilon) or self.template(
            f"{clip}({{x}}, -1.0 + {epsilon}, 1.0 - {epsilon})", x=argument)
        self.report(node, f"`{func}` of `{shown}`, which reaches ±1, where its gradient "
                    f"is infinite{beyond}: {{evidence}}", evidence=evidence,
                    suggestion=f"clip the argument inside the domain: "
                    f"`{self.source(node.deep_replace(argument, clipped))}`",
                    fix=self.fix("clip the argument to [-1 + eps, 1 - eps]", argument,
                                 clipped))

    def _narrowed(self, argument: cst.BaseExpression, epsilon: str):
        """A clip to [-1, 1] written as the argument: the same clip with its bounds moved
        inside by ``epsilon`` (rather than a clip of a clip)."""
        op = self.analysis.op_of(argument) if isinstance(argument, cst.Call) else None
        if op is None or op.name != "clip":
            return None
        low, high = self.analysis.argument(argument, op, 1), self.analysis.argument(
            argument, op, 2)
        if low is None or high is None or self.analysis.value(low).const != -1 or (
                self.analysis.value(high).const != 1):
            return None
        narrowed = argument.deep_replace(low, self.expression(f"-1.0 + {epsilon}"))
        return narrowed.deep_replace(narrowed.args[[a.value for a in argument.args].index(
            high)].value, self.expression(f"1.0 - {epsilon}"))
