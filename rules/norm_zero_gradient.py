"""NAN202 norm-zero-gradient."""

from __future__ import annotations

from typing import List, Optional

import libcst as cst

from nanlint.rule import Evidence, Op, Rule, visit_tree

# Producers whose output can be the whole zero vector: a difference `a - b` of equal
# sides, a relu whose units are all inactive, and a gradient (a dead relu zeroes it all).
# Other zero evidence (a softmax that underflows, a trainable variable) concerns single
# elements, not a whole vector. The hand-written root of squared gradients is NAN201's.
_ZERO_VECTOR_PRODUCERS = frozenset({"difference", "relu", "relu6", "gradient"})
_EUCLIDEAN_NAMES = frozenset({"euclidean", "fro"})


class NormZeroGradient(Rule):
    """
    ## What it does
    Flags a euclidean norm of a value that can be the zero vector while a gradient flows
    through it: `tf.norm`, `tf.linalg.norm`, `keras.ops.norm` with the default `ord`
    (`'euclidean'`, `'fro'` or `2`), or a hand-written `tf.sqrt(tf.reduce_sum(tf.square(d)))`,
    `K.sqrt(K.sum(K.square(d)))`, `tf.reduce_sum(d ** 2) ** 0.5`. The evidence is a
    difference `a - b` (a distance in a contrastive, triplet or center loss), the output
    of a relu, whose units can all be inactive at once, or gradients (`tf.norm(grads)` of
    a WGAN-GP penalty: they are 0 wherever the critic's relu units are dead; their
    hand-written root is NAN201's). Not a norm of a training step's gradients taken outside
    its tape (for a log): nothing differentiates it. Not a norm over every axis of a
    gradient with respect to an input (an interpolate, a tensor a tape watches): it is 0 in
    an example, not over the whole batch at once.

    ## Why is this bad?
    The gradient of `‖d‖` is `d / ‖d‖`, which is `0 / 0 = NaN` at `d = 0` (checked under
    TensorFlow 2.21: the gradient of `tf.norm(x)` at `x == 0` is NaN). A distance between
    an anchor and a positive is exactly what training drives to 0, and identical pairs
    occur in real batches (duplicates, an embedding compared with itself), so one such pair
    turns every weight into NaN. A norm that is only ever squared (`tf.square(tf.norm(d))`,
    `distance ** 2`) is not reported: the upstream gradient `2‖d‖` is 0 there too, and TF
    2.21 gives a zero gradient, not NaN (checked) — though the squared distance itself says
    the same without a root.

    ## Example
    ```python
    def contrastive_loss(anchor, positive, negative, margin=1.0):
        positive_distance = tf.norm(anchor - positive, axis=-1)
        negative_distance = tf.norm(anchor - negative, axis=-1)
        return tf.reduce_mean(positive_distance + tf.nn.relu(margin - negative_distance))
    ```

    ## Use instead
    ```python
    def contrastive_loss(anchor, positive):
        squared = tf.reduce_sum(tf.square(anchor - positive), axis=-1)  # no root needed
        return tf.reduce_mean(squared)

    distance = tf.sqrt(tf.reduce_sum(tf.square(anchor - positive), axis=-1) + 1e-7)
    unit = tf.nn.l2_normalize(anchor - positive, axis=-1)  # guarded by its own epsilon
    ```

    ## Fix safety
    Unsafe: the fix puts the configured `fix-epsilon` (`fix-epsilon-gradient`, default
    `1e-12`, for gradients) inside the root. A hand-written root
    gets `tf.sqrt(s + 1e-7)`; `tf.norm(d, axis=a, keepdims=k)` becomes
    `tf.sqrt(tf.reduce_sum(tf.square(d), axis=a, keepdims=k) + 1e-7)` (`ops.sqrt(ops.sum(...))`
    for `keras.ops.norm`). Both change values near 0, so they apply only with
    `--unsafe-fixes`; a norm with other arguments (a positional axis, `name=`) is left to
    you. The squared distance, often the better cure, changes the loss and is never applied
    automatically.

    ## Options
    None. Only euclidean norms are checked: `ord=1` and `ord=np.inf` have a finite
    (sub)gradient at 0, other `ord` values and an `ord` that is not a literal are not
    checked, nor is `ord=2` over two axes (a spectral norm). Norms of a value of unknown
    origin (a parameter, an attribute) are not reported, nor norms whose value reaches no
    differentiated objective (only a metric, a summary, a print, a `sess.run` fetch, an
    assertion or a comparison; a test, a metric's methods, a `@tf.custom_gradient`
    function; see "gradient reach" in the README). A hand-written norm with an epsilon
    inside the root, a squared distance and `tf.nn.l2_normalize` are safe. This rule
    replaces NAN201 on a hand-written norm.
    """

    code = "NAN202"
    hazard = "gradient"
    name = "norm-zero-gradient"
    severity = "warning"
    fix_safety = "unsafe"
    summary = "euclidean norm of a value that can be the zero vector (NaN gradient)"
    supersedes = frozenset({"NAN201"})
    VALID = [
        "import tensorflow as tf\nd = tf.reduce_sum(tf.square(a - b), axis=-1)\n",
        "import tensorflow as tf\nd = tf.sqrt(tf.reduce_sum(tf.square(a - b), axis=-1) + 1e-7)\n",
        "import tensorflow as tf\nu = tf.nn.l2_normalize(a - b, axis=-1)\n",
        "import tensorflow as tf\ndef f(w):\n    return tf.norm(w)\n",
        "import tensorflow as tf\nd = tf.norm(a - b, ord=1, axis=-1)\n",
        "import tensorflow as tf\ntf.summary.scalar('gap', tf.norm(a - b))\n",
    ]
    INVALID = [
        "import tensorflow as tf\n"
        "def contrastive_loss(a, b):\n    return tf.reduce_mean(tf.norm(a - b, axis=-1))\n",
        "from tensorflow.keras import backend as K\ndef euclidean_loss(a, b):\n"
        "    return K.sqrt(K.sum(K.square(a - b), axis=-1))\n",
        "from keras import ops\ndef feature_penalty(x):\n    h = ops.relu(x)\n"
        "    return ops.norm(h)\n",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None:
            return
        if op.name == "norm":
            if self._euclidean(node):
                self._check_norm(node, op)
        elif op.name == "sqrt":
            self._check_root(node, self.analysis.argument(node, op, 0))
        elif op.name == "pow" and self._is_half(self.analysis.argument(node, op, 1)):
            self._check_root(node, self.analysis.argument(node, op, 0))

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Power) and self._is_half(node.right):
            self._check_root(node, node.left)

    # -- which norms ------------------------------------------------------------------------
    def _is_half(self, exponent: Optional[cst.BaseExpression]) -> bool:
        return exponent is not None and self.analysis.value(exponent).const == 0.5

    def _euclidean(self, call: cst.Call) -> bool:
        """`ord` left out, None, 'euclidean', 'fro', or 2 over at most one axis."""
        order = self.analysis.keyword(call, "ord")
        if order is None:
            positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
            order = positional[1] if len(positional) > 1 else None
        if order is None or (isinstance(order, cst.Name) and order.value == "None"):
            return True
        if isinstance(order, cst.SimpleString):
            return order.evaluated_value in _EUCLIDEAN_NAMES
        if self.analysis.value(order).const != 2:
            return False
        axis = self.analysis.keyword(call, "axis")
        return not (isinstance(axis, (cst.Tuple, cst.List)) and len(axis.elements) == 2)

    # -- checks -----------------------------------------------------------------------------
    def _evidence(self, node: cst.CSTNode) -> Optional[Evidence]:
        evidence = self.analysis.value(node).zero
        if (evidence is None or evidence.convention or evidence.discrete
                or not evidence.aggregate or evidence.producer not in _ZERO_VECTOR_PRODUCERS):
            return None
        if evidence.producer not in ("difference", "gradient"):
            # Every unit of the relu must be inactive at once: a dead layer, not a coincidence.
            evidence = evidence.weaker("medium")
        return evidence

    def _check_norm(self, node: cst.Call, op: Op) -> None:
        argument = self.analysis.argument(node, op, 0)
        if argument is None:
            return
        evidence = self._evidence(node)
        if evidence is None or self._only_squared(node):
            return
        func = self.source(node.func)
        shown = self.source(argument)
        axis = self.analysis.keyword(node, "axis")
        keepdims = self.analysis.keyword(node, "keepdims")
        extra = "".join(f", {name}={self.source(expr)}" for name, expr in
                        (("axis", axis), ("keepdims", keepdims)) if expr is not None)
        spelling = self.analysis.spelling(node.func)
        if spelling.startswith("ops.") and "." in func:
            ns, total = func.rsplit(".", 1)[0], "sum"
        else:
            ns, total = (func.split(".", 1)[0] if "." in func else "tf"), "reduce_sum"
        squared = f"{ns}.{total}({ns}.square({shown}){extra})"
        root = f"{ns}.sqrt({squared} + {self.epsilon(self.analysis.value(argument), evidence)})"
        self.report(node, f"`{func}` of `{shown}`, which can be the zero vector, where the "
                    "gradient of the norm is NaN (0 / 0): {evidence}", evidence=evidence,
                    suggestion=f"use the squared distance `{squared}` if the loss allows it, "
                    f"or add an epsilon inside the root: `{root}`",
                    fix=self._norm_fix(node, argument, ns, total))

    def _norm_fix(self, node: cst.Call, argument: cst.BaseExpression, ns: str, total: str):
        """``norm(d, axis=a)`` → ``sqrt(reduce_sum(square(d), axis=a) + eps)``."""
        keywords = {}
        for position, arg in enumerate(node.args):
            if arg.star or (arg.keyword is None and position > 0):
                return None
            if arg.keyword is not None:
                if arg.keyword.value not in ("axis", "keepdims", "ord", "x", "tensor"):
                    return None
                keywords[arg.keyword.value] = arg.value
        parts = {"d": argument}
        extra = ""
        for name in ("axis", "keepdims"):
            if name in keywords:
                parts[name] = keywords[name]
                extra += f", {name}={{{name}}}"
        epsilon = self.epsilon(self.analysis.value(argument), self._evidence(node))
        replacement = self.template(
            f"{ns}.sqrt({ns}.{total}({ns}.square({{d}}){extra}) + {epsilon})", **parts)
        return self.fix("add an epsilon inside the root", node, replacement)

    def _only_squared(self, node: cst.CSTNode) -> bool:
        """The norm is used only squared, directly or through the variable it is assigned
        to: the gradient at 0 is then 0 (TF 2.21), not NaN."""
        parent = self._user(node)
        if self._squares(parent, node):
            return True
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1
                and isinstance(parent.targets[0].target, cst.Name)):
            return False
        target = parent.targets[0].target
        function = self.analysis.in_function()
        if function is None:
            return False
        uses = [use for use in _names(function.body, target.value) if use is not target]
        return bool(uses) and all(self._squares(self._user(use), use) for use in uses)

    def _user(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The node that uses ``node``'s value (past argument wrappers and parentheses)."""
        parent = self.analysis.parent(node)
        while isinstance(parent, cst.Arg):
            parent = self.analysis.parent(parent)
        return parent

    def _squares(self, user: Optional[cst.CSTNode], used: cst.CSTNode) -> bool:
        if isinstance(user, cst.Call):
            op = self.analysis.op_of(user)
            return op is not None and op.name == "square"
        return (isinstance(user, cst.BinaryOperation) and isinstance(user.operator, cst.Power)
                and user.left is used and self.analysis.value(user.right).const == 2)

    def _check_root(self, node: cst.CSTNode, argument: Optional[cst.BaseExpression]) -> None:
        if argument is None or "norm" not in self.analysis.value(node).tags:
            return  # not sqrt(sum(square(d))): NAN201's business
        evidence = self._evidence(node)
        if evidence is None or evidence.producer == "gradient":
            return
        shown = self.source(argument)
        guarded = self.plus_epsilon(argument, self.analysis.value(argument),
                                    parenthesize=isinstance(node, cst.BinaryOperation))
        fix = self.fix("add an epsilon inside the root", argument, guarded)
        guarded = self.source(node.deep_replace(argument, guarded))  # the code the fix writes
        self.report(node, f"hand-written euclidean norm: square root of the sum of squares "
                    f"`{shown}`, which is 0 for a zero vector, where the gradient is NaN "
                    "(0 / 0): {evidence}",
                    evidence=evidence,
                    suggestion=f"use the squared distance `{shown}` if the loss allows it, or "
                    f"add an epsilon inside the root: `{guarded}`", fix=fix)


def _names(tree: cst.CSTNode, name: str):
    """The Name nodes that read or bind ``name`` in ``tree`` (not attributes, keywords or
    parameters of the same spelling)."""
    collect = _Names(name)
    visit_tree(tree, collect)
    return collect.found


class _Names(cst.CSTVisitor):
    """(A module class: a class made inside a function is a reference cycle, which keeps
    what its closure holds alive until a cyclic collection.)"""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found: List[cst.Name] = []

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        visit_tree(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        visit_tree(node.value, self)
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        return False

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.found.append(node)
