"""NAN303 clip-in-forward-pass."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from nanlint.rule import Evidence, Rule

# What marks a value as a hidden activation: the output of a matmul/linear layer or a relu.
HIDDEN = frozenset({"linear", "relu"})


class ClipInForwardPass(Rule):
    """
    ## What it does
    Reports `tf.clip_by_value` (also `K.clip`, `keras.ops.clip`) of a hidden activation: the
    output of a `matmul`, a linear or relu layer (`Dense`, `Conv2D`, `tf.layers.dense`), or
    a relu, inside the forward computation. It is information, not an error. Clipping
    inputs, targets, probabilities before a log (softmax and sigmoid outputs) and a
    hand-written relu-n (`clip_by_value(z, 0, 6)`) is not reported.

    ## Why is this bad?
    `clip_by_value` has gradient 0 wherever it is active: the units pinned at a bound stop
    learning, and the activations that grow without bound — the usual first sign of a
    learning rate too large or an initialization too wide — are hidden instead of fixed.
    The loss then stalls or, once something else overflows, turns NaN with nothing left to
    show where it started.

    ## Example
    ```python
    h = tf.matmul(x, w1) + b1
    h = tf.clip_by_value(h, -10.0, 10.0)
    ```

    ## Use instead
    ```python
    h = tf.keras.layers.LayerNormalization()(tf.matmul(x, w1) + b1)
    # or a bounded activation: tf.tanh(h); and a lower learning rate
    ```

    ## Fix safety
    No automatic fix: the remedy (normalization, a smaller learning rate) changes the model.
    Not reported where the clipped value reaches no differentiated objective (a metric, a
    summary, a log).

    ## Options
    None.
    """

    code = "NAN303"
    hazard = "gradient"
    name = "clip-in-forward-pass"
    severity = "info"
    summary = "clip_by_value on hidden activations (zero gradient where it clips)"
    VALID = [
        "import tensorflow as tf\np = tf.clip_by_value(tf.nn.softmax(z), 1e-7, 1.0)\n"
        "l = tf.math.log(p)\n",
        "import tensorflow as tf\ndef f(images):\n    return tf.clip_by_value(images, 0.0, 1.0)\n",
        "import tensorflow as tf\nh = tf.clip_by_value(tf.matmul(x, w), 0.0, 6.0)\n",
    ]
    INVALID = [
        "import tensorflow as tf\nh = tf.matmul(x, w1) + b1\nh = tf.clip_by_value(h, -10., 10.)\n",
        "import tensorflow as tf\nclass Block(tf.keras.layers.Layer):\n"
        "    def __init__(self):\n        self.dense = tf.keras.layers.Dense(64, "
        "activation='relu')\n    def call(self, x):\n"
        "        return tf.clip_by_value(self.dense(x), -5.0, 5.0)\n",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None or op.name != "clip":
            return
        argument = self.analysis.argument(node, op, 0)
        low = self.analysis.argument(node, op, 1)
        if argument is None:
            return
        bound = self.analysis.number(low) if low is not None else None
        if bound is not None and bound.value == 0:
            return  # a hand-written relu-n: the activation itself, not a guard
        producer = self._hidden(argument, 0)
        if producer is None:
            return
        kind = self.analysis.value(producer).tags & HIDDEN
        evidence = Evidence(producer, "the output of `{src}`",
                            "a layer output that the clip cuts wherever it is large",
                            producer=min(kind),
                            name=self.compact(argument, 40) if isinstance(
                                argument, cst.Name) else None)
        self.report(node, f"`{self.source(node.func)}` clips a hidden activation: "
                    "{evidence}; where the clip is active the gradient is 0, so those units "
                    "stop learning, and growing activations are hidden instead of fixed",
                    evidence=evidence, confidence="medium",
                    suggestion="normalize the activations (`LayerNormalization`, "
                               "`BatchNormalization`), use a bounded activation (`tanh`), "
                               "or lower the learning rate")

    def _hidden(self, expr: cst.BaseExpression, depth: int) -> Optional[cst.BaseExpression]:
        """The matmul, linear layer or relu whose output ``expr`` is (a bias added or not)."""
        if depth > 8:
            return None
        if isinstance(expr, cst.Name):
            definition = self.analysis.definition(expr)
            return self._hidden(definition, depth + 1) if definition is not None else None
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator,
                                                                (cst.Add, cst.Subtract)):
            return self._hidden(expr.left, depth + 1) or self._hidden(expr.right, depth + 1)
        if isinstance(expr, cst.Call) and self.analysis.value(expr).tags & HIDDEN:
            return expr
        return None
