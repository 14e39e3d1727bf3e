"""NAN303 clip-in-forward-pass."""

from __future__ import annotations

import re
from typing import Optional, Set

import libcst as cst

from nanlint.rule import Evidence, Rule

# Names of an output head that holds the log of a scale (exp follows, so a clip belongs).
LOG_SCALE = re.compile(r"log_?var|log_?sigma|log_?std|log_?scale|log_?variance")
# What marks a value as a hidden activation: the output of a matmul/linear layer or a relu.
HIDDEN = frozenset({"linear", "relu"})


class ClipInForwardPass(Rule):
    """
    ## What it does
    Reports `tf.clip_by_value` (also `K.clip`, `keras.ops.clip`) of a hidden activation: the
    output of a `matmul`, a linear or relu layer (`Dense`, `Conv2D`, `tf.layers.dense`), or
    a relu, inside the forward computation. It is information, not an error. Clipping
    inputs, targets, probabilities before a log (softmax and sigmoid outputs) and a
    hand-written relu-n (`clip_by_value(z, 0, 6)`) is not reported; nor is an output head
    that holds the log of a scale — named so (`z_log_var`, `logvar`, `log_sigma`,
    `log_std`) or flowing into an `exp` in the same function — since clipping a
    log-variance before `exp` is exactly where a clip belongs.

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

    ## Preview
    It had no finding on the tutorial-style sample (tests/data/tutorials), and the
    earlier sample found none of its findings real: a clip of a hidden
    activation hides growth but produces no NaN itself. It waits in preview until a sample
    of its findings shows 2 real risks in 3.
    """

    code = "NAN303"
    preview = True
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
        "import tensorflow as tf\ndef regression_loss(x, y, w1, b1):\n"
        "    h = tf.matmul(x, w1) + b1\n    h = tf.clip_by_value(h, -10., 10.)\n"
        "    return tf.reduce_mean(tf.square(h - y))\n",
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
        if producer is None or self._log_scale_head(node, argument):
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

    def _log_scale_head(self, node: cst.Call, argument: cst.BaseExpression) -> bool:
        """A log-variance or log-scale output head, whose clip protects an `exp`: named so
        (`z_log_var`, `logvar`, `log_sigma`, `log_std`), or the clipped value flows into an
        `exp` (directly, or through the name it is assigned to)."""
        names = [argument.value] if isinstance(argument, cst.Name) else []
        statement = self.analysis.cursor.statements[-1] if self.analysis.cursor.statements \
            else None
        if isinstance(statement, cst.Assign):
            names += [t.target.value for t in statement.targets
                      if isinstance(t.target, cst.Name)]
        if any(LOG_SCALE.search(name.lower()) for name in names):
            return True
        parent = self.analysis.parent(node)
        for _ in range(4):
            if parent is None:
                break
            if isinstance(parent, cst.Call) and parent in self.analysis.calls_of("exp"):
                return True
            parent = self.analysis.parent(parent)
        wanted, function = set(names), self.analysis.in_function()
        return any(_mentions(call, wanted) and self.analysis.function_of(call) is function
                   for call in self.analysis.calls_of("exp"))

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


def _mentions(call: cst.Call, names: Set[str]) -> bool:
    """Whether the first argument of ``call`` is one of ``names`` up to arithmetic with
    constants and other names (`exp(0.5 * log_var)`), not inside another call."""
    if not call.args:
        return False
    expr = call.args[0].value
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name) and node.value in names:
            return True
        if isinstance(node, cst.BinaryOperation):
            stack += [node.left, node.right]
        elif isinstance(node, cst.UnaryOperation):
            stack.append(node.expression)
    return False
