"""NAN201 sqrt-zero-gradient."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from nanlint.rule import Rule


class SqrtZeroGradient(Rule):
    """
    ## What it does
    Flags a square root — `tf.sqrt`, `tf.math.sqrt`, `K.sqrt`, `keras.ops.sqrt`,
    `tf.pow(x, 0.5)`, `x ** 0.5` — of a value that can be exactly 0 while a gradient flows
    through it: a mean squared error (RMSE used as a loss), a sum of squared differences
    (a hand-written euclidean distance, which NAN202 reports in its place when enabled),
    a hand-computed variance `E[x²] - E[x]²`, squared distances expanded through a Gram
    matrix `|a|² - 2<a, b> + |b|²` (0 on the diagonal of a batch against itself and, by
    rounding, negative there, so `d + eps` does not guard it: `maximum(d, 0) + eps` does),
    `1 - c²` or `1 - |c|` of a cosine of normalized vectors or a tanh (a sine), a variance of
    `tf.nn.moments`, a relu output, and a sum of squared
    gradients (from `tf.gradients`, `tape.gradient`, `tape.jacobian`,
    `optimizer.compute_gradients`), which are exactly 0 wherever a relu is dead: the
    WGAN-GP gradient penalty `sqrt(reduce_sum(square(grads), axis))` (a gradient with
    respect to an input — an interpolate, a tensor a tape watches — is 0 in an example, not
    over the whole batch at once: a root of its sum over every axis is not reported; nor
    where the critic is a
    function of the file whose units all keep a non-zero slope — leaky relu, elu, tanh — and
    none is flat anywhere — a relu, a clip: then no input zeroes its input gradient), and a
    variance op
    (`tf.math.reduce_variance`, `K.var`, `keras.ops.var`), 0 for a constant row. It also
    flags `sqrt(exp(v))`, which is 0 once `exp` underflows, `sqrt(exp(v) * c)` (or
    `exp(v) / c`), whose product is 0 with it whatever finite `c` is (box sizes decoded
    as `sqrt(exp(raw) * anchors / grid)`), and a standard deviation (`tf.math.reduce_std`,
    `K.std`, `keras.ops.std`, which are `sqrt(var)`) that normalizes behind an epsilon,
    `(x - mean) / (std + eps)`: the value is finite, the gradient of the root is not (an
    unguarded `x / std` is NAN101's); and the reciprocal root
    `tf.math.rsqrt(x)` / `keras.ops.rsqrt(x)` of such a value, which is infinite at 0 and
    so is its gradient. A fractional power other than 0.5 (`tf.pow(x, 0.2)`, `x ** 0.2`) is
    reported the same way and called what it is: a fractional power, whose gradient
    `0.2 * x ** -0.8` is infinite at 0 too. A negative power (`x ** -0.5`) is inf at 0 in
    its value: NAN101 reports it, as the division it is. A root of a value shown to go
    below 0 (a tanh, `1 - exp(x)` where `x` can be positive; not below 0 by rounding alone)
    is NaN in the value itself: it is reported whether or not a gradient is shown to flow.

    ## Why is this bad?
    The derivative of `sqrt(x)` is `1 / (2 * sqrt(x))`: infinite at `x = 0`, and the chain
    rule turns `inf * 0` into `NaN`. Training drives an RMSE loss or the distance between
    matching pairs towards exactly 0, so the better the model gets, the closer it is to a
    NaN gradient. `tf.sqrt(tf.exp(v))` underflows to 0 for `v < -87` in float32, with the
    same NaN gradient, although `tf.exp(v / 2)` computes the same value without a
    singularity.

    ## Example
    ```python
    def rmse(y_true, y_pred):
        return tf.sqrt(tf.reduce_mean(tf.square(y_true - y_pred)))
    ```

    ## Use instead
    ```python
    def mse(y_true, y_pred):  # train on the MSE; report the RMSE as a metric
        return tf.reduce_mean(tf.square(y_true - y_pred))

    distance = tf.sqrt(tf.reduce_sum(tf.square(a - b), axis=-1) + 1e-7)
    std = tf.exp(0.5 * log_var)  # instead of tf.sqrt(tf.exp(log_var))
    ```

    ## Fix safety
    Safe for the root of an exp, else unsafe. Unsafe: where the argument can be 0 (and is
    not known to be negative), the fix adds the configured `fix-epsilon` inside the root or
    power (`tf.sqrt(x + 1e-7)`, `(x + 1e-7) ** 0.5`, `tf.pow(x + 1e-7, 0.5)`,
    `tf.pow(x + 1e-7, 0.2)`; `fix-epsilon-gradient`, default `1e-12`, under a root of squared
    gradients; `K.std(x)` → `K.sqrt(K.var(x) + 1e-7)`), which changes values near 0 and is
    applied only with `--unsafe-fixes`; the help line shows the code the fix writes, with the
    configured epsilon. `tf.sqrt(tf.exp(v))` → `tf.exp(0.5 * v)` is exact and is a safe fix;
    `sqrt(exp(v) * c)` gets no fix (write `tf.exp(0.5 * v) * tf.sqrt(c)`). A value that can
    be negative gets no fix.

    Not reported where the root's value reaches no differentiated objective: an RMSE that
    is only printed, summarized, fetched by `sess.run` or tracked as a metric takes no
    gradient.

    ## Options
    None.
    """

    code = "NAN201"
    hazard = "gradient"
    name = "sqrt-zero-gradient"
    severity = "warning"
    summary = "square root of a value that can be 0 (infinite gradient)"
    fix_safety = "unsafe"
    fix_safety_detail = "safe for the root of an exp, else unsafe"
    VALID = [
        "import tensorflow as tf\nd = tf.sqrt(tf.reduce_sum(tf.square(a - b)) + 1e-7)\n",
        "import tensorflow as tf\ndef f(variance):\n    return tf.sqrt(variance)\n",
        "import tensorflow as tf\nstd = tf.exp(0.5 * log_var)\n",
        "import math\ns = math.sqrt(2.0)\n",
        "from keras import backend as K\ndef norm(x):\n"
        "    s = K.sqrt(K.var(x, axis=-1, keepdims=True) + 1e-6)\n    return x / (s + 1e-6)\n",
    ]
    INVALID = [
        "import tensorflow as tf\n"
        "def rmse_loss(y, p):\n    return tf.sqrt(tf.reduce_mean(tf.square(y - p)))\n",
        "from tensorflow.keras import backend as K\ndef distance_loss(a, b):\n"
        "    return K.sum(K.square(a - b)) ** 0.5\n",
        "import tensorflow as tf\ndef sample_loss(log_var, noise):\n"
        "    return tf.reduce_mean(tf.sqrt(tf.exp(log_var)) * noise)\n",
        "import tensorflow as tf\ndef gradient_penalty(d, x):\n"
        "    g = tf.gradients(d, [x])[0]\n"
        "    slopes = tf.sqrt(tf.reduce_sum(tf.square(g), axis=1))\n"
        "    return tf.reduce_mean((slopes - 1.0) ** 2)\n",
        "import keras\nfrom keras import backend as K\nclass Norm(keras.layers.Layer):\n"
        "    def call(self, x):\n        s = K.std(x, axis=-1, keepdims=True)\n"
        "        return x / (s + 1e-6)\n",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None:
            return
        if op.name in ("sqrt", "rsqrt"):
            self._check(node, self.analysis.argument(node, op, 0), op.name == "rsqrt")
        elif op.name == "std":
            self._check_std(node)
        elif op.name == "pow":
            exponent = self.analysis.argument(node, op, 1)
            power = self._fractional(exponent)
            if power is not None:
                self._check(node, self.analysis.argument(node, op, 0), power=power)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Power):
            power = self._fractional(node.right)
            if power is not None:
                self._check(node, node.left, power=power)

    def _fractional(self, exponent: Optional[cst.BaseExpression]) -> Optional[float]:
        number = self.analysis.value(exponent).const if exponent is not None else None
        return number if number is not None and 0 < number < 1 else None

    def _check(self, node: cst.CSTNode, argument: Optional[cst.BaseExpression],
               reciprocal: bool = False, power: float = 0.5) -> None:
        if argument is None:
            return
        value = self.analysis.value(argument)
        shown = self.source(argument)
        # `x ** 0.5` is a square root; `x ** 0.2` is a fractional power, whose gradient
        # `0.2 * x ** -0.8` is infinite at 0 just the same.
        root = "square root" if power == 0.5 else f"fractional power {power:g}"
        if reciprocal:
            self._check_reciprocal(node, argument, value, shown)
            return
        if "exp" in value.tags and value.zero is None and power == 0.5:
            inner = self._exp_argument(argument)
            self.report(node, f"square root of `{shown}`: exp underflows to 0 below -87 in "
                        "float32 and the gradient of the root is then NaN",
                        confidence="high",
                        suggestion=f"use `tf.exp(0.5 * {inner})`, which is equal and has no "
                        "singularity" if inner else "use `tf.exp(0.5 * v)` instead",
                        fix=self._halved_exponent(node, argument))
            return
        if ("exp_scaled" in value.tags and value.zero is None and value.node is not None
                and power == 0.5):
            inner = self._exp_argument(value.node)
            exp_shown = self.compact(value.node, 40)
            self.report(node, f"square root of `{self.compact(argument)}`, a product with "
                        f"`{exp_shown}`: exp underflows to 0 below -87 in float32, the "
                        "product with it is then exactly 0 and the gradient of the root is "
                        "NaN (0 / 0)", confidence="high",
                        suggestion=f"take the root in the exponent: `tf.exp(0.5 * {inner})` "
                        "times the root of the other factors" if inner else
                        "take the root in the exponent: `tf.exp(0.5 * v)` times the root of "
                        "the other factors")
            return
        evidence = value.zero or value.negative
        if evidence is None or evidence.convention or evidence.discrete:
            return  # a count has no gradient
        guarded = None
        rounding = value.zero is not None and value.negative is not None and (
            value.negative.producer == value.zero.producer)  # below 0 only by rounding
        if (value.negative is None or rounding) and not evidence.producer.endswith(
                "_epsilon"):
            guarded = self.plus_epsilon(argument, value,
                                        parenthesize=isinstance(node, cst.BinaryOperation))
        # The help shows the code the fix writes: the same call, the epsilon inside.
        written = (self.source(node.deep_replace(argument, guarded)) if guarded is not None
                   else None)
        if "mse" in value.tags or ("mean_squared_error" in value.tags
                                   and self.analysis.in_loss_function()):
            rmse = " (RMSE as a loss)" if power == 0.5 else ""
            message = (f"{root} of the mean squared error `{shown}`{rmse}: its gradient is "
                       "infinite when the error reaches 0: {evidence}")
            suggestion = ("train on the mean squared error itself, or add an epsilon inside: "
                          f"`{written}`")
        elif value.zero is not None and value.zero.producer == "variance_epsilon":
            message = (f"{root} of `{shown}`, which can be 0 or negative (a NaN value, "
                       "an infinite gradient): {evidence}")
            prefix = self.namespace(self._op_call(value.zero.node))[1]
            suggestion = (f"clip the variance at 0 before adding the epsilon (`{prefix}.maximum("
                          "var, 0.0) + eps`), or compute it as `mean(square(x - mean(x)))`")
        elif value.zero is not None and value.zero.producer.endswith("_epsilon"):
            message = (f"{root} of `{shown}`, which can be 0 or negative (a NaN value, "
                       "an infinite gradient): {evidence}")
            prefix = self.namespace(self._op_call(value.zero.node))[1]
            suggestion = (f"clip it at 0 before adding the epsilon (`{prefix}.maximum(d, 0.0) "
                          "+ eps`)")
        elif rounding:
            message = (f"{root} of `{shown}`, which can be 0 (an infinite gradient) and, by "
                       "rounding, negative (NaN): {evidence}")
            suggestion = f"clip it at 0 and add an epsilon inside the {_short(root)}: `{written}`"
        elif value.zero is not None and value.negative is not None:
            message = (f"{root} of `{shown}`, which can be 0 (an infinite gradient) and "
                       "negative (NaN): {evidence}")
            suggestion = f"make the argument non-negative before the {_short(root)}"
        elif value.zero is not None:
            message = (f"{root} of `{shown}`, which can be 0, where its gradient is "
                       "infinite: {evidence}")
            suggestion = f"add an epsilon inside the {_short(root)}: `{written}`"
        else:
            message = f"{root} of `{shown}`, which can be negative (NaN): {{evidence}}"
            suggestion = f"make the argument non-negative before the {_short(root)}"
        fix = None
        if guarded is not None:
            fix = self.fix(f"add an epsilon inside the {_short(root)}", argument, guarded)
        # Below 0 (not by rounding alone), the root is NaN in the value: no gradient needed.
        below = value.negative is not None and not rounding and not value.negative.convention
        self.report(node, message, evidence=value.negative if below else evidence,
                    suggestion=suggestion, fix=fix, hazard="forward" if below else None)

    def _check_std(self, node: cst.Call) -> None:
        """``K.std(x)`` is ``sqrt(var(x))``: a root of a value that is 0 for a constant
        input."""
        evidence = self.analysis.value(node).zero
        if evidence is None or not self._normalizes(node):
            return
        family, prefix = self.namespace(node)
        variance = {"tf": "math.reduce_variance", "ops": "var", "K": "var"}[family]
        epsilon = self.epsilon(self.analysis.value(node))
        shown = self.source(node)
        args = ", ".join(self.source(arg).rstrip(", ") for arg in node.args)
        replacement = f"{prefix}.sqrt({prefix}.{variance}({args}) + {epsilon})"
        fix = None
        if all(not arg.star for arg in node.args):
            new = self.template(f"{prefix}.sqrt({{v}} + {epsilon})", v=node.with_changes(
                func=self.template(f"{prefix}.{variance}")))
            fix = self.fix("take the root of the variance plus an epsilon", node, new)
        self.report(node, f"`{shown}` is the square root of a variance, which can be 0, "
                    "where its gradient is infinite: {evidence}",
                    evidence=evidence,
                    suggestion=f"add an epsilon inside the root: `{replacement}`", fix=fix)

    def _normalizes(self, std: cst.Call) -> bool:
        """Whether ``std`` (or the name it is assigned to) is a denominator that the forward
        pass guards (`(x - m) / (std + eps)`, `/ maximum(std, eps)`): the layer-norm case,
        where only the gradient of the root is NaN. An unguarded one is NAN101's; a std
        that is only returned, logged or stored is the caller's business."""
        for reader in self.analysis.readers(std):
            child, parent = reader, self.analysis.parent(reader)
            while isinstance(parent, (cst.BinaryOperation, cst.Arg)) and not (
                    isinstance(parent, cst.BinaryOperation) and isinstance(
                        parent.operator, cst.Divide)):
                if isinstance(parent, cst.BinaryOperation) and not isinstance(
                        parent.operator, (cst.Add, cst.Subtract)):
                    break
                if isinstance(parent, cst.Arg):  # `maximum(std, eps)`
                    call = self.analysis.parent(parent)
                    op = self.analysis.op_of(call) if isinstance(call, cst.Call) else None
                    if op is None or op.name != "maximum":
                        break
                    parent = call
                child, parent = parent, self.analysis.parent(parent)
            denominator = None
            if isinstance(parent, cst.BinaryOperation) and isinstance(
                    parent.operator, cst.Divide) and child is parent.right:
                denominator = child
            elif isinstance(parent, cst.AugAssign) and isinstance(
                    parent.operator, cst.DivideAssign) and child is parent.value:
                denominator = child
            if denominator is not None and self.analysis.value(denominator).zero is None:
                return True
        return False

    def _check_reciprocal(self, node: cst.Call, argument: cst.BaseExpression, value,
                          shown: str) -> None:
        """``rsqrt(x)``: infinite at 0, and so is its gradient (-x^-1.5 / 2)."""
        evidence = value.zero
        if evidence is None or evidence.convention or evidence.discrete:
            return
        epsilon = self.epsilon(value, evidence)
        self.report(node, f"reciprocal square root of `{shown}`, which can be 0, where the "
                    "root and its gradient are infinite: {evidence}", evidence=evidence,
                    suggestion=f"add an epsilon inside the root: `{shown} + {epsilon}`",
                    fix=self.fix("add an epsilon inside the root", argument,
                                 self.plus_epsilon(argument, value)))

    def _halved_exponent(self, node: cst.CSTNode, argument: cst.BaseExpression):
        """``sqrt(exp(v))`` → ``exp(0.5 * v)``: equal everywhere, so a safe fix."""
        if not isinstance(argument, cst.Call) or not isinstance(node, cst.Call):
            return None
        op = self.analysis.op_of(argument)
        if op is None or op.name != "exp" or len(argument.args) != 1 or (
                argument.args[0].star or argument.args[0].keyword is not None
                or any(arg.keyword is not None for arg in node.args[1:])):
            return None  # `exp(*xs)`, or a keyword (`name=`) the rewrite would drop
        inner = argument.args[0]
        halved = argument.with_changes(args=[inner.with_changes(
            value=self.template("0.5 * {v}", v=self.operand(inner.value)))])
        return self.fix("take the root in the exponent", node, halved, safety="safe")

    def _exp_argument(self, argument: cst.BaseExpression) -> Optional[str]:
        if isinstance(argument, cst.Call):
            op = self.analysis.op_of(argument)
            if op is not None and op.name == "exp" and argument.args:
                return self.source(argument.args[0].value)
        return None


def _short(root: str) -> str:
    """"square root" → "root", "fractional power 0.2" → "power"."""
    return "root" if root == "square root" else "power"
