"""NAN103 unstable-softmax-cross-entropy."""

from __future__ import annotations

from typing import Dict, Optional, Set, Tuple

import libcst as cst

from nanlint import optable
from nanlint.rule import Evidence, Fix, Rule

_LOGITS_KEYWORDS = ("logits", "x", "features", "input", "inputs", "z")
_AXIS_KEYWORDS = ("axis", "dim", "reduction_indices")


class UnstableSoftmaxCrossEntropy(Rule):
    """
    ## What it does
    Flags cross-entropies and log-probabilities computed by hand from probabilities instead
    of from logits: `tf.math.log(softmax(z))` and `log(sigmoid(z))` (also `tf.log`, `K.log`,
    `keras.ops.log`, and a softmax assigned to a variable lines earlier or returned by a
    helper), the cross-entropy `-reduce_sum(y * log(softmax(z)))` they usually belong to,
    `log(1 - sigmoid(z))`, and a hand-written softmax `exp(z) / reduce_sum(exp(z))` whose
    exponent is not shifted by its maximum. The evidence is the softmax or sigmoid call; its
    argument is the logits the fused op needs. A log of a guarded probability
    (`softmax(z) + eps`, `clip_by_value(p, eps, 1)`) is not reported.

    ## Why is this bad?
    In float32 a softmax output underflows to exactly 0 once two logits are about 100 apart,
    and a sigmoid saturates below about -88 (to 0) or above about 17 (to 1, so `1 - p` is 0).
    The log is then `-inf`, the loss `inf`, and the gradient `NaN`: with logits `[1000, 0]`,
    `-sum(y * log(softmax(z)))` is `inf` with a NaN gradient, while
    `tf.nn.softmax_cross_entropy_with_logits` gives 1000.0 and a finite gradient. A
    hand-written softmax without the max-shift overflows first: `exp(1000)` is `inf` and
    `inf / inf` is `NaN`. The fused ops compute the same quantities in log space and never
    form the probability that underflows. Adding an epsilon or clipping the probability
    avoids the `inf` but still loses the gradient signal: a clipped probability has zero
    gradient, and `log(p + eps)` is flat at `log(eps)` exactly where the model is most wrong.
    The severity is error: the fused form is always available and always at least as
    accurate, so there is no reason to keep the hand-written one.

    ## Example
    ```python
    probs = tf.nn.softmax(logits)
    loss = -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
    log_p = tf.math.log(tf.sigmoid(z))
    probs = tf.exp(logits) / tf.reduce_sum(tf.exp(logits), axis=-1, keepdims=True)
    ```

    ## Use instead
    ```python
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    # integer labels: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)
    # binary: tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z)
    log_p = tf.math.log_sigmoid(z)  # log(1 - sigmoid(z)) is tf.math.log_sigmoid(-z)
    probs = tf.nn.softmax(logits, axis=-1)
    # Keras: keras.ops.log_softmax, keras.ops.categorical_crossentropy(y, z, from_logits=True)
    ```

    ## Fix safety
    Safe: the fixes compute the same value stably, so the result equals the old one
    wherever the old one was finite. `log(softmax(z))` becomes `log_softmax(z)` (with the
    softmax's own arguments, e.g. `axis`), `log(sigmoid(z))` becomes `log_sigmoid(z)`,
    `log(1 - sigmoid(z))` becomes `log_sigmoid(-z)`, and a hand-written
    `exp(z) / reduce_sum(exp(z), axis=a, keepdims=True)` becomes `nn.softmax(z, axis=a)`.
    A softmax assigned to a variable first is fixed too when its logits are a plain name not
    assigned again in between; inside a function, the assignment `probs = softmax(z)` is
    then removed if nothing else mentions `probs` and it stands alone on its line in the
    same block (a softmax call has no side effect, so this is safe too). The fix keeps the user's namespace (`tf`, `tf.compat.v1`,
    `keras.ops`); softmaxes from `K.` or from a layer's activation, and hand-written
    cross-entropies as a whole, are left to you: a fused cross-entropy returns the
    per-example loss and replaces the reduction around it, which no fix should guess.

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
        "import tensorflow as tf\np = tf.nn.softmax(z)\nl = tf.math.log(p + 1e-7)\n",
        "import tensorflow as tf\n"
        "e = tf.exp(z - tf.reduce_max(z, axis=-1, keepdims=True))\n"
        "p = e / tf.reduce_sum(e, axis=-1, keepdims=True)\n",
        "import tensorflow as tf\ndef f(probs):\n    return tf.math.log(probs)\n",
        "import numpy as np\np = np.exp(z) / np.sum(np.exp(z))\n",
    ]
    INVALID = [
        "import tensorflow as tf\np = tf.nn.softmax(z)\n"
        "loss = -tf.reduce_sum(y * tf.math.log(p), axis=-1)\n",
        "import tensorflow.compat.v1 as tf\nl = tf.log(tf.sigmoid(z))\n",
        "from keras import ops\nl = ops.log(1.0 - ops.sigmoid(z))\n",
        "import tensorflow as tf\np = tf.exp(z) / tf.reduce_sum(tf.exp(z), axis=-1)\n",
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._factors: Dict[int, cst.BaseExpression] = {}  # log call → the other factor
        self._covered: Set[int] = set()  # hand-written softmaxes already reported in a log

    # -- visitors ---------------------------------------------------------------------------
    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Multiply):
            self._note_factors(node.left, node.right)
        elif isinstance(node.operator, cst.Divide):
            self._check_softmax(node, node.left, node.right)

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None:
            return
        if op.name == "log":
            argument = self.analysis.argument(node, op, 0)
            if argument is not None:
                self._check_log(node, argument)
        elif op.name == "multiply":
            left, right = self.analysis.argument(node, op, 0), self.analysis.argument(node, op, 1)
            if left is not None and right is not None:
                self._note_factors(left, right)
        elif op.name == "divide":
            left, right = self.analysis.argument(node, op, 0), self.analysis.argument(node, op, 1)
            if left is not None and right is not None:
                self._check_softmax(node, left, right)

    def _note_factors(self, left: cst.BaseExpression, right: cst.BaseExpression) -> None:
        """`y * log(p)`: the traversal is pre-order, so the log is seen after this."""
        for this, other in ((left, right), (right, left)):
            if isinstance(this, cst.Call):
                op = self.analysis.op_of(this)
                if op is not None and op.name == "log":
                    self._factors[id(this)] = other

    # -- log of a probability ---------------------------------------------------------------
    def _check_log(self, node: cst.Call, argument: cst.BaseExpression) -> None:
        value = self.analysis.value(argument)
        evidence = value.zero
        if evidence is None or evidence.convention:
            return
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
            return
        producer = evidence.node
        if kind == "sigmoid" and "hard_sigmoid" in self.analysis.module.code_for_node(producer):
            return  # a hard sigmoid has no log-space form: NAN102 reports it
        if "handwritten_softmax" in value.tags:
            self._covered.add(id(producer))
        func = self.source(node.func)
        shown = self.compact(argument)
        logits, call = self._logits(producer)
        root = self._root(call)
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
            change = (f"make `{home.name.value}` return the logits `{_short(logits)}` "
                      f"instead of their {kind}, then ")
            logits = self.compact(probability)
        if factor is not None and not self._same_probability(factor, producer):
            labels, sparse = self._labels(factor)
            message = (f"hand-written cross-entropy: `{func}` of `{shown}` ({what} output) is "
                       f"-inf once the probability reaches 0, so the loss is inf and its "
                       f"gradient NaN: {{evidence}}")
            suggestion = change + self._cross_entropy(kind, root, labels, logits, sparse, call)
        else:
            message = (f"`{func}` of `{shown}` ({what} output) is -inf once the probability "
                       f"reaches 0, and its gradient NaN: {{evidence}}")
            suggestion = change + self._log_form(kind, complement, root, logits, call,
                                                 arguments_here=not change)
        self.report(node, message, evidence=evidence, suggestion=suggestion,
                    fix=self._log_fix(node, probability, producer, complement))

    def _log_fix(self, node: cst.Call, probability: Optional[cst.BaseExpression],
                 producer: cst.CSTNode, complement: bool) -> Optional[Fix]:
        """``log(softmax(z))`` → ``log_softmax(z)``, ``log(sigmoid(z))`` →
        ``log_sigmoid(z)``, ``log(1 - sigmoid(z))`` → ``log_sigmoid(-z)``: exact, so safe.
        The softmax may also be a variable assigned just before, if its logits are a name
        that was not assigned again since."""
        if not isinstance(producer, cst.Call) or probability is None:
            return None
        op = self.analysis.op_of(producer)
        namespace = self._namespace(producer)
        if op is None or op.name not in ("softmax", "sigmoid") or namespace not in ("tf", "ops"):
            return None
        if probability is not producer:
            logits = _first_argument(producer)
            if not (isinstance(probability, cst.Name)
                    and self.analysis.definition(probability) is producer
                    and logits is not None
                    and all(isinstance(arg.value, (cst.Name, cst.Integer, cst.UnaryOperation))
                            for arg in producer.args)
                    and self.analysis.unchanged_since(logits, probability)):
                return None
        root = self._root(producer)
        ops = namespace == "ops"
        if op.name == "softmax":
            func = f"{root}.log_softmax" if ops else f"{root}.nn.log_softmax"
            fix = self.fix(f"use `{func}`", node, producer.with_changes(
                func=self.expression(func), lpar=node.lpar, rpar=node.rpar))
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
        return self.fix(f"use `{func}`", node, self.template(f"{func}({{z}})", z=logits))

    def _left_unused(self, probability: cst.BaseExpression, producer: cst.Call
                     ) -> Optional[cst.SimpleStatementLine]:
        """The line ``probs = softmax(z)`` if the fix leaves ``probs`` unread: inside a
        function (a module name may be imported elsewhere), in the same block as the
        statement being fixed, alone on its line, and no other mention of the name in the
        function (nested functions included)."""
        if not isinstance(probability, cst.Name) or probability is producer:
            return None
        function = self.analysis.in_function()
        assign = self.analysis.parent(producer)
        line = self.analysis.parent(assign) if assign is not None else None
        statements = self.analysis.cursor.statements
        here = self.analysis.parent(statements[-1]) if statements else None
        if (function is None or not isinstance(assign, cst.Assign)
                or len(assign.targets) != 1 or not isinstance(line, cst.SimpleStatementLine)
                or len(line.body) != 1 or line.trailing_whitespace.comment is not None
                or not isinstance(here, cst.SimpleStatementLine)
                or self.analysis.parent(here) is not self.analysis.parent(line)):
            return None
        target = assign.targets[0].target
        if not (isinstance(target, cst.Name) and target.value == probability.value):
            return None
        mentions = _mentions(function, probability.value)
        return line if mentions == [target, probability] or mentions == [
            probability, target] else None

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
            qualified = self.analysis.qualified_name(expr.func) or ""
            spelling = optable.spelling_of(qualified) or ""
            if spelling.endswith(".one_hot") and expr.args:
                return self.source(expr.args[0].value), True
        return self.source(expr), False

    # -- hand-written softmax ---------------------------------------------------------------
    def _check_softmax(self, node: cst.CSTNode, numerator: cst.BaseExpression,
                       denominator: cst.BaseExpression) -> None:
        if id(node) in self._covered:
            return
        value = self.analysis.value(node)
        if "handwritten_softmax" not in value.tags:
            return
        top, bottom = self.analysis.value(numerator), self.analysis.value(denominator)
        if "exp_unbounded" not in top.tags and "sum_exp_unbounded" not in bottom.tags:
            return  # `exp(z - max(z)) / sum(...)`: the stable form
        exp_call = top.node if isinstance(top.node, cst.Call) else None
        if exp_call is None:
            return
        argument = _first_argument(exp_call)
        if argument is None:
            return
        bound = self.analysis.value(argument)
        if bound.known:
            why = (f"whose exponent `{self.source(argument)}` nothing bounds: it overflows to "
                   f"inf above ~88 in float32, and inf / inf is NaN")
            confidence = "high"
        else:
            why = ("whose exponent is not shifted by its maximum: it overflows to inf above "
                   "~88 in float32, and inf / inf is NaN")
            confidence = "medium"
        evidence = Evidence(exp_call, "`{src}`", why, confidence, producer="exp",
                            name=top.zero.name if top.zero else None)
        axis = self._axis(bottom.node)
        root = self._root(exp_call)
        spelled = f"{root}.softmax" if root.endswith("ops") else f"{root}.nn.softmax"
        args = self.source(argument) + (f", axis={axis}" if axis else "")
        shape = self.compact(node)
        self.report(node, f"hand-written softmax `{shape}`: {{evidence}}",
                    evidence=evidence,
                    suggestion=f"use `{spelled}({args})`, which shifts the logits by their "
                               f"maximum (or `log_softmax` / a fused cross-entropy if a log "
                               f"follows)",
                    fix=self._softmax_fix(node, numerator, denominator, exp_call, spelled))

    def _softmax_fix(self, node: cst.CSTNode, numerator: cst.BaseExpression,
                     denominator: cst.BaseExpression, exp_call: cst.Call, spelled: str
                     ) -> Optional[Fix]:
        """``exp(z) / reduce_sum(exp(z), axis=a, keepdims=True)`` → ``softmax(z, axis=a)``:
        only with an explicit axis and keepdims (otherwise the sum is over other axes)."""
        if numerator is not exp_call or not isinstance(denominator, cst.Call):
            return None
        axis = keepdims = None
        for arg in denominator.args[1:]:
            if arg.keyword is None and axis is None:
                axis = arg.value
            elif arg.keyword is not None and arg.keyword.value in _AXIS_KEYWORDS:
                axis = arg.value
            elif arg.keyword is not None and arg.keyword.value == "keepdims":
                keepdims = arg.value
        inner = _first_argument(denominator)
        if (axis is None or not (isinstance(keepdims, cst.Name) and keepdims.value == "True")
                or not isinstance(inner, cst.Call)
                or self.analysis.module.code_for_node(inner).strip()
                != self.analysis.module.code_for_node(exp_call).strip()):
            return None
        logits = _first_argument(exp_call)
        if logits is None or self._namespace(exp_call) not in ("tf", "ops"):
            return None  # `K.exp`: no softmax in the user's namespace
        replacement = self.template(f"{spelled}({{z}}, axis={{a}})", z=logits, a=axis)
        return self.fix(f"use `{spelled}`", node, replacement)

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

    def _namespace(self, call: cst.Call) -> str:
        """`tf`, `ops` or `K`: the family of the call's canonical spelling."""
        qualified = self.analysis.qualified_name(call.func) or ""
        return (optable.spelling_of(qualified) or "").partition(".")[0]

    def _root(self, call: Optional[cst.Call]) -> str:
        """`tf`, `tf1`, `tf.compat.v1`, `ops` or `keras.ops`: where the fused op lives."""
        if call is None:
            return "tf"
        qualified = self.analysis.qualified_name(call.func) or ""
        spelling = optable.spelling_of(qualified) or ""
        func = self.source(call.func)
        namespace, _, tail = spelling.partition(".")
        if namespace == "tf" and func.endswith("." + tail):
            return func[: -len(tail) - 1]
        if namespace == "ops":
            head = func.rpartition(".")[0]
            return head or "keras.ops"
        return "tf"

    def _axis(self, reduce_call: Optional[cst.CSTNode]) -> Optional[str]:
        if not isinstance(reduce_call, cst.Call):
            return None
        for arg in reduce_call.args:
            if arg.keyword is not None and arg.keyword.value in _AXIS_KEYWORDS:
                return self.source(arg.value)
        positional = [arg for arg in reduce_call.args if arg.keyword is None and not arg.star]
        return self.source(positional[1].value) if len(positional) > 1 else None

    def _log_form(self, kind: str, complement: bool, root: str, logits: Optional[str],
                  call: Optional[cst.Call], arguments_here: bool = True) -> str:
        ops = root.endswith("ops")
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

    def _cross_entropy(self, kind: str, root: str, labels: str, logits: Optional[str],
                       sparse: bool, call: Optional[cst.Call]) -> str:
        ops = root.endswith("ops")
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
            fused = (f"{root}.nn.{name}(labels={labels}, logits={logits}"
                     f"{f', axis={axis}' if axis and not sparse else ''})")
        return (f"use `{fused}` on the logits of the softmax: it returns the per-example loss "
                f"(`-reduce_sum(labels * log_softmax(logits), axis=-1)`) computed stably")

    def _is_softmax(self, call: cst.Call) -> bool:
        op = self.analysis.op_of(call)
        return op is not None and op.name == "softmax"

    def _axis_of_softmax(self, call: Optional[cst.Call]) -> Optional[str]:
        if call is None or not self._is_softmax(call):
            return None
        return self._axis_argument(call)

    def _axis_argument(self, call: cst.Call) -> Optional[str]:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value in _AXIS_KEYWORDS:
                return self.source(arg.value)
        positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
        return self.source(positional[1].value) if len(positional) > 1 else None

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


def _mentions(tree: cst.CSTNode, name: str) -> list:
    """Every Name node spelled ``name`` in ``tree`` (attributes and keywords included:
    over-counting only keeps a line)."""
    found = []

    class _Collect(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name:
                found.append(node)

    tree.visit(_Collect())
    return found


def _short(source: str, limit: int = 60) -> str:
    return source if len(source) <= limit else source[: limit - 3] + "..."


def _negated(source: str) -> str:
    if source.replace(".", "").replace("_", "").isalnum():
        return f"-{source}"
    return f"-({source})"
