"""NAN304 large-init-stddev."""

from __future__ import annotations

import math
from typing import Optional, Set, Tuple

import libcst as cst

from nanlint.rule import Op, Option, Rule

# The stddev an initializer uses when none is given (None: it depends on the TF version).
DEFAULT_STDDEV = {"random_normal": 1.0, "normal_initializer": 0.05}
NORMAL_OPS = frozenset({"random_normal", "normal_initializer", "tf_normal_initializer"})


class LargeInitStddev(Rule):
    """
    ## What it does
    Flags weights initialized from a normal distribution whose stddev is too large for the
    layer's fan-in: `tf.Variable(tf.random_normal(shape))` (also `tf.random.normal`,
    `tf.random.truncated_normal`, `K.random_normal`, `keras.random.normal`, whose stddev is
    1.0 unless given), `tf.get_variable(..., initializer=tf.random_normal_initializer(stddev=1.0))`,
    `self.add_weight(..., initializer=RandomNormal(stddev=1.0))` and a Keras `RandomNormal` /
    `TruncatedNormal` initializer given to a layer. The stddev may be a constant expression
    (`2.0 / (c * 10)`) or a factor (`tf.random.normal(shape) * 0.01`).

    The fan-in comes from a literal shape (`[784, 10]`: 784; a conv kernel `[5, 5, 32, 64]`:
    5·5·32 = 800; module constants count as literal); the measure is the *gain*
    stddev × √fan-in. Where the shape is not known, nanlint assumes `assumed-fan-in` and
    reports with medium confidence. A 1-D shape is a bias, not a weight matrix, and is not
    checked; nor are embedding tables and biases (the statement or the enclosing function
    names an embedding or a bias: `def bias_variable(shape)`), non-trainable
    variables, random tensors that initialize nothing (noise, test data), and initializers
    built inside test functions, which check the initializer's API.

    ## Why is this bad?
    A layer `x @ W` with `W ~ N(0, σ²)` multiplies the scale of its input by about
    σ·√fan-in. Glorot/LeCun initialization keeps that gain at 1, He initialization at √2. A
    gain of 28 — `tf.random_normal([784, 256])` with its default stddev 1.0 — makes each
    layer's outputs 28× larger than its inputs: after two or three layers the logits are in
    the thousands, the softmax saturates to exactly 0 and 1, `log` gives `-inf`, and the
    first gradients overflow to NaN. The default `max-gain` of 8 is quiet on the TF1 Deep
    MNIST tutorial's `tf.truncated_normal(shape, stddev=0.1)` (gain 5.6 on its 3136-wide
    layer) and on small layers, and catches the default stddev 1.0 on any layer of fan-in
    above 64.

    ## Example
    ```python
    W1 = tf.Variable(tf.random_normal([784, 256]))
    init = tf.keras.initializers.RandomNormal(stddev=1.0)
    ```

    ## Use instead
    ```python
    W1 = tf.Variable(tf.random.truncated_normal([784, 256], stddev=0.02))
    W1 = tf.Variable(tf.keras.initializers.GlorotUniform()([784, 256]))
    init = tf.keras.initializers.HeNormal()
    ```

    ## Fix safety
    No automatic fix: a Glorot or He initializer changes the model's starting point.

    ## Options
    - `max-gain` (number, default `8.0`): the largest stddev × √fan-in accepted.
    - `assumed-fan-in` (integer, default `100`): the fan-in assumed where the shape is not
      literal (a helper's `shape` parameter, a Keras layer's input).
    """

    code = "NAN304"
    name = "large-init-stddev"
    severity = "warning"
    summary = "weight initializer with a stddev too large for the layer's fan-in"
    options = {
        "max-gain": Option(8.0, float, "the largest stddev times square root of fan-in "
                           "accepted"),
        "assumed-fan-in": Option(100, int, "the fan-in assumed where the shape is not "
                                 "literal"),
    }
    VALID = [
        "import tensorflow as tf\nW = tf.Variable(tf.random.truncated_normal([784, 10], "
        "stddev=0.1))\n",
        "import tensorflow as tf\nb = tf.Variable(tf.random.normal([10]))\n",
        "import tensorflow as tf\nnoise = tf.random.normal([64, 784])\n",
        "import tensorflow as tf\nlayer = tf.keras.layers.Dense(10, kernel_initializer="
        "tf.keras.initializers.RandomNormal())\n",
        "import tensorflow as tf\nW = tf.Variable(tf.keras.initializers.GlorotUniform()("
        "[784, 10]))\n",
    ]
    INVALID = [
        "import tensorflow.compat.v1 as tf\nW = tf.Variable(tf.random_normal([784, 10]))\n",
        "import tensorflow as tf\ndef weight(shape):\n"
        "    return tf.Variable(tf.random.normal(shape))\n",
        "import tensorflow as tf\nC = 0.5\nW = tf.compat.v1.get_variable('w', [1024, 512], "
        "initializer=tf.random_normal_initializer(stddev=2.0 / (C * 10)))\n",
        "from tensorflow import keras\nlayer = keras.layers.Dense(10, kernel_initializer="
        "keras.initializers.RandomNormal(stddev=1.0))\n",
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._checked: Set[int] = set()  # initializers judged with the variable they fill

    def visit_Call(self, node: cst.Call) -> None:
        if not self.analysis.gradient_may_flow():
            return  # a test builds initializers to check their API
        op = self.analysis.op_of(node)
        if op is not None and op.name == "variable":
            self._check_variable(node, op)
        elif isinstance(node.func, cst.Attribute) and node.func.attr.value == "add_weight":
            self._check_weight(node, self.analysis.keyword(node, "initializer"),
                               self.analysis.keyword(node, "shape"))
        elif op is not None and "initializer" in op.tags and id(node) not in self._checked:
            self._check_weight(node, node, None)  # e.g. a layer's kernel_initializer

    def _check_variable(self, node: cst.Call, op: Op) -> None:
        trainable = self.analysis.keyword(node, "trainable")
        if isinstance(trainable, cst.Name) and trainable.value == "False":
            return
        qualified = self.analysis.qualified_name(node.func) or ""
        if qualified.endswith("get_variable"):
            positional = [a.value for a in node.args if a.keyword is None]
            shape = self.analysis.keyword(node, "shape") or (
                positional[1] if len(positional) > 1 else None)
            self._check_weight(node, self.analysis.keyword(node, "initializer"), shape)
        else:
            self._check_weight(node, self.analysis.argument(node, op, 0),
                               self.analysis.keyword(node, "shape"))

    def _normal(self, expr: Optional[cst.BaseExpression], depth: int = 0
                ) -> Optional[Tuple[cst.Call, Op, float]]:
        """The normal draw or initializer that ``expr`` is, and a constant factor on it."""
        if expr is None or depth > 6:
            return None
        if isinstance(expr, cst.Name):
            return self._normal(self.analysis.definition(expr), depth + 1)
        if isinstance(expr, cst.BinaryOperation) and isinstance(
                expr.operator, (cst.Multiply, cst.Divide)):
            factor = self.analysis.number(expr.right)
            inner, divide = expr.left, isinstance(expr.operator, cst.Divide)
            if factor is None and not divide:
                factor, inner = self.analysis.number(expr.left), expr.right
            found = self._normal(inner, depth + 1) if factor is not None else None
            if found is None or factor.value == 0:
                return None
            call, op, scale = found
            return call, op, scale / factor.value if divide else scale * factor.value
        if isinstance(expr, cst.Call):
            op = self.analysis.op_of(expr)
            if op is not None and op.name in NORMAL_OPS:
                return expr, op, 1.0
        return None

    def _fan_in(self, shape: Optional[cst.BaseExpression]) -> Optional[Tuple[int, bool]]:
        """(fan-in, known) of a weight of ``shape``; None for a 1-D shape (a bias)."""
        if isinstance(shape, cst.Name):
            shape = self.analysis.definition(shape) or shape
        if isinstance(shape, (cst.List, cst.Tuple)):
            if len(shape.elements) < 2:
                return None
            numbers = [self.analysis.number(e.value) for e in shape.elements[:-1]]
            if all(n is not None and 1 <= n.value < math.inf for n in numbers):
                return math.prod(int(n.value) for n in numbers), True
        return self.settings["assumed-fan-in"], False

    def _check_weight(self, node: cst.Call, init: Optional[cst.BaseExpression],
                      shape: Optional[cst.BaseExpression]) -> None:
        found = self._normal(init)
        if found is None:
            return
        call, op, scale = found
        self._checked.add(id(call))
        statement = self.analysis.cursor.statements[-1] if self.analysis.cursor.statements \
            else node
        function = self.analysis.in_function()
        context = self.analysis.module.code_for_node(statement).lower() + (
            function.name.value.lower() if function is not None else "")
        if "emb" in context or "bias" in context:
            return  # an embedding table is looked up, a bias added: neither has a fan-in
        stddev_expr = self.analysis.argument(call, op, op.args.index("stddev"))
        if stddev_expr is None:
            stddev = DEFAULT_STDDEV.get(op.name)
        else:
            number = self.analysis.number(stddev_expr)
            stddev = number.value if number is not None else None
        if stddev is None:
            return
        if op.name == "random_normal":
            shape = self.analysis.argument(call, op, 0)
        fan = self._fan_in(shape)
        if fan is None:
            return
        fan_in, known = max(1, fan[0]), fan[1]
        stddev = abs(stddev * scale)
        gain = stddev * math.sqrt(fan_in)
        limit = self.settings["max-gain"]
        if gain <= limit:
            return
        given = "given" if stddev_expr is not None or scale != 1.0 else "its default"
        where = (f"fan-in {fan_in}" if known else
                 f"an assumed fan-in of {fan_in} (the shape is not literal)")
        advice = math.sqrt(2.0 / fan_in)
        self.report(call, f"`{self.compact(call.func)}` initializes a weight with stddev "
                    f"{stddev:g} ({given}): with {where} each layer multiplies the scale of "
                    f"its input by ~{gain:.3g} (stddev x sqrt(fan-in), limit {limit:g}), so "
                    "activations and logits blow up and the loss turns inf/NaN",
                    confidence="high" if known else "medium",
                    suggestion=f"use a Glorot or He initializer, or stddev ~{advice:.2g} "
                               f"(sqrt(2 / fan-in)), e.g. `tf.random.truncated_normal(shape, "
                               f"stddev={advice:.2g})`")
