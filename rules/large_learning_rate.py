"""NAN301 large-learning-rate."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from nanlint.rule import Evidence, Number, Op, Option, Rule

# Each optimizer family of the op table (the tag after "optimizer"), as messages name it.
FAMILIES = {
    "sgd": "plain or momentum SGD",
    "adaptive": "an adaptive optimizer, whose step per weight is about the learning rate",
    "adagrad": "Adagrad/Ftrl",
    "adadelta": "Adadelta",
}
SUM_NAMES = ("reduce_sum", "sum")


class LargeLearningRate(Rule):
    """
    ## What it does
    Flags an optimizer created with a learning rate above the limit for its family:
    `tf.compat.v1.train.*Optimizer(...)`, `tf.keras.optimizers.*`, `keras.optimizers.*`
    (also `legacy` and `experimental`), given positionally or as `learning_rate=` / `lr=`.
    The learning rate is followed to where it is written: a literal, a constant expression,
    a module constant, a parameter's default, an `argparse` `add_argument(..., default=)`, an
    absl/TF `flags.DEFINE_float(name, default, ...)`, a key of a config dict, or the initial
    value of a schedule (`ExponentialDecay(0.5, ...)`, `tf.compat.v1.train.exponential_decay
    (0.5, ...)`; the decay parameters are not learning rates).

    It also flags `GradientDescentOptimizer(lr).minimize(loss)` (any SGD-family optimizer)
    where `loss` is a sum over the batch (`-tf.reduce_sum(y_ * tf.log(y))`) and `lr` is above
    `summed-loss-max`. Optimizers created inside test functions are not checked: tests build
    them to check their API, not to train.

    ## Why is this bad?
    Each step moves the weights by the learning rate times the gradient. Too large a step
    overshoots the minimum, the loss grows instead of shrinking, and within a few steps the
    weights and activations overflow to inf and the loss becomes NaN. Adaptive optimizers
    (Adam, RMSprop, Nadam, Lion) normalise the gradient, so every weight moves by about the
    learning rate on every step whatever the loss scale: 0.1 is already a large step for a
    neural network and 1.0 scrambles it. SGD moves by learning rate × gradient, so a loss
    *summed* over the batch (instead of averaged) multiplies the effective learning rate by
    the batch size: the TF1 MNIST tutorial's `GradientDescentOptimizer(0.5)` is fine on a
    mean cross-entropy and diverges to NaN on a summed one.

    The default limits follow the catalog (`Adam(learning_rate=0.1)` and `SGD(lr=1.0)` are
    reported) and stay quiet on ordinary code: SGD up to 0.5 (the TF1 MNIST tutorial's 0.5 on
    a mean loss converges; 1.0 is where least-squares and softmax models start to
    oscillate), adaptive optimizers up to 0.05 (Keras' default is 1e-3, and 0.01 is common
    for small models; tensorflow-probability's variational fits with `Adam(0.1)` are
    reported — they work for a handful of parameters, but the same step scrambles a neural
    network), Adagrad/Ftrl up to 1.0 (the accumulated squared gradients shrink their step
    quickly, and sparse linear models use 0.1-0.5), Adadelta up to 1.0 (the value of the
    original paper, which Keras recommends). A value above the limit, or an SGD learning
    rate above 0.01 on a summed
    loss, is rarely what was meant.

    ## Example
    ```python
    cross_entropy = -tf.reduce_sum(y_ * tf.log(y))
    train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=1.0), loss="mse")
    ```

    ## Use instead
    ```python
    cross_entropy = tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=logits))
    train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=1e-3), loss="mse")
    ```

    ## Fix safety
    No automatic fix: the right learning rate depends on the model. The message suggests a
    value 10× lower.

    ## Options
    - `sgd-max` (number, default `0.5`): the largest learning rate accepted for SGD,
      momentum SGD and `GradientDescentOptimizer`.
    - `adaptive-max` (number, default `0.05`): the largest for Adam, AdamW, Adamax, Nadam,
      RMSprop, Lion, Lamb and Adafactor.
    - `adagrad-max` (number, default `1.0`): the largest for Adagrad, Ftrl and their
      proximal/dual-averaging variants.
    - `adadelta-max` (number, default `1.0`): the largest for Adadelta.
    - `summed-loss-max` (number, default `0.01`): the largest SGD learning rate accepted
      when the optimizer minimizes a loss summed over the batch.
    """

    code = "NAN301"
    name = "large-learning-rate"
    severity = "warning"
    summary = "learning rate too large for its optimizer (training diverges to inf/NaN)"
    options = {
        "sgd-max": Option(0.5, float, "the largest learning rate accepted for SGD"),
        "adaptive-max": Option(0.05, float, "the largest learning rate accepted for Adam, "
                               "RMSprop, Nadam and other adaptive optimizers"),
        "adagrad-max": Option(1.0, float, "the largest learning rate accepted for Adagrad "
                              "and Ftrl"),
        "adadelta-max": Option(1.0, float, "the largest learning rate accepted for Adadelta"),
        "summed-loss-max": Option(0.01, float, "the largest SGD learning rate accepted on a "
                                  "loss summed over the batch"),
    }
    VALID = [
        "import tensorflow as tf\nopt = tf.keras.optimizers.Adam(learning_rate=1e-3)\n",
        "import tensorflow.compat.v1 as tf\nloss = tf.reduce_mean(tf.square(y - p))\n"
        "step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)\n",
        "import tensorflow as tf\nsched = tf.keras.optimizers.schedules.ExponentialDecay(\n"
        "    1e-3, decay_steps=1000, decay_rate=10.0)\nopt = tf.keras.optimizers.SGD(sched)\n",
        "import tensorflow as tf\nmodel.compile(optimizer='sgd', loss='mse')\n",
        "import tensorflow as tf\ndef test_adam():\n"
        "    opt = tf.keras.optimizers.Adam(learning_rate=1.0)\n",
    ]
    INVALID = [
        "import tensorflow.compat.v1 as tf\ncross_entropy = -tf.reduce_sum(y_ * tf.log(y))\n"
        "train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)\n",
        "import tensorflow as tf\nopt = tf.keras.optimizers.Adam(learning_rate=0.5)\n",
        "from keras import optimizers\nmodel.compile(optimizer=optimizers.SGD(10), loss='mse')\n",
        "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--lr', type=float, default=1.0)\nargs = parser.parse_args()\n"
        "opt = tf.keras.optimizers.RMSprop(lr=args.lr)\n",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if not self.analysis.gradient_may_flow():
            return  # a test builds optimizers to check their API
        op = self.analysis.op_of(node)
        if op is not None and "optimizer" in op.tags:
            self._check_optimizer(node, op)
        elif isinstance(node.func, cst.Attribute) and node.func.attr.value == "minimize":
            self._check_minimize(node)

    def _learning_rate(self, node: cst.Call, op: Op) -> Optional[Number]:
        expr = self.analysis.argument(node, op, 0)
        return self.analysis.number(expr) if expr is not None else None

    @staticmethod
    def _family(op: Op) -> str:
        return next(tag for tag in op.tags if tag in FAMILIES)

    def _evidence(self, node: cst.Call, op: Op, number: Number,
                  why: str) -> Optional[Evidence]:
        """Where the learning rate is written, when that is not in the call itself."""
        argument = self.analysis.argument(node, op, 0)
        if number.node is argument:
            return None
        what = f"{number.via}, `{{src}}`" if number.via else "`{src}`"
        name = self.compact(argument, 40) if isinstance(
            argument, (cst.Name, cst.Attribute, cst.Subscript)) else None
        return Evidence(number.node, what, why, "medium" if number.via else "high", name=name)

    def _check_optimizer(self, node: cst.Call, op: Op) -> None:
        number = self._learning_rate(node, op)
        family = self._family(op)
        limit = self.settings[f"{family}-max"]
        if number is None or number.value <= limit:
            return
        func = self.source(node.func)
        evidence = self._evidence(node, op, number, "where it is set")
        message = (f"`{func}` trains with learning rate {number.value:g}, too large for "
                   f"{FAMILIES[family]} (limit {limit:g}): steps this large make the loss "
                   "diverge to inf/NaN")
        if evidence is not None:
            message += "; the learning rate: {evidence}"
        self.report(node, message, evidence=evidence,
                    confidence=evidence.confidence if evidence else "high",
                    suggestion=f"use a learning rate about 10x lower, e.g. "
                               f"{number.value / 10:g}, or a schedule with warm-up")

    def _check_minimize(self, node: cst.Call) -> None:
        optimizer = node.func.value
        if isinstance(optimizer, cst.Name):
            optimizer = self.analysis.definition(optimizer)
        if not isinstance(optimizer, cst.Call):
            return
        op = self.analysis.op_of(optimizer)
        if op is None or "sgd" not in op.tags or not node.args:
            return
        number = self._learning_rate(optimizer, op)
        limit = self.settings["summed-loss-max"]
        if number is None or not limit < number.value <= self.settings["sgd-max"]:
            return  # above sgd-max it is reported where the optimizer is made
        loss = self.analysis.keyword(node, "loss") or node.args[0].value
        total = self._summed(loss, 0)
        if total is None:
            return
        evidence = Evidence(total, "the sum `{src}` over the batch",
                            "so its gradient, and each step, grow with the batch size: "
                            f"{number.value:g} on a sum of 100 examples is a step of "
                            f"{number.value * 100:g} on their mean", "medium",
                            producer="sum",
                            name=self.compact(loss, 40) if isinstance(loss, cst.Name) else None)
        self.report(node, f"`{self.source(optimizer.func)}` with learning rate "
                    f"{number.value:g} minimizes a summed loss (limit {limit:g} for SGD on a "
                    "sum): training diverges to inf/NaN; the loss: {evidence}",
                    evidence=evidence,
                    suggestion="average the loss over the batch (`tf.reduce_mean`), or "
                               "divide the learning rate by the batch size")

    def _summed(self, expr: cst.BaseExpression, depth: int) -> Optional[cst.Call]:
        """The `reduce_sum` call that ``expr`` is (up to sign and constant factors)."""
        if depth > 8:
            return None
        deeper = depth + 1
        if isinstance(expr, cst.Name):
            definition = self.analysis.definition(expr)
            return self._summed(definition, deeper) if definition is not None else None
        if isinstance(expr, cst.UnaryOperation):
            return self._summed(expr.expression, deeper)
        if isinstance(expr, cst.BinaryOperation):
            if isinstance(expr.operator, cst.Add):
                return self._summed(expr.left, deeper) or self._summed(expr.right, deeper)
            if isinstance(expr.operator, (cst.Multiply, cst.Divide)):
                if self.analysis.number(expr.right) is not None:
                    return self._summed(expr.left, deeper)
                if self.analysis.number(expr.left) is not None and isinstance(
                        expr.operator, cst.Multiply):
                    return self._summed(expr.right, deeper)
            return None
        if isinstance(expr, cst.Call):
            op = self.analysis.op_of(expr)
            func = expr.func
            last = func.attr.value if isinstance(func, cst.Attribute) else ""
            if op is not None and op.name == "reduce_sum" and last in SUM_NAMES:
                return expr
        return None
