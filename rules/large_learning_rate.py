"""NAN301 large-learning-rate."""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

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
FIT_METHODS = frozenset({"fit", "fit_generator", "train_on_batch"})
_CHECKED_METHODS = FIT_METHODS | {"run", "apply_gradients"}  # the calls visit_Call looks into
# Why a rate above the family's limit diverges whatever the data.
WHY = {
    "sgd": "a step of {lr:g} x the gradient overshoots even on standardized inputs, where a "
           "squared error's curvature is about 2, so lr x curvature > 2 and the loss grows "
           "to inf/NaN",
    "adaptive": "each step moves every weight by about {lr:g}, more than the size of the "
                "weights themselves (~1/sqrt(fan-in)), which scrambles the network and sends "
                "the loss to inf/NaN",
    "adagrad": "the first steps move every weight by about {lr:g}, more than the weights "
               "themselves, and the loss diverges to inf/NaN before the accumulator slows it",
    "adadelta": "steps this large make the loss diverge to inf/NaN",
}


def _single(var_list: Optional[cst.BaseExpression]) -> bool:
    """A list of one variable, or one variable given alone (not a list of variables)."""
    if isinstance(var_list, (cst.List, cst.Tuple)):
        return len(var_list.elements) == 1
    return isinstance(var_list, cst.Name)


