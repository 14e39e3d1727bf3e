"""NAN203 relu-into-cosine."""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

import libcst as cst

from nanlint.rule import Evidence, Rule, in_tested_branch

_RELU_PRODUCERS = frozenset({"relu", "relu6"})


class ReluIntoCosine(Rule):
    """
    ## What it does
    Flags a hand-written cosine similarity, `tf.reduce_sum(a * b) / (tf.norm(a) * tf.norm(b))`,
    or a hand-written normalization, `x / tf.norm(x)` (also with `tf.divide`, `/=`, `K.sqrt(
    K.sum(K.square(x)))` or `keras.ops.norm`), where a vector divided by its norm is the
    output of a relu: `tf.nn.relu`, `tf.nn.relu6`, `keras.activations.relu`, `tf.maximum(x,
    0)`, a `ReLU` layer, or a `Dense`/`Conv` layer built with `activation='relu'`. A division
    that only runs where its denominator was tested first (`x / n if n > 0 else x`, a
    branch of `tf.cond(n > 0, ...)`) is not reported.

    ## Why is this bad?
    A relu outputs an all-zero row whenever every unit is inactive for an input, which is
    common (dead units, a negative bias, an unlucky batch). Its norm is then 0, the cosine
    is `0 / 0`, and both the value and the gradient are NaN (checked under TensorFlow 2.21:
    the hand-written cosine of `relu(a)`, `relu(b)` at zero gives NaN for both). A cosine is
    already a non-linearity, so an activation right before it buys nothing: with linear `a`
    and `b` an exactly-zero vector almost never occurs.

    `tf.nn.l2_normalize` and Keras' cosine losses and metrics (`tf.keras.losses.
    cosine_similarity`, `CosineSimilarity`, `Dot(normalize=True)`) carry an epsilon and are
    not reported — but a relu before them still leaves dead units: an all-zero row gets a
    cosine of 0 and a zero gradient, so it never recovers.

    ## Example
    ```python
    a = tf.keras.layers.Dense(128, activation="relu")(x)
    b = tf.keras.layers.Dense(128, activation="relu")(y)
    cosine = tf.reduce_sum(a * b, axis=-1) / (tf.norm(a, axis=-1) * tf.norm(b, axis=-1))
    ```

    ## Use instead
    ```python
    a = tf.keras.layers.Dense(128)(x)  # no activation right before a cosine
    b = tf.keras.layers.Dense(128)(y)
    cosine = tf.reduce_sum(tf.nn.l2_normalize(a, axis=-1) * tf.nn.l2_normalize(b, axis=-1),
                           axis=-1)
    ```

    ## Fix safety
    No automatic fix yet. Removing the activation changes the model, and `l2_normalize`
    changes values where the norm is near 0 (both unsafe).

    ## Options
    None. Severity is error: the NaN needs only one all-zero relu row, and confidence is
    high for a relu op or layer (medium for `tf.maximum(x, 0)`). Only divisions by a
    euclidean norm (`tf.norm`, `tf.linalg.norm`, `keras.ops.norm`, a hand-written
    `sqrt(sum(square(x)))`) or a product of norms are checked; a denominator with an
    epsilon (`norm + eps`, `tf.maximum(norm, eps)`) and `divide_no_nan` are not reported
    here (the norm's own gradient is still NaN at 0: NAN202 reports that). This rule
    replaces NAN101 on the division it reports; nothing is reported where the value reaches
    no differentiated objective (metrics, summaries, logs; tests, metric methods).
    """

    code = "NAN203"
    name = "relu-into-cosine"
    severity = "error"
    summary = "relu output divided by its norm in a hand-written cosine (0 / 0 = NaN)"
    supersedes = frozenset({"NAN101"})
    VALID = [
        "import tensorflow as tf\nh = tf.nn.relu(x)\nu = tf.nn.l2_normalize(h, axis=-1)\n",
        "import tensorflow as tf\na = tf.keras.layers.Dense(8)(x)\n"
        "b = tf.keras.layers.Dense(8)(y)\n"
        "c = tf.reduce_sum(a * b, -1) / (tf.norm(a, axis=-1) * tf.norm(b, axis=-1))\n",
        "import tensorflow as tf\nh = tf.nn.relu(x)\nu = h / (tf.norm(h, axis=-1) + 1e-7)\n",
        "import tensorflow as tf\nloss = tf.keras.losses.cosine_similarity(tf.nn.relu(a), "
        "tf.nn.relu(b))\n",
    ]
    INVALID = [
        "import tensorflow as tf\nra = tf.nn.relu(a)\nrb = tf.nn.relu(b)\n"
        "c = tf.reduce_sum(ra * rb, -1) / (tf.norm(ra, axis=-1) * tf.norm(rb, axis=-1))\n",
        "from tensorflow.keras import backend as K\nfrom tensorflow.keras import layers\n"
        "h = layers.Dense(64, activation='relu')(x)\n"
        "u = h / K.sqrt(K.sum(K.square(h), axis=-1, keepdims=True))\n",
        "from keras import ops\nh = ops.relu(x)\nu = ops.divide(h, ops.norm(h))\n",
    ]

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Divide):
            self._check(node, node.left, node.right)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.operator, cst.DivideAssign):
            self._check(node, node.target, node.value)

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is not None and op.name == "divide":
            self._check(node, self.analysis.argument(node, op, 0),
                        self.analysis.argument(node, op, 1))

    # -- the denominator --------------------------------------------------------------------
    def _relu(self, evidence: Optional[Evidence]) -> Optional[Evidence]:
        if evidence is None or evidence.convention or evidence.producer not in _RELU_PRODUCERS:
            return None
        return evidence

    def _factors(self, expr: cst.BaseExpression) -> List[cst.BaseExpression]:
        """`na * nb`, `tf.multiply(na, nb)`: the factors of a product, else the expression."""
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Multiply):
            return self._factors(expr.left) + self._factors(expr.right)
        if isinstance(expr, cst.Call):
            op = self.analysis.op_of(expr)
            if op is not None and op.name == "multiply":
                left = self.analysis.argument(expr, op, 0)
                right = self.analysis.argument(expr, op, 1)
                if left is not None and right is not None:
                    return self._factors(left) + self._factors(right)
        return [expr]

    def _relu_norm(self, denominator: cst.BaseExpression
                   ) -> Optional[Tuple[cst.BaseExpression, Evidence]]:
        """The norm (a factor of the denominator) of a relu output, and the relu evidence."""
        if self._relu(self.analysis.value(denominator).zero) is None:
            return None  # guarded (`+ eps`, `maximum`), or no relu behind it
        for factor in self._factors(denominator):
            value = self.analysis.value(factor)
            evidence = self._relu(value.zero)
            if evidence is not None and "norm" in value.tags and self._euclidean(factor):
                return factor, evidence
        return None

    def _euclidean(self, norm: cst.BaseExpression) -> bool:
        """Not `tf.norm(h, ord=1)` or `ord=np.inf`: those are no cosine (NAN101 reports a
        division by them); `ord` left out, None, 'euclidean', 'fro' or 2 is."""
        call = self._norm_call(norm)
        op = self.analysis.op_of(call) if call is not None else None
        if op is None or op.name != "norm":
            return True  # a hand-written root, or a name bound to a norm
        order = self.analysis.keyword(call, "ord")
        positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
        if order is None and len(positional) > 1:
            order = positional[1]
        if order is None or (isinstance(order, cst.Name) and order.value == "None"):
            return True
        if isinstance(order, cst.SimpleString):
            return order.evaluated_value in ("euclidean", "fro")
        return self.analysis.value(order).const == 2

    # -- the check --------------------------------------------------------------------------
    def _check(self, node: cst.CSTNode, numerator: Optional[cst.BaseExpression],
               denominator: Optional[cst.BaseExpression]) -> None:
        if numerator is None or denominator is None:
            return
        found = self._relu_norm(denominator)
        if found is None or not self.analysis.gradient_may_flow(node) or in_tested_branch(
                self, node, denominator):
            return  # no relu norm, no gradient, or only the branch that tests it divides
        norm, evidence = found
        shown = self._shown(denominator)
        normalized = self._normalized(norm)
        if normalized is not None and self.source(numerator) == normalized:
            message = (f"`{normalized}` divided by its own norm `{shown}` is 0 / 0 = NaN, "
                       "value and gradient, for an all-zero relu row: {evidence}")
        else:
            message = (f"hand-written cosine: the denominator `{shown}` holds the norm of a "
                       "relu output, 0 for an all-zero relu row, and the cosine is then "
                       "0 / 0 = NaN, value and gradient: {evidence}")
        self.report(node, message, evidence=evidence,
                    suggestion=self._suggestion(norm, normalized,
                                                cosine=self.source(numerator) != normalized))

    def _shown(self, node: cst.CSTNode) -> str:
        """The source on one line, without comments (a parenthesized denominator may span
        lines that carry `# ...`)."""
        code = re.sub(r"#[^\n]*", "", self.analysis.code(node))
        return " ".join(code.split())

    def _norm_call(self, norm: cst.BaseExpression) -> Optional[cst.Call]:
        if isinstance(norm, cst.Call):
            op = self.analysis.op_of(norm)
            if op is not None and op.name in ("norm", "sqrt"):
                return norm
        return None

    def _normalized(self, norm: cst.BaseExpression) -> Optional[str]:
        """The source of the vector under the norm: `h` in `tf.norm(h)` or
        `K.sqrt(K.sum(K.square(h)))`."""
        call = self._norm_call(norm)
        if call is None or not call.args:
            return None
        inner = call.args[0].value
        op = self.analysis.op_of(call)
        if op is not None and op.name == "sqrt":
            for name in ("reduce_sum", "square"):  # sqrt(sum(square(h)))
                if not (isinstance(inner, cst.Call) and inner.args):
                    return None
                inner_op = self.analysis.op_of(inner)
                if inner_op is None or inner_op.name != name:
                    return None
                inner = inner.args[0].value
        return self.source(inner)

    def _axis(self, call: cst.Call) -> Optional[cst.BaseExpression]:
        """`axis=` of `tf.norm(h, axis=...)`, or of the sum in `sqrt(sum(square(h), ...))`."""
        op = self.analysis.op_of(call)
        if op is not None and op.name == "sqrt" and call.args:
            inner = call.args[0].value
            if not isinstance(inner, cst.Call):
                return None
            call, position = inner, 1
        else:
            position = 2  # tf.norm(tensor, ord, axis)
        return self.analysis.axis(call, position)

    def _suggestion(self, norm: cst.BaseExpression, normalized: Optional[str],
                    cosine: bool) -> str:
        vector = normalized or "x"
        call = self._norm_call(norm)
        axis = self._axis(call) if call is not None else None
        shown_axis = self.source(axis) if axis is not None else "-1"
        normalize = "tf.math.l2_normalize"
        if call is not None:
            func = self.source(call.func)
            spelling = self.analysis.spelling(call.func)
            root = func.rsplit(".", 1)[0] if "." in func else ""
            if spelling.startswith("ops."):
                normalize = f"{root}.normalize" if root else "keras.ops.normalize"
            elif spelling.startswith("K."):
                normalize = f"{root}.l2_normalize" if root else "K.l2_normalize"
            elif root and "." not in root:
                normalize = f"{root}.nn.l2_normalize"
        how = "build the cosine from vectors normalized" if cosine else "normalize"
        return (f"remove the relu before the cosine (a cosine needs no activation), or "
                f"{how} with `{normalize}({vector}, axis={shown_axis})`, which has an epsilon "
                "inside (a relu before it still leaves all-zero rows as dead units)")
