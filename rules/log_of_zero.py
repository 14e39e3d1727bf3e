"""NAN102 log-of-zero."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from nanlint.rule import Rule, in_tested_branch


class LogOfZero(Rule):
    """
    ## What it does
    Flags `tf.math.log(p)` (also `tf.log`, `tf.compat.v1.log`, `K.log`, `keras.ops.log`)
    where `p` can be exactly 0 or negative: the output of a softmax or sigmoid, `1 - p` of
    a probability, a relu output, a tanh or a raw `matmul`/linear-layer output, a sum of
    squares of a difference, `exp(x) - 1` where `x` can be 0 (0 there, and negative where
    `x` is). A parameter of a loss function named like a probability
    (`y_pred`, `probs`) is weak evidence and is reported with low confidence; not for a part
    of it where the function cuts it into several ranges (`mu, sigma = y_pred[..., :n],
    y_pred[..., n:]`): it then holds several heads' outputs, such as a mixture's scales.
    A value lifted where it is below a positive threshold (`p + cast(p < eps) * eps`, also
    with `tf.less` or `<=`) is no longer 0 there: its log is finite. Nor is a log in the
    branch of an `if`, a conditional expression or a `cond` whose test excludes a 0 argument
    (`if min_prob > 0: ... log(min_prob)`), as for NAN101's divisions.
    A log whose value only feeds a categorical sampler (`tf.random.categorical`,
    `tf.multinomial`) is not reported: -inf is a probability of 0 there, never drawn.
    A product with non-negative weights (a softmax, a square, a relu output) is not a signed
    linear output: it has the sign of the other operand (attention times 0/1 labels is
    never negative, nor is a fixed window summed over squares); with a trained weight matrix
    or a linear output it is one again.

    ## Why is this bad?
    `log(0)` is `-inf` and `log(x)` for `x < 0` is `NaN`. Softmax and sigmoid outputs
    underflow to exactly 0 (and saturate to exactly 1) in float32 once the logits are a few
    dozen apart, so a hand-written cross-entropy turns into `inf`/`NaN` as soon as the model
    becomes confident. The gradient of `log(p)` is `1 / p`, which overflows first.

    ## Example
    ```python
    probs = tf.nn.softmax(logits)
    loss = -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
    ```

    ## Use instead
    ```python
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    # or, where a log of a probability is really needed:
    log_probs = tf.nn.log_softmax(logits)
    safe = tf.math.log(p + 1e-7)
    ```

    ## Fix safety
    Unsafe: where the argument can be 0 (and is not known to be negative), the fix adds the
    configured `fix-epsilon` inside the log (`tf.math.log(p + 1e-7)`; `fix-epsilon-float16`
    next to a float16 value). That changes values near 0, which is the point, so it is
    applied only with `--unsafe-fixes`. NAN103 has exact (safe) rewrites for
    `log(softmax(z))` and `log(sigmoid(z))`. A value that can be negative gets no fix: an
    epsilon does not help there; the help line shows the guard that keeps every value
    where the argument is at least the epsilon, `tf.math.log(tf.maximum(x, 1e-7))`, for
    an argument not meant to be negative.

    ## Options
    None for the rule. The analysis option `probability-parameters` lists the parameter
    names that count as probabilities in a loss function.

    ## Preview
    Judged on 11 findings in real repositories nobody here had tuned on, 3 were real or
    likely risks, 7 style (a deliberate `log` of a 0/1 support mask, a metric logged once
    on held-out data) and 1 false. A later sample, judged before deciding whether the rule
    comes back, gave 4 false of 7: trainable variables read as possibly negative that their
    objective keeps above 1 or that nothing trains, a label fed only as 0. It waits in
    preview until a sample shows 2 sound findings in 3; `nanlint suspects` ranks its sites,
    and NAN103 keeps `log(softmax(z))` in the gate.
    """

    code = "NAN102"
    preview = True
    hazard = "forward"
    name = "log-of-zero"
    severity = "error"
    summary = "log of a value that can be 0 or negative"
    fix_safety = "unsafe"
    VALID = [
        "import tensorflow as tf\np = tf.nn.softmax(z)\nl = tf.math.log(p + 1e-7)\n",
        "import tensorflow as tf\nl = tf.nn.log_softmax(z)\n",
        "import tensorflow as tf\ndef f(scale):\n    return tf.math.log(scale)\n",
        "import tensorflow as tf\nclass Scores:\n    def __init__(self, x, floor=0.0):\n"
        "        if floor > 0:\n            x = tf.maximum(x, -tf.math.log(floor))\n"
        "        self.x = x\ndef build(x):\n    return Scores(x)\n",
        "import math\nx = math.log(2.0)\n",
    ]
    INVALID = [
        "import tensorflow as tf\np = tf.nn.softmax(z)\nl = tf.math.log(p)\n",
        "import tensorflow.compat.v1 as tf\np = tf.sigmoid(z)\nl = tf.log(1.0 - p)\n",
        "from keras import ops\nh = ops.relu(x)\nl = ops.log(h)\n",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None or op.name != "log":
            return
        argument = self.analysis.argument(node, op, 0)
        if argument is None or self.superseded(node):
            return
        value = self.analysis.value(argument)
        shown = self.source(argument)
        func = self.source(node.func)
        if value.zero is not None and in_tested_branch(self, node, argument):
            # `if p > 0: log(p)`, `log(p) if p != 0 else c`: the test excludes the 0
            value = replace(value, zero=None)
        if value.zero is not None:
            evidence = value.zero
            message = f"`{func}` of `{shown}`, which can be 0 (log 0 = -inf): {{evidence}}"
        elif value.negative is not None:
            evidence = value.negative
            message = f"`{func}` of `{shown}`, which can be negative (NaN): {{evidence}}"
        else:
            return
        if "softmax" in value.tags:
            suggestion = ("take the log from the logits: `tf.nn.log_softmax(logits)`, or use "
                          "`tf.nn.softmax_cross_entropy_with_logits` for a cross-entropy")
        elif "sigmoid" in value.tags:
            suggestion = ("take the log from the logits: `tf.math.log_sigmoid(logits)`, or use "
                          "`tf.nn.sigmoid_cross_entropy_with_logits` for a cross-entropy")
        elif value.zero is None:
            # A guard, not another model: the clip changes only the values whose log was
            # NaN (softplus of the argument would change every value).
            prefix = self.namespace(node, ("tf", "ops", "K", "np"))[1]
            clipped = self.template(f"{prefix}.maximum({{x}}, {self.epsilon(value)})",
                                    x=argument)
            suggestion = (f"if the argument is not meant to be negative, clip it: "
                          f"`{self.rewritten(node, argument, clipped)}` (the same value "
                          f"wherever it is at least {self.epsilon(value)}); else the log "
                          f"needs an argument of another form")
        else:
            guarded = self.source(node.deep_replace(argument, self.plus_epsilon(argument, value)))
            suggestion = f"add an epsilon: `{guarded}`, or clip the value"
        fix = None
        if value.negative is None:
            fix = self.fix(f"add an epsilon inside `{func}`", argument,
                           self.plus_epsilon(argument, value))
        self.report(node, message, evidence=evidence, suggestion=suggestion, fix=fix)