class LargeLearningRate(Rule):
    """
    ## What it does
    Flags a learning rate that makes this code's training diverge, with the arithmetic:

    - **SGD on a squared error of data whose scale the code shows.** A mean squared error
      of `W * x + b` (or `tf.matmul(x, W)`, or a Keras model compiled with `loss="mse"`)
      has a curvature of about `2 * E[|x|^2]`, and plain SGD diverges once
      `learning_rate * curvature > 2` (with momentum `m`: `> 2 * (1 + m)`). The scale of
      `x` is known where the code writes it: `np.random.uniform(-10, 10, n)` (E[x^2] =
      33.3), `np.arange(100)` (3283), `np.linspace`, `np.random.randn`/`normal`, a literal
      list, `keras.datasets.boston_housing` (E[|x|^2] ~ 3.4e5 as stored), followed through
      `feed_dict`, assignments, `astype`/`reshape` and constant arithmetic (`x / 10`). It
      is reported on the training step (`sess.run(train, feed_dict=...)`, `model.fit`,
      `optimizer.apply_gradients`), once per optimizer.
    - **SGD on a squared error summed over the batch** (`tf.reduce_sum(tf.square(W * x
      + b - y))`, no axis): the sum's curvature is the batch size times the mean's,
      `batch * 2 * E[|x|^2]`, where the batch is a visible slice (`x[i:i + 100]`,
      `next_batch(100)`) or the whole array fed (`x_train = [32, 53, 61, 47, 59]`: 5
      examples). A sum per row (`reduce_sum(..., axis=1)`) is not over the batch.
    - **SGD on any loss summed over a batch whose size is visible** (`next_batch(100)`,
      `x[i:i + 100]` in the `feed_dict`): each step is the batch size times the step on
      the mean, reported when `learning_rate * batch size` is above `sgd-max`.
    - **A rate no network survives, whatever the data**: above `sgd-max` for SGD, above
      `adaptive-max` for Adam/RMSprop/Nadam (each weight moves by about the learning rate
      on every step), above `adagrad-max` / `adadelta-max`.

    The learning rate is followed to where it is written: a literal, a constant expression,
    a module constant, a parameter's default, an `argparse` `add_argument(..., default=)`, an
    absl/TF `flags.DEFINE_float(name, default, ...)`, a key of a config dict, or the initial
    value of a schedule (`ExponentialDecay(0.5, ...)`; the decay parameters are not learning
    rates). Not reported: an optimizer that moves one variable only (`minimize(loss,
    var_list=[image])`, `apply_gradients([(grad, image)])`: feature visualization, style
    transfer and adversarial examples optimize an input, not a network), and optimizers
    created inside test functions, which check the API.

    ## Why is this bad?
    Each step moves the weights by the learning rate times the gradient. On a squared
    error the gradient grows with the distance to the minimum times the curvature; once
    `learning_rate * curvature > 2`, every step overshoots by more than it corrects, the
    error grows geometrically and reaches inf, then NaN, in a few dozen steps. Raw data
    make the curvature large: `x` from `uniform(-10, 10)` has `E[x^2] = 33.3`, so a
    step of 0.05 gives `0.05 * 2 * 33.3 = 3.3 > 2` — the textbook "loss is nan" of a
    linear regression. A loss *summed* over the batch multiplies the gradient, and so the
    step, by the batch size: `GradientDescentOptimizer(0.5)` on a softmax regression of
    784 pixels in [0, 1] is fine on a mean cross-entropy and diverges on a sum over 100
    examples.

    An adaptive rate of 0.05-0.2 alone is no evidence: word2vec-style embeddings and small
    models train with `Adam(0.1)`. At 1.0 each step
    moves every weight by about 1, far more than the weights themselves.

    ## Example
    ```python
    x_data = np.random.uniform(-10, 10, 100)
    loss = tf.reduce_mean(tf.square(W * X + b - Y))
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
    sess.run(train, feed_dict={X: x_data, Y: y_data})
    ```

    ## Use instead
    ```python
    x_data = np.random.uniform(-10, 10, 100)
    x_data = (x_data - x_data.mean()) / x_data.std()  # or a learning rate below 0.03
    loss = tf.reduce_mean(tf.square(W * X + b - Y))
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
    sess.run(train, feed_dict={X: x_data, Y: y_data})
    ```

    ## Fix safety
    No automatic fix: scaling the data or lowering the rate changes the training. The
    message gives the largest stable rate for the data it saw.

    ## Options
    - `sgd-max` (number, default `1.0`): the largest SGD learning rate accepted without
      evidence about the data (a squared error of standardized inputs has curvature ~2, so
      SGD above 1 overshoots), and the largest `learning_rate * batch size` on a summed loss.
    - `adaptive-max` (number, default `0.5`): the largest for Adam, AdamW, Adamax, Nadam,
      RMSprop, Lion, Lamb and Adafactor.
    - `adagrad-max` (number, default `1.0`): the largest for Adagrad, Ftrl and their
      proximal/dual-averaging variants.
    - `adadelta-max` (number, default `1.0`): the largest for Adadelta.

    ## Preview
    Judged on 6 findings in real repositories nobody here had tuned on, 2 were real and 4
    false: an optimizer whose epsilon is large enough to set the step size, an optimizer
    nothing steps, a rate read against a squared error's curvature where the loss is a
    cross-entropy. A rate is safe or not by the loss, the data's scale and the model
    together. It waits in preview until a sample shows 2 in 3; `nanlint suspects` ranks
    learning-rate literals.
    """

    code = "NAN301"
    preview = True
    name = "large-learning-rate"
    severity = "warning"
    summary = "learning rate too large for its optimizer (training diverges to inf/NaN)"
    options = {
        "sgd-max": Option(1.0, float, "the largest learning rate accepted for SGD"),
        "adaptive-max": Option(0.5, float, "the largest learning rate accepted for Adam, "
                               "RMSprop, Nadam and other adaptive optimizers"),
        "adagrad-max": Option(1.0, float, "the largest learning rate accepted for Adagrad "
                              "and Ftrl"),
        "adadelta-max": Option(1.0, float, "the largest learning rate accepted for Adadelta"),
    }
    VALID = [
        "import tensorflow as tf\nopt = tf.keras.optimizers.Adam(learning_rate=1e-3)\n",
        "import tensorflow as tf\nopt = tf.keras.optimizers.Adam(0.1)\n",
        "import numpy as np\nimport tensorflow as tf\nx = np.random.uniform(-1, 1, 100)\n"
        "w = tf.Variable(0.)\nopt = tf.keras.optimizers.SGD(0.05)\nwith tf.GradientTape() as t:\n"
        "    loss = tf.reduce_mean(tf.square(w * x - 1.))\n"
        "opt.apply_gradients(zip(t.gradient(loss, [w]), [w]))\n",
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
        "train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)\n"
        "xs, ys = mnist.train.next_batch(100)\n"
        "sess.run(train_step, feed_dict={x: xs, y_: ys})\n",
        "import tensorflow as tf\nopt = tf.keras.optimizers.Adam(learning_rate=1.0)\n",
        "import numpy as np\nimport tensorflow as tf\nx = np.random.uniform(-10, 10, 100)\n"
        "w = tf.Variable(0.)\nopt = tf.keras.optimizers.SGD(0.05)\nwith tf.GradientTape() as t:\n"
        "    loss = tf.reduce_mean(tf.square(w * x - 1.))\n"
        "opt.apply_gradients(zip(t.gradient(loss, [w]), [w]))\n",
        "from keras import optimizers\nmodel.compile(optimizer=optimizers.SGD(10), loss='mse')\n",
        "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--lr', type=float, default=1.0)\nargs = parser.parse_args()\n"
        "opt = tf.keras.optimizers.RMSprop(lr=args.lr)\n",
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._judged: Set[int] = set()  # optimizers already reported at a training step

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        optimizer = op is not None and "optimizer" in op.tags
        func = node.func
        if not optimizer and (func.__class__ is not cst.Attribute
                              or func.attr.value not in _CHECKED_METHODS):
            return  # (the cheap questions first: most calls are none of these)
        if not self.analysis.gradient_may_flow():
            return  # a test builds optimizers to check their API
        if optimizer:
            self._check_optimizer(node, op)
            return
        method = func.attr.value
        if method == "run":
            self._check_session_run(node)
        elif method in FIT_METHODS:
            self._check_fit(node)
        elif method == "apply_gradients":
            self._check_apply_gradients(node)

    # -- the optimizer alone: only rates no model survives ---------------------------------
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
        if number is None or number.value <= limit or self._trains_one_variable(node):
            return
        func = self.source(node.func)
        evidence = self._evidence(node, op, number, "where it is set")
        why = WHY[family].format(lr=number.value)
        message = (f"`{func}` trains with learning rate {number.value:g}, too large for "
                   f"{FAMILIES[family]} (limit {limit:g}): {why}")
        if evidence is not None:
            message += "; the learning rate: {evidence}"
        self.report(node, message, evidence=evidence,
                    confidence=evidence.confidence if evidence else "high",
                    suggestion=f"use a learning rate about 10x lower, e.g. "
                               f"{number.value / 10:g}, or a schedule with warm-up")

    def _trains_one_variable(self, node: cst.Call) -> bool:
        """The optimizer moves one variable only — an input image, a latent vector (feature
        visualization, style transfer, adversarial examples) — not a network's weights."""
        uses: List[cst.Call] = []
        parent = self.analysis.parent(node)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            call = self.analysis.parent(parent)
            if isinstance(call, cst.Call):
                uses.append(call)
        statement = self.analysis.cursor.statements[-1] if self.analysis.cursor.statements \
            else None
        if isinstance(statement, cst.Assign) and statement.value is node:
            for target in statement.targets:
                if isinstance(target.target, cst.Name):
                    uses += self.analysis.method_calls(target.target.value, "minimize",
                                              "apply_gradients", "compute_gradients")
        return bool(uses) and all(self._one_variable(use) for use in uses)

    def _one_input(self, var_list: Optional[cst.BaseExpression]) -> bool:
        """A single variable that is no matmul/conv kernel: an input being optimized."""
        if not _single(var_list):
            return False
        variable = var_list.elements[0].value if isinstance(
            var_list, (cst.List, cst.Tuple)) else var_list
        if not isinstance(variable, cst.Name):
            return True
        return not any(len(call.args) > 1 and isinstance(call.args[1].value, cst.Name)
                       and call.args[1].value.value == variable.value
                       for call in self.analysis.calls_of("matmul"))

    def _one_variable(self, use: cst.Call) -> bool:
        func = use.func
        method = func.attr.value if isinstance(func, cst.Attribute) else ""
        if method in ("minimize", "compute_gradients"):
            var_list = self.analysis.keyword(use, "var_list")
            if var_list is None and len(use.args) > 1 and use.args[1].keyword is None:
                var_list = use.args[1].value
            return self._one_input(var_list)
        if method == "apply_gradients" and use.args:
            pairs = use.args[0].value
            if isinstance(pairs, cst.List) and len(pairs.elements) == 1:
                pair = pairs.elements[0].value  # [(grad, image)]
                return isinstance(pair, cst.Tuple) and len(pair.elements) == 2 and \
                    self._one_input(cst.List([cst.Element(pair.elements[1].value)]))
            if (isinstance(pairs, cst.Call) and isinstance(pairs.func, cst.Name)
                    and pairs.func.value == "zip" and len(pairs.args) == 2):
                return self._one_input(pairs.args[1].value)
        return False

    # -- a training step: the loss, the data and the learning rate together ---------------
    def _optimizer_of(self, expr: Optional[cst.BaseExpression]
                      ) -> Optional[Tuple[cst.Call, Op, Number]]:
        """The optimizer call ``expr`` is (through a name), its op and its learning rate."""
        if isinstance(expr, cst.Name):
            expr = self.analysis.definition(expr)
        if not isinstance(expr, cst.Call):
            return None
        op = self.analysis.op_of(expr)
        if op is None or "optimizer" not in op.tags:
            return None
        number = self._learning_rate(expr, op)
        return (expr, op, number) if number is not None else None

    def _check_session_run(self, node: cst.Call) -> None:
        """`sess.run(train_step, feed_dict={x: data, ...})` or `train_step.run(feed_dict=...)`
        where `train_step = optimizer.minimize(loss)`."""
        feed = self.analysis.keyword(node, "feed_dict")
        if feed is None and node.args and node.args[-1].keyword is None and len(node.args) > 1:
            feed = node.args[1].value
        fed: Dict[str, cst.BaseExpression] = {}
        if isinstance(feed, cst.Dict):
            for element in feed.elements:
                if isinstance(element, cst.DictElement) and isinstance(element.key, cst.Name):
                    fed[element.key.value] = element.value
        for fetch in self.analysis.run_fetches(node):
            step = self.analysis.definition(fetch) if isinstance(fetch, cst.Name) else fetch
            if not (isinstance(step, cst.Call) and isinstance(step.func, cst.Attribute)
                    and step.func.attr.value == "minimize" and step.args):
                continue
            found = self._optimizer_of(step.func.value)
            if found is None:
                continue
            loss = self.analysis.keyword(step, "loss") or step.args[0].value
            self._judge_step(node, found, loss, fed)

    def _check_apply_gradients(self, node: cst.Call) -> None:
        """`optimizer.apply_gradients(zip(tape.gradient(loss, ws), ws))` (TF2)."""
        found = self._optimizer_of(node.func.value)
        if found is None or not node.args:
            return
        pairs = node.args[0].value
        grads = pairs.args[0].value if (isinstance(pairs, cst.Call) and pairs.args
                                       and isinstance(pairs.func, cst.Name)
                                       and pairs.func.value == "zip") else None
        if isinstance(grads, cst.Name):
            grads = self.analysis.definition(grads)
        if (isinstance(grads, cst.Call) and isinstance(grads.func, cst.Attribute)
                and grads.func.attr.value == "gradient" and grads.args):
            self._judge_step(node, found, grads.args[0].value, {})

    def _check_fit(self, node: cst.Call) -> None:
        """`model.fit(x, y)` of a model compiled with an SGD optimizer and a squared error."""
        receiver = node.func.value
        x = self.analysis.passed(node, "x")
        if not isinstance(receiver, cst.Name) or x is None:
            return
        for compile_call in self.analysis.method_calls(receiver.value, "compile"):
            found = self._optimizer_of(self.analysis.passed(compile_call, "optimizer"))
            loss = self.analysis.keyword(compile_call, "loss")
            if found is None or loss is None or not self._keras_squared_error(loss):
                continue
            self._judge_curvature(node, found, [(x, 1.0, "medium", None)], "the model's")

    def _keras_squared_error(self, loss: cst.BaseExpression) -> bool:
        if isinstance(loss, cst.SimpleString):
            return loss.evaluated_value in ("mse", "MSE", "mean_squared_error")
        if isinstance(loss, cst.Call):
            loss = loss.func
        qualified = self.analysis.qualified_name(loss) or ""
        return qualified.rsplit(".", 1)[-1] in ("MeanSquaredError", "mean_squared_error",
                                                "mse", "MSE")

    def _judge_step(self, node: cst.Call, found: Tuple[cst.Call, Op, Number],
                    loss: cst.BaseExpression, fed: Dict[str, cst.BaseExpression]) -> None:
        inputs = []
        squared = self._squared_error(loss, 1.0, 0)
        if squared is not None:
            differences, factor, summed = squared
            for difference in differences:
                for data in self._inputs(difference, 0):
                    if isinstance(data, cst.Name) and data.value in fed:
                        data = fed[data.value]
                    # summed: the batch is a visible slice, or else the whole array (0)
                    batch = (self._batch_size(data, 0) or (0,))[0] if summed else None
                    inputs.append((data, factor, "high", batch))
        if inputs and self._judge_curvature(node, found, inputs, "the"):
            return
        self._judge_summed(node, found, loss, fed)

    def _judge_curvature(self, node: cst.Call, found: Tuple[cst.Call, Op, Number],
                         inputs, whose: str) -> bool:
        optimizer, op, number = found
        if "sgd" not in op.tags or id(optimizer) in self._judged:
            return False
        momentum = self.analysis.keyword(optimizer, "momentum")
        beta = self.analysis.number(momentum) if momentum is not None else None
        beta_value = beta.value if beta is not None and 0 <= beta.value < 1 else 0.0
        limit = 2 * (1 + beta_value)
        for data, factor, confidence, batch in inputs:
            moment = self.analysis.moment(data)
            if moment is None:
                continue
            if batch == 0:  # a sum over the whole array fed: its examples are the batch
                batch = moment.count
                if not batch:
                    continue
            summed = f"{batch} x " if batch else ""
            curvature = 2 * factor * (batch or 1) * moment.total
            product = number.value * curvature
            if product <= limit:
                continue
            self._judged.add(id(optimizer))
            per = "E[x^2]" if moment.features == 1 else f"E[|x|^2] ({moment.features} features)"
            factor_text = f"{factor:g} x " if factor != 1 else ""
            stable = (f"2(1 + momentum {beta_value:g}) = {limit:g}" if beta_value
                      else "2")
            evidence = Evidence(moment.source, "the data `{src}`",
                                f"whose {per} is about {moment.total:.3g}", confidence,
                                producer="data",
                                name=self.compact(data, 40) if isinstance(
                                    data, (cst.Name, cst.Subscript)) else None)
            over = (f" summed over a batch of {batch} examples (the sum's curvature is the "
                    f"batch size times the mean's)" if batch else "")
            self.report(node, f"`{self.source(optimizer.func)}` with learning rate "
                        f"{number.value:g} on {whose} squared error of this data{over} "
                        f"diverges: the loss's curvature is about {summed}{factor_text}2 x {per} = "
                        f"{curvature:.3g}, and SGD diverges once learning rate x curvature "
                        f"> {stable}: {number.value:g} x {curvature:.3g} = {product:.3g}; "
                        "{evidence}",
                        evidence=evidence, confidence=confidence,
                        suggestion=f"standardize the inputs (`(x - x.mean()) / x.std()`), or "
                                   f"use a learning rate below {limit / curvature:.2g}")
            return True
        return False

    def _judge_summed(self, node: cst.Call, found: Tuple[cst.Call, Op, Number],
                      loss: cst.BaseExpression, fed: Dict[str, cst.BaseExpression]) -> None:
        optimizer, op, number = found
        if "sgd" not in op.tags or id(optimizer) in self._judged:
            return
        total = self._summed(loss, 0)
        if total is None:
            return
        batch = next((b for b in (self._batch_size(v, 0) for v in fed.values()) if b), None)
        if batch is None:
            return
        size, where = batch
        limit = self.settings["sgd-max"]
        effective = number.value * size
        if effective <= limit:
            return
        self._judged.add(id(optimizer))
        evidence = Evidence(total, "the sum `{src}` over the batch",
                            f"a batch of {size} (`{self.compact(where, 40)}`)", "high",
                            producer="sum",
                            name=self.compact(loss, 40) if isinstance(loss, cst.Name) else None)
        self.report(node, f"`{self.source(optimizer.func)}` with learning rate "
                    f"{number.value:g} minimizes a loss summed over batches of {size}: each "
                    f"step is {size} times the step on the mean loss, {number.value:g} x "
                    f"{size} = {effective:g}, above the {limit:g} at which SGD on a mean loss "
                    "already overshoots, so training diverges to inf/NaN; the loss: {evidence}",
                    evidence=evidence,
                    suggestion="average the loss over the batch (`tf.reduce_mean`), or "
                               f"divide the learning rate by the batch size ({size})")

    def _batch_size(self, expr: cst.BaseExpression, depth: int,
                    path: Tuple[int, ...] = ()) -> Optional[Tuple[int, cst.CSTNode]]:
        """The literal size of the batch ``expr`` is: `next_batch(100)`, `x[i:i + 100]`."""
        if depth > 8:
            return None
        if isinstance(expr, cst.Name):
            found = self.analysis.binding(expr.value)
            if found is None or found[0].kind not in ("assign", "unpack") or \
                    found[0].value is None:
                return None
            return self._batch_size(found[0].value, depth + 1, (*found[0].position, *path))
        if isinstance(expr, (cst.Tuple, cst.List)) and path:
            if path[0] >= len(expr.elements):
                return None
            return self._batch_size(expr.elements[path[0]].value, depth + 1, path[1:])
        if isinstance(expr, cst.Subscript):
            element = expr.slice[0].slice if len(expr.slice) == 1 else None
            if isinstance(element, cst.Slice) and isinstance(element.upper, cst.BinaryOperation) \
                    and isinstance(element.upper.operator, cst.Add) and element.lower is not None \
                    and self.source(element.upper.left) == self.source(element.lower):
                size = self.analysis.number(element.upper.right)
                if size is not None and 1 <= size.value < 1e7:
                    return int(size.value), expr
            return self._batch_size(expr.value, depth + 1)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and \
                expr.func.attr.value == "next_batch" and expr.args:
            size = self.analysis.number(expr.args[0].value)
            if size is not None and 1 <= size.value < 1e7:
                return int(size.value), expr
        return None

    def _squared_error(self, expr: cst.BaseExpression, factor: float, depth: int
                       ) -> Optional[Tuple[List[cst.BaseExpression], float, bool]]:
        """(the differences, a constant factor, whether it is summed over the batch rather
        than averaged) of a squared error ``expr`` is."""
        if depth > 8:
            return None
        deeper = depth + 1
        if isinstance(expr, cst.Name):
            definition = self.analysis.definition(expr)
            return self._squared_error(definition, factor, deeper) if definition is not None \
                else None
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator,
                                                                (cst.Multiply, cst.Divide)):
            right = self.analysis.number(expr.right)
            if right is not None and right.value != 0:
                scale = right.value if isinstance(expr.operator, cst.Multiply) else \
                    1 / right.value
                return self._squared_error(expr.left, factor * scale, deeper)
            left = self.analysis.number(expr.left)
            if left is not None and isinstance(expr.operator, cst.Multiply):
                return self._squared_error(expr.right, factor * left.value, deeper)
            return None
        if not isinstance(expr, cst.Call):
            return None
        op = self.analysis.op_of(expr)
        last = expr.func.attr.value if isinstance(expr.func, cst.Attribute) else (
            expr.func.value if isinstance(expr.func, cst.Name) else "")
        if last in ("mean_squared_error", "MSE", "mse") and len(expr.args) >= 2:
            return [a.value for a in expr.args[:2]], factor, False
        if op is None or not expr.args:
            return None
        # a sum over every element (no axis): over the whole batch, not a per-example sum
        summed = op.name == "reduce_sum" and last in SUM_NAMES and len(expr.args) == 1
        if op.name != "reduce_mean" and not summed:
            return None
        inner = expr.args[0].value
        if isinstance(inner, cst.Name):
            inner = self.analysis.definition(inner) or inner
        if isinstance(inner, cst.BinaryOperation) and isinstance(inner.operator, cst.Power):
            power = self.analysis.number(inner.right)
            return ([inner.left], factor, summed) if power is not None and power.value == 2 \
                else None
        if isinstance(inner, cst.Call):
            inner_op = self.analysis.op_of(inner)
            if inner_op is not None and inner_op.name == "square" and inner.args:
                return [inner.args[0].value], factor, summed
            if inner_op is not None and inner_op.name == "pow" and len(inner.args) > 1:
                power = self.analysis.number(inner.args[1].value)
                if power is not None and power.value == 2:
                    return [inner.args[0].value], factor, summed
        return None

    def _inputs(self, expr: cst.BaseExpression, depth: int) -> List[cst.BaseExpression]:
        """The data in ``expr`` that a trainable variable multiplies: `W * x`, `x @ W`,
        `tf.matmul(x, W)`, `tf.multiply(x, W)`."""
        if depth > 8:
            return []
        deeper = depth + 1
        if isinstance(expr, cst.Name):
            definition = self.analysis.definition(expr)
            return self._inputs(definition, deeper) if definition is not None else []
        pair: Optional[Tuple[cst.BaseExpression, cst.BaseExpression]] = None
        if isinstance(expr, cst.BinaryOperation):
            if isinstance(expr.operator, (cst.Multiply, cst.MatrixMultiply)):
                pair = (expr.left, expr.right)
            elif isinstance(expr.operator, (cst.Add, cst.Subtract)):
                return self._inputs(expr.left, deeper) + self._inputs(expr.right, deeper)
        elif isinstance(expr, cst.Call) and len(expr.args) >= 2:
            op = self.analysis.op_of(expr)
            name = op.name if op is not None else ""
            if name in ("matmul", "multiply"):
                pair = (expr.args[0].value, expr.args[1].value)
            elif name in ("add", "subtract"):
                return self._inputs(expr.args[0].value, deeper) + \
                    self._inputs(expr.args[1].value, deeper)
        if pair is None:
            return []
        first, second = pair
        if "variable" in self.analysis.value(second).tags:
            return [first]
        if "variable" in self.analysis.value(first).tags:
            return [second]
        return []

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
