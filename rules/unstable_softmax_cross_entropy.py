"""NAN103 unstable-softmax-cross-entropy."""

from __future__ import annotations

from typing import Dict, Optional, Set, Tuple

import libcst as cst

from nanlint.rule import DISTRIBUTIONS, WRAPPING_DISTRIBUTIONS, Evidence, Fix, Rule, last_name

# Where the fused ops this rule suggests live: `tf` and Keras 3's `ops`. The Keras backend `K`
# has no log_softmax or log_sigmoid, so a `K.softmax` is answered in `tf`.
_FUSED_FAMILIES = ("tf", "ops")
_SPELLED_FAMILIES = ("tf", "ops", "np")  # numpy has no fused op, but its logaddexp is stable
_LOGITS_KEYWORDS = ("logits", "x", "features", "input", "inputs", "z")
# The libraries whose distributions (``DISTRIBUTIONS``) this rule reads: TensorFlow
# Probability, TF1's `tf.distributions` and `tf.contrib.distributions`.
_DISTRIBUTION_LIBRARIES = ("tensorflow.", "tensorflow_probability.")
_SAMPLERS = frozenset({"sample", "sample_n"})  # a draw: a probability of 0 is never drawn


class UnstableSoftmaxCrossEntropy(Rule):
    """
    ## What it does
    Flags cross-entropies and log-probabilities computed by hand from probabilities instead
    of from logits: `tf.math.log(softmax(z))` and `log(sigmoid(z))` (also `tf.log`, `K.log`,
    `keras.ops.log`, and a softmax assigned to a variable lines earlier or returned by a
    helper), the cross-entropy `-reduce_sum(y * log(softmax(z)))` they usually belong to,
    `log(1 - sigmoid(z))`, and the log of a hand-written softmax `exp(z) / reduce_sum(exp(z))`
    (the softmax on its own is NAN104's), and a distribution made from a softmax's or a
    sigmoid's probabilities (`tfp.distributions.Categorical(probs=softmax(z))`,
    `Bernoulli(probs=sigmoid(z))`, TF1's `tf.distributions`), which takes their log for
    its `log_prob` and `entropy` (not one made only to draw from, `...(probs=p).sample()`,
    also through a distribution made of it, `Independent(OneHotCategorical(probs=p))`).
    A binary cross-entropy `y * log(p) + (1 - y) * log(1 - p)` is one finding spanning the
    expression (also written with `tf.add` / `tf.multiply`, or with its terms assigned to
    variables first: the finding is then on the sum). The one-sided
    `-sum(y * log(sigmoid(z)))` is helped to `log_sigmoid` (`tf.math.log_sigmoid(z)`,
    Keras 3 `ops.log_sigmoid(z)`), not to `sigmoid_cross_entropy_with_logits`, which would
    add a `(1 - y) * log(1 - p)` term the code does not have. The evidence
    is the softmax or sigmoid call; its argument is the logits the fused op needs. A log of
    a guarded probability (`softmax(z) + eps`, `clip_by_value(p, eps, 1)`) is not reported.
    Nor is a log that only feeds a categorical sampler (`tf.random.categorical`,
    `tf.multinomial`): -inf is a probability of 0 there, never drawn, and no gradient flows.
    Nor is a softmax of logits the analysis bounds to a spread of at most 40 (a `tanh`,
    cosines of l2-normalized rows or of a row and the mean of such rows, over a temperature
    of 0.05 or more): each probability is at least exp(-40) / n, never 0; nor a sigmoid of a
    value at least -40 (and `1 - sigmoid(x)` of one at most 15). A range that is only a
    naming convention (a loss's `y_pred`) bounds nothing.

    ## Why is this bad?
    In float32 a softmax output underflows to exactly 0 once two logits are about 100 apart,
    and a sigmoid saturates below about -88 (to 0) or above about 17 (to 1, so `1 - p` is 0).
    The log is then `-inf`, the loss `inf`, and the gradient `NaN`: with logits `[1000, 0]`,
    `-sum(y * log(softmax(z)))` is `inf` with a NaN gradient, while
    `tf.nn.softmax_cross_entropy_with_logits` gives 1000.0 and a finite gradient. The fused
    ops compute the same quantities in log space and never form the probability that
    underflows. Adding an epsilon or clipping the probability
    avoids the `inf` but still loses the gradient signal: a clipped probability has zero
    gradient, and `log(p + eps)` is flat at `log(eps)` exactly where the model is most wrong.
    The severity is error: the fused form is always available and always at least as
    accurate, so there is no reason to keep the hand-written one.

    ## Example
    ```python
    probs = tf.nn.softmax(logits)
    loss = -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
    policy = tfp.distributions.Categorical(probs=probs)  # log_prob: -inf, entropy: NaN
    log_p = tf.math.log(tf.sigmoid(z))
    p = tf.sigmoid(z)
    bce = -tf.reduce_mean(y * tf.math.log(p) + (1 - y) * tf.math.log(1 - p))
    ```

    ## Use instead
    ```python
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    # a distribution: tfp.distributions.Categorical(logits=logits), not probs=softmax(logits)
    # integer labels: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)
    # binary: tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z)
    log_p = tf.math.log_sigmoid(z)  # log(1 - sigmoid(z)) is tf.math.log_sigmoid(-z)
    bce = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z))
    # Keras: keras.ops.log_softmax, keras.ops.categorical_crossentropy(y, z, from_logits=True)
    ```

    ## Fix safety
    Safe: the fixes compute the same value stably, so the result equals the old one
    wherever the old one was finite. `log(softmax(z))` becomes `log_softmax(z)` (with the
    softmax's own arguments, e.g. `axis`), `log(sigmoid(z))` becomes `log_sigmoid(z)`,
    `log(1 - sigmoid(z))` becomes `log_sigmoid(-z)`.
    A softmax assigned to a variable first is fixed too when that assignment is the only one
    that reaches the log (not where an `if`'s other arm or a loop's next round gives the
    variable another value) and its logits are a plain name not assigned again in between;
    inside a function, the assignment `probs = softmax(z)` is then removed if the log is the
    only read of it and it stands alone on its line in the same block (a softmax call has
    no side effect, so this is safe too). The fix keeps the
    user's namespace (`tf`, `tf.compat.v1`, `keras.ops`) and the log's `name=` (the fused op
    keeps the op's name in a graph; Keras's fused ops take no name, so a named log of a
    `keras.ops` softmax gets no fix); softmaxes from `K.` or from a
    layer's activation, and hand-written cross-entropies as a whole, are left to you: a
    fused cross-entropy returns the per-example loss and replaces the reduction around it,
    which no fix should guess.

    ## Options
    None.
    """

    code = "NAN103"
    hazard = "forward"
    name = "unstable-softmax-cross-entropy"
    severity = "error"
    summary = "cross-entropy or log computed from a softmax/sigmoid output instead of logits"
    fix_safety = "safe"
    supersedes = frozenset({"NAN102"})
    VALID = [
        "import tensorflow as tf\n"
        "loss = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z)\n",
        "import tensorflow_probability as tfp\nd = tfp.distributions.Categorical(logits=z)\n",
        "import tensorflow as tf\np = tf.nn.softmax(z)\nl = tf.math.log(p + 1e-7)\n",
        "import tensorflow as tf\n"
        "e = tf.exp(z - tf.reduce_max(z, axis=-1, keepdims=True))\n"
        "p = e / tf.reduce_sum(e, axis=-1, keepdims=True)\n",
        "import tensorflow as tf\ndef f(probs):\n    return tf.math.log(probs)\n",
        "import numpy as np\np = np.exp(z) / np.sum(np.exp(z))\n",
    ]
    INVALID = [
        "import tensorflow as tf\nimport tensorflow_probability as tfp\n"
        "d = tfp.distributions.Categorical(probs=tf.nn.softmax(z))\n",
        "import tensorflow as tf\np = tf.nn.softmax(z)\n"
        "loss = -tf.reduce_sum(y * tf.math.log(p), axis=-1)\n",
        "import tensorflow.compat.v1 as tf\nl = tf.log(tf.sigmoid(z))\n",
        "from keras import ops\nl = ops.log(1.0 - ops.sigmoid(z))\n",
        "import tensorflow as tf\np = tf.sigmoid(z)\n"
        "l = -(y * tf.math.log(p) + (1 - y) * tf.math.log(1 - p))\n",
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._factors: Dict[int, cst.BaseExpression] = {}  # log call → the other factor
        self._merged: Set[int] = set()  # log calls reported as one binary cross-entropy

    # -- visitors ---------------------------------------------------------------------------
    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Multiply):
            self._note_factors(node.left, node.right)
        elif isinstance(node.operator, (cst.Add, cst.Subtract)):
            self._check_binary_cross_entropy(node, node.left, node.right)

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None or op.name == "distribution":  # TFP's are no op; TF1's are objects
            if node.func.__class__ is cst.Attribute and node.func.attr.value in DISTRIBUTIONS:
                self._check_distribution(node)
            return
        if op.name == "log":
            argument = self.analysis.argument(node, op, 0)
            if argument is not None:
                self._check_log(node, argument)
        elif op.name in ("multiply", "add", "subtract"):
            left, right = self.analysis.argument(node, op, 0), self.analysis.argument(node, op, 1)
            if left is not None and right is not None and op.name == "multiply":
                self._note_factors(left, right)
            elif left is not None and right is not None:  # `tf.add(y * log(p), ...)`
                self._check_binary_cross_entropy(node, left, right)

    def _note_factors(self, left: cst.BaseExpression, right: cst.BaseExpression) -> None:
        """`y * log(p)`: the traversal is pre-order, so the log is seen after this."""
        for this, other in ((left, right), (right, left)):
            if isinstance(this, cst.Call):
                op = self.analysis.op_of(this)
                if op is not None and op.name == "log":
                    self._factors[id(this)] = other

    # -- log of a probability ---------------------------------------------------------------
    def _check_log(self, node: cst.Call, argument: cst.BaseExpression) -> None:
        if id(node) in self._merged:
            return
        found = self._diagnose(argument)
        if found is None:
            return
        kind, complement, evidence = found
        producer = evidence.node
        func = self.source(node.func)
        shown = self.compact(argument)
        logits, call = self._logits(producer)
        namespace = self.namespace(call, _SPELLED_FAMILIES)
        factor = self._factors.get(id(node))
        what = "1 - sigmoid" if complement else kind
        if factor is not None and self.analysis.value(factor).const is not None:
            factor = None  # `0.5 * log(p)`: a weight, not labels
        probability = self._subtrahend(argument) if complement else argument
        change = ""
        home = self.function_elsewhere(producer)
        if home is not None and logits is not None and probability is not None:
            # The logits live inside another function: say what to change there, and use
            # only what exists here (the call that returns the probability).
            receiver = self._receiving_function(probability)
            if receiver is not None:
                # `model` passes the softmax on to `helper(v)`, which takes the log.
                change = (f"pass the logits `{logits}` from `{home.name.value}` to "
                          f"`{receiver.name.value}` instead of their {kind}, then ")
            else:
                change = (f"make `{home.name.value}` return the logits `{logits}` "
                          f"instead of their {kind}, then ")
            logits = self.source(probability)
        elif (probability is not None and probability is not producer and logits is not None
              and "(" in logits):
            # The logits are computed in another statement: computing them again may not give
            # the same value (a dropout, a random draw, a layer with state): name them.
            change = (f"keep the logits in a name, `logits = {logits}`, and take the {kind} "
                      f"of `logits`; then ")
            logits = "logits"
        if factor is not None and not self._same_probability(factor, producer):
            labels, sparse = self._labels(factor)
            message = (f"hand-written cross-entropy: `{func}` of `{shown}` ({what} output) is "
                       f"-inf once the probability reaches 0, so the loss is inf and its "
                       f"gradient NaN: {{evidence}}")
            if kind == "sigmoid":
                # One term of a binary cross-entropy: the fused loss would add the
                # `(1 - y) * log(1 - p)` term the code does not have.
                suggestion = change + self._log_form(kind, complement, namespace, logits,
                                                     call, arguments_here=not change)
            else:
                suggestion = change + self._cross_entropy(kind, namespace, labels, logits,
                                                          sparse, call)
        else:
            message = (f"`{func}` of `{shown}` ({what} output) is -inf once the probability "
                       f"reaches 0, and its gradient NaN: {{evidence}}")
            suggestion = change + self._log_form(kind, complement, namespace, logits, call,
                                                 arguments_here=not change)
        if "one_branch" in self.analysis.value(argument).tags:
            # `p` is the softmax on one path only (a branch, another method's assignment).
            suggestion = f"on the path where `{shown}` is the {kind} output: {suggestion}"
        fix = self._log_fix(node, probability, producer, complement) if self.fixing else None
        self.report(node, message, evidence=evidence, suggestion=self._fix_first(
            suggestion, fix), fix=fix)

    # -- a distribution made from a softmax's probabilities ---------------------------------
    def _only_sampled(self, node: cst.Call) -> bool:
        """The distribution is drawn from and nothing else: `Categorical(probs=p).sample()`,
        or a name it is assigned to whose every read draws (a generation loop's `pdf =
        Categorical(probs=p)`, `pdf.sample(1)`), also through a distribution made of it
        (`Independent(OneHotCategorical(probs=p))`). A read that goes anywhere else (a
        density, a return, an argument) may take the log."""
        parent = self.analysis.parent(node)
        if parent.__class__ is cst.Arg and (parent.keyword is None or (
                parent.keyword.value == "distribution")):
            wrapper = self.analysis.parent(parent)
            if wrapper.__class__ is cst.Call and (
                    parent.keyword is not None or wrapper.args[0] is parent) and (
                    last_name(wrapper.func) in WRAPPING_DISTRIBUTIONS):
                return self._only_sampled(wrapper)
        reads = self.analysis.readers(node)
        return bool(reads) and all(
            (used := self.analysis.parent(read)).__class__ is cst.Attribute
            and used.attr.value in _SAMPLERS for read in reads)


    def _check_distribution(self, node: cst.Call) -> None:
        """`Categorical(probs=softmax(z))`, `Bernoulli(probs=sigmoid(z))`: the distribution
        takes the log of its probabilities (its `log_prob`, its `entropy`), -inf where one
        underflows to 0."""
        qualified = self.analysis.qualified_name(node.func) or ""
        if not qualified.startswith(_DISTRIBUTION_LIBRARIES):
            return
        if self._only_sampled(node):
            return  # `Categorical(probs=p).sample()`: a draw takes no log
        probs = next((arg.value for arg in node.args
                      if arg.keyword is not None and arg.keyword.value == "probs"), None)
        found = self._diagnose(probs) if probs is not None else None
        if found is None or found[1]:
            return
        kind, _, evidence = found
        logits, _ = self._logits(evidence.node)
        func = self.source(node.func)
        made = f"`{func}(logits={logits})`" if logits is not None else (
            f"`{func}` from the logits (`logits=`) instead of the {kind} output")
        self.report(node, f"`{func}` made from `{self.compact(probs)}` ({kind} output) "
                    f"takes the log of its probabilities: once one underflows to 0, its "
                    f"`log_prob` is -inf and its entropy and gradient NaN: {{evidence}}",
                    evidence=evidence, suggestion=f"make it from the logits: {made}, "
                    "which computes the log-probabilities stably")

    def _diagnose(self, argument: cst.BaseExpression) -> Optional[Tuple[str, bool, Evidence]]:
        """(softmax or sigmoid, whether it is `1 - p`, the evidence) for a log's argument."""
        value = self.analysis.value(argument)
        evidence = value.zero
        if evidence is None or evidence.convention:
            return None
        complement = False
        if evidence.producer in ("softmax", "sigmoid") and value.tags & {"softmax", "sigmoid"}:
            kind = "softmax" if "softmax" in value.tags else "sigmoid"
        elif evidence.producer == "one_minus_probability":
            inner = self._subtrahend(evidence.node)
            inner_value = self.analysis.value(inner) if inner is not None else None
            if (inner_value is None or "sigmoid" not in inner_value.tags
                    or inner_value.zero is None or inner_value.zero.producer != "sigmoid"):
                return  # `1 - softmax(z)` has no fused form: NAN102 reports it
            kind, complement = "sigmoid", True
            base = inner_value.zero
            evidence = Evidence(base.node, base.what, "which saturates to exactly 1 in float32, "
                                "so `1 - p` is exactly 0", base.confidence, aggregate=False,
                                tiny=True, producer="sigmoid", name=base.name)
        else:
            return None
        producer = evidence.node
        if kind == "sigmoid" and "hard_sigmoid" in self.analysis.code(producer):
            return None  # a hard sigmoid has no log-space form: NAN102 reports it
        return kind, complement, evidence

    # -- one binary cross-entropy, one finding ------------------------------------------------
    def _check_binary_cross_entropy(self, node: cst.CSTNode, left: cst.BaseExpression,
                                    right: cst.BaseExpression) -> None:
        """`y * log(p) + (1 - y) * log(1 - p)` of one sigmoid (also `tf.add`, and terms
        assigned to variables first): one finding for the sum."""
        terms = [self._log_term(side) for side in (left, right)]
        if terms[0] is None or terms[1] is None:
            return
        (log_a, labels_a, found_a), (log_b, _, found_b) = terms
        if found_a[1]:
            (log_a, labels_a, found_a), (log_b, _, found_b) = terms[1], terms[0]
        if (found_a[0] != "sigmoid" or found_b[0] != "sigmoid" or found_a[1]
                or not found_b[1] or found_a[2].node is not found_b[2].node):
            return
        self._merged.update({id(log_a), id(log_b)})
        evidence = found_a[2]
        logits, call = self._logits(evidence.node)
        labels, _ = self._labels(labels_a)
        suggestion = self._cross_entropy("sigmoid", self.namespace(call, _SPELLED_FAMILIES),
                                         labels, logits, False, call)
        fix = self._both_fixed(log_a, log_b, evidence.node) if self.fixing else None
        self.report(node, f"hand-written binary cross-entropy `{self.compact(node)}`: the log "
                    f"of the sigmoid output is -inf once it saturates to 0, and the log of "
                    f"`1 - p` once it saturates to 1, so the loss is inf and its gradient NaN: "
                    f"{{evidence}}", evidence=evidence,
                    suggestion=self._fix_first(suggestion, fix), fix=fix,
                    covers=(log_a, log_b))

    def _receiving_function(self, probability: cst.BaseExpression
                            ) -> Optional[cst.FunctionDef]:
        """The function whose parameter ``probability`` is (the softmax came in as an
        argument, not from a call's return), or None."""
        if not isinstance(probability, cst.Name):
            return None
        bound = self.analysis.binding(probability.value)
        function = bound[0].node if bound is not None and bound[0].kind == "param" else None
        while function is not None and not isinstance(function, cst.FunctionDef):
            function = self.analysis.parent(function)
        return function

    def _fix_first(self, suggestion: str, fix: Optional[Fix]) -> str:
        """The help leads with what the fix writes, where it names something else (a fused
        cross-entropy, which the fix does not apply: it keeps the labels' sum)."""
        if fix is None:
            return suggestion
        written = [self.source(new) for _, new in fix.replacements
                   if isinstance(new, cst.CSTNode)]
        if all(text in suggestion for text in written):
            return suggestion
        shown = " and ".join(f"`{text}`" for text in written)
        logs = "logs" if len(written) > 1 else "log"
        return (f"use {shown} in place of the {logs} (the same value, computed stably); "
                f"or {suggestion}")

    def _both_fixed(self, log_p: cst.Call, log_q: cst.Call, producer: cst.CSTNode
                    ) -> Optional[Fix]:
        """The two log fixes of a binary cross-entropy, applied together."""
        fixes = [self._log_fix(log_p, _first_argument(log_p), producer, False),
                 self._log_fix(log_q, self._subtrahend(_first_argument(log_q)), producer, True)]
        if fixes[0] is None or fixes[1] is None:
            return None
        return Fix(fixes[0].description, fixes[0].replacements + fixes[1].replacements,
                   fixes[0].safety)

    def _log_term(self, expr: cst.BaseExpression
                  ) -> Optional[Tuple[cst.Call, cst.BaseExpression, Tuple[str, bool, Evidence]]]:
        """`y * log(q)` (or `-y * log(q)`, `log(q) * y`, `tf.multiply(y, log(q))`, a name
        assigned one of these): the log call, `y`, the diagnosis."""
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
            expr = expr.expression
        if isinstance(expr, cst.Name):
            expr = self.analysis.definition(expr)
            if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
                expr = expr.expression
        op = self.analysis.op_of(expr) if isinstance(expr, cst.Call) else None
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Multiply):
            factors = (expr.left, expr.right)
        elif op is not None and op.name == "multiply":
            factors = (self.analysis.argument(expr, op, 0), self.analysis.argument(expr, op, 1))
        else:
            return None
        if factors[0] is None or factors[1] is None:
            return None
        for this, other in ((factors[1], factors[0]), (factors[0], factors[1])):
            if isinstance(this, cst.Call):
                op = self.analysis.op_of(this)
                argument = self.analysis.argument(this, op, 0) if op is not None and (
                    op.name == "log") else None
                found = self._diagnose(argument) if argument is not None else None
                if found is not None:
                    return this, other, found
        return None

    def _log_fix(self, node: cst.Call, probability: Optional[cst.BaseExpression],
                 producer: cst.CSTNode, complement: bool) -> Optional[Fix]:
        """``log(softmax(z))`` → ``log_softmax(z)``, ``log(sigmoid(z))`` →
        ``log_sigmoid(z)``, ``log(1 - sigmoid(z))`` → ``log_sigmoid(-z)``: exact, so safe.
        The softmax may also be a variable assigned just before, if its logits are a name
        that was not assigned again since."""
        if not isinstance(producer, cst.Call) or probability is None:
            return None
        op = self.analysis.op_of(producer)
        family, root = self.namespace(producer, _FUSED_FAMILIES)
        if (op is None or op.name not in ("softmax", "sigmoid")
                or self.analysis.spelling(producer.func).partition(".")[0] != family):
            return None  # `K.softmax`, `activations.softmax`: the fused op would be `tf`'s
        if probability is not producer:
            logits = _first_argument(producer)
            target = self._assigned(producer)
            if not (isinstance(probability, cst.Name) and target is not None
                    and target.value == probability.value
                    and self.analysis.reached_only_by(probability, target)
                    and logits is not None
                    and all(isinstance(arg.value, (cst.Name, cst.Integer, cst.UnaryOperation))
                            for arg in producer.args)
                    and self.analysis.unchanged_since(logits, probability)):
                return None
        ops = family == "ops"
        if op.name == "softmax":
            func = f"{root}.log_softmax" if ops else f"{root}.nn.log_softmax"
            fused = self.named_like(node, producer.with_changes(
                func=self.expression(func), lpar=node.lpar, rpar=node.rpar), not ops)
            if fused is None:
                return None
            fix = self.fix(f"use `{func}`", node, fused)
            dead = self._left_unused(probability, producer)
            if dead is None:
                return fix
            return Fix(f"use `{func}` and remove `{probability.value}`, now unused",
                       (*fix.replacements, (dead, cst.RemovalSentinel.REMOVE)), fix.safety)
        func = f"{root}.log_sigmoid" if ops else f"{root}.math.log_sigmoid"
        logits = _first_argument(producer)
        if logits is None or len(producer.args) != 1:
            return None
        if complement:
            logits = cst.UnaryOperation(cst.Minus(), self.operand(logits))
        fused = self.named_like(node, self.template(f"{func}({{z}})", z=logits), not ops)
        return self.fix(f"use `{func}`", node, fused) if fused is not None else None

    def _assigned(self, producer: cst.CSTNode) -> Optional[cst.Name]:
        """``probs`` of the statement ``probs = producer``, alone on its line; else None."""
        assign = self.analysis.parent(producer)
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
            return None
        target = assign.targets[0].target
        return target if isinstance(target, cst.Name) else None

    def _left_unused(self, probability: cst.BaseExpression, producer: cst.Call
                     ) -> Optional[cst.SimpleStatementLine]:
        """The line ``probs = softmax(z)`` if the fix leaves ``probs`` unread: inside a
        function (a module name may be imported elsewhere), in the same block as the
        statement being fixed, alone on its line, and read nowhere but in the probability
        the fix replaces (nor by a function nested in the function)."""
        target = self._assigned(producer)
        if target is None or not isinstance(probability, cst.Name):
            return None
        line = self.analysis.parent(self.analysis.parent(producer))
        statements = self.analysis.cursor.statements
        here = self.analysis.parent(statements[-1]) if statements else None
        if (self.analysis.in_function() is None or not isinstance(line, cst.SimpleStatementLine)
                or len(line.body) != 1 or line.trailing_whitespace.comment is not None
                or not isinstance(here, cst.SimpleStatementLine)
                or self.analysis.parent(here) is not self.analysis.parent(line)):
            return None
        return line if self.analysis.read_only_by(target, probability) and (
            not self.analysis.touched_otherwise(target.value)) else None

    def _subtrahend(self, node: cst.CSTNode) -> Optional[cst.BaseExpression]:
        """`p` in `1 - p` (or `tf.subtract(1, p)`)."""
        if isinstance(node, cst.BinaryOperation):
            return node.right
        if isinstance(node, cst.Call):
            op = self.analysis.op_of(node)
            if op is not None and op.name == "subtract":
                return self.analysis.argument(node, op, 1)
        return None

    def _same_probability(self, factor: cst.BaseExpression, producer: cst.CSTNode) -> bool:
        """`p * log(p)` is an entropy, not a cross-entropy with labels."""
        value = self.analysis.value(factor)
        return value.zero is not None and value.zero.node is producer

    def _labels(self, factor: cst.BaseExpression) -> Tuple[str, bool]:
        """The labels of `y * log(p)`, `(1 - y) * log(1 - p)`, `one_hot(ids) * log(p)`."""
        expr = factor
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
            expr = expr.expression
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Subtract):
            if self.analysis.value(expr.left).const == 1:
                expr = expr.right
        if isinstance(expr, cst.Call):
            spelling = self.analysis.spelling(expr.func)
            if spelling.endswith(".one_hot") and expr.args:
                return self.source(expr.args[0].value), True
        return self.source(expr), False

    # -- spelling the fix in the user's namespace -------------------------------------------
    def _logits(self, producer: cst.CSTNode) -> Tuple[Optional[str], Optional[cst.Call]]:
        """The logits the fused op needs, and the call whose namespace to reuse."""
        numerator = None
        if isinstance(producer, cst.Call):
            op = self.analysis.op_of(producer)
            if op is not None and op.name in ("softmax", "sigmoid"):
                argument = _first_argument(producer)
                return (self.source(argument) if argument is not None else None), producer
            if op is None or op.name != "divide":
                return None, None  # a Keras layer with a softmax/sigmoid activation
            numerator = self.analysis.argument(producer, op, 0)  # `tf.divide(exp(z), ...)`
        elif isinstance(producer, cst.BinaryOperation):
            numerator = producer.left
        if numerator is None:
            return None, None
        exp_call = self.analysis.value(numerator).node
        if isinstance(exp_call, cst.Call):
            argument = _first_argument(exp_call)
            return (self.source(argument) if argument is not None else None), exp_call
        return None, None

    def _axis(self, reduce_call: Optional[cst.CSTNode]) -> Optional[str]:
        axis = self.analysis.axis(reduce_call) if isinstance(reduce_call, cst.Call) else None
        return self.source(axis) if axis is not None else None

    def _log_form(self, kind: str, complement: bool, namespace: Tuple[str, str],
                  logits: Optional[str], call: Optional[cst.Call], arguments_here: bool = True
                  ) -> str:
        """``namespace``: the family of the fused ops and the prefix the file spells them
        with (``Rule.namespace``)."""
        family, root = namespace
        ops = family == "ops"
        if family == "np" and logits is not None:
            return _numpy_log(kind, complement, root, logits)
        if logits is None:
            fused = "log_softmax" if kind == "softmax" else "log_sigmoid"
            return (f"remove the {kind} activation from the layer so that it outputs logits, "
                    f"and take `tf.nn.{fused}` (Keras: `keras.ops.{fused}`) of them")
        if kind == "softmax":
            spelled = f"{root}.log_softmax" if ops else f"{root}.nn.log_softmax"
            args = (self._call_arguments(call) if arguments_here and call is not None
                    and self._is_softmax(call) else logits)
            return f"use `{spelled}({args})`: the same value, computed stably from the logits"
        spelled = f"{root}.log_sigmoid" if ops else f"{root}.math.log_sigmoid"
        if complement:
            return (f"`log(1 - sigmoid(z))` is `log_sigmoid(-z)`: use "
                    f"`{spelled}({_negated(logits)})`")
        return f"use `{spelled}({logits})`, computed stably from the logits"

    def _cross_entropy(self, kind: str, namespace: Tuple[str, str], labels: str,
                       logits: Optional[str], sparse: bool, call: Optional[cst.Call]) -> str:
        family, root = namespace
        ops = family == "ops"
        if family == "np" and logits is not None:
            if kind == "sigmoid":
                return (f"use `{labels} * {root}.logaddexp(0, {_negated(logits)}) + (1 - {labels})"
                        f" * {root}.logaddexp(0, {logits})`, the same loss computed stably from "
                        f"the logits")
            return _numpy_log(kind, False, root, logits)
        if logits is None:
            loss = "SparseCategorical" if sparse else (
                "Categorical" if kind == "softmax" else "Binary")
            return (f"remove the {kind} activation from the layer so that it outputs logits, "
                    f"and use `tf.keras.losses.{loss}Crossentropy(from_logits=True)`")
        if kind == "sigmoid":
            fused = (f"{root}.binary_crossentropy({labels}, {logits}, from_logits=True)" if ops
                     else f"{root}.nn.sigmoid_cross_entropy_with_logits(labels={labels}, "
                          f"logits={logits})")
            return (f"use `{fused}` on the logits of the sigmoid; it covers both the `y * log(p)` "
                    f"and the `(1 - y) * log(1 - p)` terms")
        if ops:
            name = "sparse_categorical_crossentropy" if sparse else "categorical_crossentropy"
            fused = f"{root}.{name}({labels}, {logits}, from_logits=True)"
        else:
            name = ("sparse_softmax_cross_entropy_with_logits" if sparse
                    else "softmax_cross_entropy_with_logits")
            axis = self._axis_of_softmax(call)
            if axis is not None and axis[:1] in "([" and not sparse:  # several axes
                return (f"take the log of the softmax in log space over the same axes: "
                        f"`{logits} - {root}.reduce_logsumexp({logits}, axis={axis}, "
                        f"keepdims=True)`")
            fused = (f"{root}.nn.{name}(labels={labels}, logits={logits}"
                     f"{f', axis={axis}' if axis and not sparse else ''})")
        return (f"use `{fused}` on the logits of the softmax: it returns the per-example loss "
                f"(`-reduce_sum(labels * log_softmax(logits), axis=-1)`) computed stably")

    def _is_softmax(self, call: cst.Call) -> bool:
        op = self.analysis.op_of(call)
        return op is not None and op.name == "softmax"

    def _axis_of_softmax(self, call: Optional[cst.Call]) -> Optional[str]:
        """The softmax's axis as the fused cross-entropy takes it: `(1,)` is `1`; None for
        the default; several axes (which the fused op does not take) as written."""
        if call is None or not self._is_softmax(call):
            return None
        axis = self.analysis.axis(call)
        if isinstance(axis, (cst.Tuple, cst.List)) and len(axis.elements) == 1:
            axis = axis.elements[0].value
        return self.source(axis) if axis is not None else None

    def _call_arguments(self, call: cst.Call) -> str:
        parts = []
        for arg in call.args:
            shown = self.source(arg.value)
            if arg.star:
                shown = arg.star + shown
            elif arg.keyword is not None:
                shown = f"{arg.keyword.value}={shown}"
            parts.append(shown)
        return ", ".join(parts)


def _first_argument(call: cst.Call) -> Optional[cst.BaseExpression]:
    for arg in call.args:
        if arg.keyword is None and not arg.star:
            return arg.value
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in _LOGITS_KEYWORDS:
            return arg.value
    return None


def _negated(source: str) -> str:
    if source.replace(".", "").replace("_", "").isalnum():
        return f"-{source}"
    return f"-({source})"


def _numpy_log(kind: str, complement: bool, root: str, logits: str) -> str:
    """The log of a softmax or a sigmoid of numpy's logits, in log space: numpy has no fused
    op, but `logaddexp` shifts by the maximum (each checked under numpy)."""
    if kind == "softmax":
        return (f"take the log of the softmax in log space: `{logits} - {root}.logaddexp.reduce("
                f"{logits}, axis=-1, keepdims=True)` (over the softmax's axis)")
    if complement:
        return (f"`log(1 - sigmoid(z))` is `-logaddexp(0, z)`: use "
                f"`-{root}.logaddexp(0, {logits})`")
    return f"use `-{root}.logaddexp(0, {_negated(logits)})`, computed stably from the logits"
