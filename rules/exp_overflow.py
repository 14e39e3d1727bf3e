"""NAN104 exp-overflow."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Optional, Tuple

import libcst as cst

from nanlint.rule import (Evidence, Fix, Rule, Value, exp_limits, large_values_pass,
                          last_name)



def _overflow(dtype: Optional[str]) -> str:
    name, above, _ = exp_limits(dtype)
    return f"exp overflows to inf above ~{above} in {name}"


def _below(dtype: Optional[str], then: str, lowest: float = -math.inf) -> str:
    """Where every term of a sum of exps is exactly 0: ``then`` (0 / 0 = NaN, a log of -inf);
    nothing when the exponent never goes that low (``lowest``, an exp of a relu's output)."""
    limit = exp_limits(dtype)[2]
    if lowest > limit:
        return ""
    return f"; below ~{limit} each exp is exactly 0, so where every term is, {then}"



class ExpOverflow(Rule):
    """
    ## What it does
    Flags `tf.exp` (also `tf.math.exp`, `K.exp`, `keras.ops.exp`) of a value that nothing
    bounds, where the result feeds a sum or a division: a hand-written softmax
    `exp(z) / reduce_sum(exp(z), axis, keepdims=True)` without the max shift (also through
    variables, `tf.div`, `tf.tile` of the sum, and the per-pixel form over the channel axis
    of segmentation code, and masked: `e = exp(z) * mask`, `e / reduce_sum(e, axis)`), a
    hand-written logsumexp `log(reduce_sum(exp(z)))`, a hand-written softplus
    `log(1 + exp(z))` or `log1p(exp(z))` (medium confidence where `z` is a parameter, high
    where it is a known unbounded value: a matmul, a linear layer; `log(c + exp(z))` is the
    same form shifted, helped to `log(c) + softplus(z - log(c))`; quiet in the branch of a
    select whose test sends the large `z` to the other branch, `where(z > 20, z, log(1 +
    exp(z)))`, where the value is never the overflowed one and NAN204 asks about the
    gradient), a
    normalization by `reduce_sum(exp(z))` (a weighted softmax, `x /= sum(exp(z))`), and a
    division by `exp(v)` of a learned, unbounded value such as a log-variance predicted by a
    linear layer, and a hand-written sigmoid `1 / (1 + exp(-x))` where a gradient flows:
    its value is right (0) once `exp(-x)` overflows, but its gradient is `inf / inf = NaN`.
    Also `exp(log_p - log_q)` of two log-probabilities (an importance ratio; `log_prob`,
    `log_pdf`, `logp`, `log_likelihood`, `log_cdf` of a distribution, `log_softmax`),
    whatever its use: a log-probability falls towards -inf, and reaches it, as its
    probability underflows, so the difference is unbounded above (and NaN where both are
    -inf).
    Also a box size decoded from a detection head's regression output with nothing
    clipping the exponent, `exp(tw) * wa`, where `tw` comes from a parameter named like box
    deltas, of a function nobody in the file calls with an argument (`rel_codes`, `deltas`,
    `*_deltas`, `box_delta`, `box_encodings`, `bbox_pred`: a naming convention, medium
    confidence, said in the message; the `delta-parameters` setting), also through
    `unstack`/`split`, slicing, `transpose`, scale factors
    (`tw /= scale_factors[3]`, `delta * variance`), variables and `multiply`; the encoder's
    `log(w / wa)` (the inverse direction) is not concerned. The log of a hand-written
    softmax in one expression is NAN103's (its `log_softmax` fix covers both). `exp` of a
    bounded value is not reported: after `clip_by_value`, `minimum`, `tanh`, `sigmoid`,
    `log_sigmoid`, or shifted by its maximum (`z - reduce_max(z)`), nor `exp` of a
    parameter that is not summed, divided by or a box delta.

    ## Why is this bad?
    In float32, `exp(x)` is `inf` for `x > ~88.7` and exactly 0 for `x < ~-104` (denormal
    below ~-87). A sum of exponentials overflows as soon as one logit passes 88: with logits
    `[1000, 0]`, `log(reduce_sum(exp(z)))` is `inf` with a NaN gradient, while
    `reduce_logsumexp` gives 1000.0 and a finite gradient; a hand-written softmax is
    `inf / inf = NaN` once a logit passes 88, whether or not a log follows. At the other
    end, where every term is below ~-104 (log-likelihoods far from the data), each exp is 0:
    the hand-written logsumexp is `log(0) = -inf` and the softmax `0 / 0 = NaN`; the fused
    ops shift by the maximum and stay finite. `x / exp(v)`
    overflows to `inf` (with a NaN gradient) once a learned log-variance or log-scale
    drifts below ~-88.7, and divides by exactly 0 below ~-104; that happens when the model
    fits some samples exactly. A box regression output is unbounded too: early in training,
    or on one bad batch, a size delta passes 88 and `exp(tw) * wa` is inf, so the corners
    `ycenter ± h / 2` are ±inf, IoUs and the box loss NaN; torchvision and detectron clamp
    `dw` at `log(1000 / 16)` before exp for exactly this reason.
    `tf.math.reduce_logsumexp` and `tf.nn.softmax` subtract the maximum before
    exponentiating and never overflow.

    A function parameter, an attribute or a value from another module is not evidence by
    itself, so `x / tf.exp(log_scale)` in a library is quiet; a sum or logsumexp of `exp`
    of such a value is reported with medium confidence, because the hand-written pattern is
    unstable whatever the caller passes, and with high confidence when the exponent is a
    known unbounded value (a matmul, a linear layer, a variable). The severity is warning,
    not error: whether the exponent really passes 88 (or -88) depends on the data and the
    training, which the linter cannot see.

    ## Example
    ```python
    probs = tf.exp(logits) / tf.reduce_sum(tf.exp(logits), axis=-1, keepdims=True)
    lse = tf.math.log(tf.reduce_sum(tf.exp(logits), axis=-1))
    masked = mask * tf.exp(scores) / tf.reduce_sum(tf.exp(scores), axis=-1, keepdims=True)
    log_var = tf.keras.layers.Dense(1)(h)
    nll = tf.square(y - mu) / tf.exp(log_var) + log_var
    penalty = tf.math.log(1.0 + tf.exp(tf.matmul(h, w)))
    def decode(rel_codes, wa):
        th, tw = tf.unstack(tf.transpose(rel_codes))
        return tf.exp(tw) * wa
    ```

    ## Use instead
    ```python
    probs = tf.nn.softmax(logits, axis=-1)
    lse = tf.math.reduce_logsumexp(logits, axis=-1)
    shifted = scores - tf.reduce_max(scores, axis=-1, keepdims=True)
    masked = mask * tf.exp(shifted) / tf.reduce_sum(tf.exp(shifted), axis=-1, keepdims=True)
    log_var = tf.clip_by_value(tf.keras.layers.Dense(1)(h), -10.0, 10.0)
    penalty = tf.math.softplus(tf.matmul(h, w))
    def decode(rel_codes, wa):
        th, tw = tf.unstack(tf.transpose(rel_codes))
        return tf.exp(tf.minimum(tw, math.log(1000.0 / 16))) * wa
    ```

    ## Fix safety
    Safe for a logsumexp or a softmax, else unsafe. Safe, for the hand-written logsumexp
    written in one expression:
    `log(reduce_sum(exp(z), axis=a, keepdims=k))` becomes
    `reduce_logsumexp(z, axis=a, keepdims=k)` (`keras.ops.logsumexp` in that namespace; a
    Keras backend `K.` form gets none, since Keras 3's backend has no logsumexp: the help
    line names `tf.math.reduce_logsumexp`) — the same value wherever the old one was
    finite; a running one, `log(tf.math.cumsum(exp(z), axis=a))`, becomes
    `tf.math.cumulative_logsumexp(z, axis=a)` (Keras and numpy have none: the help shows
    the shift); and the hand-written softmax `exp(z) / reduce_sum(exp(z), axis=a,
    keepdims=True)` written in one expression, over one integer axis `a`, becomes
    `tf.nn.softmax(z, axis=a)` (`keras.ops.softmax`). A softmax takes one axis: a sum
    over a list or tuple of axes, or over all of them (`axis=None`, no axis), gets no fix
    (the help line shifts the exponent by its maximum over the same axes). A sum assigned
    to a variable first, and the other divisions (which need a shift or a clip chosen for
    the model), are left to you. Unsafe, for a decoded box size: `exp(tw) * wa` becomes
    `exp(minimum(tw, 4.135)) * wa` (4.135 = log(1000 / 16), torchvision's and detectron's
    clamp), which changes every box predicted more than 62.5 times its anchor. Unsafe, for a
    hand-written softplus written in one expression: `log(1 + exp(z))` or `log1p(exp(z))`
    becomes `tf.math.softplus(z)` (`keras.ops.softplus`, `K.softplus`), equal where both are finite
    but for the last bits (below z = -17 the old form rounds to 0, softplus does not).
    The fused op keeps the `name=` of the log or of `tf.divide` (the op's name in a graph);
    in a Keras namespace, whose fused ops take no name, a named call gets no fix.

    ## Options
    None of its own. Which parameter names count as box deltas is the global
    `delta-parameters` key (docs/configuration.md).

    ## Preview
    Judged on 23 findings in real repositories nobody here had tuned on, 7 were real or
    likely risks, 12 false and 4 style: an exponent bounded in a way nanlint does not
    follow (a max shift through a masked maximum, `-|x|` written as a `where`, a Gaussian
    kernel's `-x²`), corners clamped right after a box decode, code no caller reaches. It
    waits in preview until a sample shows 2 in 3; `nanlint suspects` ranks its sites.
    """

    code = "NAN104"
    preview = True
    hazard = "forward"
    name = "exp-overflow"
    severity = "warning"
    summary = "exp of an unbounded value feeding a sum, a division or a box size"
    fix_safety = "safe"
    fix_safety_detail = "safe for a logsumexp or a softmax, else unsafe"
    VALID = [
        "import tensorflow as tf\nlse = tf.math.reduce_logsumexp(z, axis=-1)\n",
        "import tensorflow as tf\nm = tf.reduce_max(z, axis=-1, keepdims=True)\n"
        "lse = m + tf.math.log(tf.reduce_sum(tf.exp(z - m), axis=-1, keepdims=True))\n",
        "import tensorflow as tf\ndef f(x, log_scale):\n    return x / tf.exp(log_scale)\n",
        "import tensorflow as tf\ns = tf.reduce_sum(tf.exp(tf.tanh(z)))\n",
        "import numpy as np\nlse = np.log(np.sum(np.exp(z)))\n",
        "import tensorflow as tf\ndef f(deltas, wa):\n"
        "    return tf.exp(tf.minimum(deltas[:, 3], 4.135)) * wa\n",
    ]
    INVALID = [
        "import tensorflow as tf\nlse = tf.math.log(tf.reduce_sum(tf.exp(z), axis=-1))\n",
        "from keras import ops\ndef f(x, w, y):\n    log_var = ops.matmul(x, w)\n"
        "    return ops.square(y) / ops.exp(log_var)\n",
        "import tensorflow as tf\ne = tf.exp(s)\ne /= tf.reduce_sum(e, axis=-1, keepdims=True)\n",
        "import tensorflow as tf\np = tf.exp(z) / tf.reduce_sum(tf.exp(z), axis=-1)\n",
        "from keras import ops\ndef f(box_delta, anchor):\n"
        "    return ops.exp(box_delta[..., 2:]) * anchor[..., 2:]\n",
        "import tensorflow as tf\ndef ratio(pi, old_pi, a):\n"
        "    return tf.exp(pi.log_prob(a) - old_pi.log_prob(a))\n",
    ]

    # -- visitors ---------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None:
            return
        if op.name == "log":
            argument = self.analysis.argument(node, op, 0)
            if argument is not None:
                self._check_logsumexp(node, argument)
                self._check_softplus(node, argument)
        elif op.name == "log1p":  # `log1p(exp(z))` is `log(1 + exp(z))`
            argument = self.analysis.argument(node, op, 0)
            if argument is not None:
                self._check_softplus(node, argument, one_added=True)
        elif op.name == "divide":
            numerator = self.analysis.argument(node, op, 0)
            denominator = self.analysis.argument(node, op, 1)
            if denominator is not None:
                self._check_division(node, denominator, numerator)
        elif op.name == "multiply":
            self._check_box_size(node, self.analysis.argument(node, op, 0),
                                 self.analysis.argument(node, op, 1))
        elif op.name == "exp":
            self._check_unbounded(node, self.analysis.argument(node, op, 0))

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Divide):
            self._check_division(node, node.right, node.left)
        elif isinstance(node.operator, cst.Multiply):
            self._check_box_size(node, node.left, node.right)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.operator, cst.DivideAssign):
            self._check_division(node, node.value)

    # -- log(sum(exp(z))) -------------------------------------------------------------------
    def _check_logsumexp(self, node: cst.Call, argument: cst.BaseExpression) -> None:
        value = self.analysis.value(argument)
        if "sum_exp_unbounded" not in value.tags:
            return
        found = self._overflow_evidence(value)
        if found is None:
            return
        evidence, logits, exp_call = found
        # The other end: log-likelihoods are often far below 0, and where every term is
        # below ~-104 each exp is exactly 0, so the log is -inf (the fused op is finite).
        exponent = _exp_argument(exp_call)
        evidence = replace(evidence, why=evidence.why + _below(
            self.analysis.value(evidence.node).dtype, "the log is -inf",
            self.analysis.value(exponent).lo if exponent is not None else -math.inf))
        reduce_call = value.node if isinstance(value.node, cst.Call) else None
        axis = self._axis(reduce_call)
        spelled = self._logsumexp_spelling(reduce_call)
        args = logits + (f", axis={axis}" if axis else "")
        shape = self.compact(node)
        if spelled is None:  # a running sum where the library has no running logsumexp
            namespace, prefix = self.namespace(exp_call, _SPELLED)
            maximum = f"{prefix}.max" if namespace in ("ops", "K", "np") else (
                f"{prefix}.reduce_max")
            over = f"axis={axis}, " if axis else ""
            self.report(node, f"hand-written logsumexp `{shape}`: {{evidence}}",
                        evidence=evidence,
                        suggestion=f"shift the exponent by its maximum and add it back after "
                                   f"the log: `m = {maximum}({logits}, {over}keepdims=True)`, "
                                   f"then `m + log(cumsum(exp({logits} - m)))`")
            return
        self.report(node, f"hand-written logsumexp `{shape}`: {{evidence}}",
                    evidence=evidence,
                    suggestion=f"use `{spelled}({args})`, which subtracts the maximum before "
                               f"exponentiating",
                    fix=self._logsumexp_fix(node, argument, reduce_call, spelled))

    # -- log(1 + exp(z)) ---------------------------------------------------------------------
    def _check_softplus(self, node: cst.Call, argument: cst.BaseExpression,
                        one_added: bool = False) -> None:
        """``log(1 + exp(z))``, a hand-written softplus: inf once ``z`` passes 88, where the
        true value is ``z``; ``one_added``: ``log1p(exp(z))``, the same form."""
        value = self.analysis.value(argument)
        exp_call = value.node
        form = "exp" if one_added else "one_plus_exp"
        if form not in value.tags or not isinstance(exp_call, cst.Call):
            return
        logits = _exp_argument(exp_call)
        exponent = self.analysis.value(logits) if logits is not None else None
        if exponent is None or exponent.hi != float("inf"):
            return  # a bounded exponent
        if self._selected_away(node, logits):
            return  # the large arguments take the other branch: NAN204 asks about the gradient
        shown = self.source(logits)
        # As for a hand-written logsumexp: the form is unstable whatever the caller passes,
        # so an exponent of unknown origin (a parameter) is medium-confidence evidence.
        what = "nothing bounds above" if exponent.known else "is not clipped or bounded"
        evidence = Evidence(exp_call, "`{src}`", f"whose argument `{shown}` {what}: "
                            f"{_overflow(self.analysis.value(exp_call).dtype)}, and the log "
                            "of inf is inf (where the "
                            "true value is the argument itself) with a NaN gradient",
                            "high" if exponent.known else "medium", producer="exp")
        namespace, prefix = self.namespace(exp_call, _SPELLED)
        spelled = (f"{prefix}.softplus" if namespace in ("ops", "K") else
                   f"{prefix}.logaddexp" if namespace == "np" else f"{prefix}.math.softplus")
        fix = None
        one = [part for part in (argument.left, argument.right) if part is not exp_call] if (
            isinstance(argument, cst.BinaryOperation) and isinstance(argument.operator, cst.Add)
            and exp_call in (argument.left, argument.right)) else []
        softplus = None if namespace == "np" else self.named_like(
            node, self.template(f"{spelled}({{z}})", z=logits), namespace == "tf")
        constant = 1.0 if one_added else self.analysis.value(one[0]).const if one else None
        if (constant == 1 and namespace in ("tf", "ops", "K") and softplus is not None):
            fix = self.fix(f"use `{spelled}`", node, softplus, safety="unsafe")
        first = "0, " if namespace == "np" else ""  # numpy's softplus: `np.logaddexp(0, z)`

        def call(z: str) -> str:
            return f"{spelled}({first}{z})"

        if constant is None or constant == 1:
            what, suggestion = "hand-written softplus", f"use `{call(shown)}`"
        else:  # log(c + exp(z)) = log(c) + softplus(z - log(c))
            shift = f"{math.log(constant):.6g}"
            what = "hand-written shifted softplus"
            suggestion = f"use `{shift} + {call(f'{shown} - {shift}')}`, the same value"
        self.report(node, f"{what} `{self.compact(node)}`: {{evidence}}", evidence=evidence,
                    suggestion=f"{suggestion}, which never overflows", fix=fix)

    def _selected_away(self, node: cst.CSTNode, exponent: cst.BaseExpression) -> bool:
        """Whether ``node`` is in a branch of a select whose test sends the exponent's large
        values to the other branch (`where(x < -9, log1p(exp(x)), softplus(x))`,
        `where(x > 20, x, log(1 + exp(x)))`): its value there is never the overflowed one."""
        child, parent = node, self.analysis.parent(node)
        for _ in range(_SELECT_DEPTH):
            if parent is None or parent.__class__ is not cst.Arg:
                if parent is None or not isinstance(parent, cst.BaseExpression):
                    return False
                child, parent = parent, self.analysis.parent(parent)
                continue
            call = self.analysis.parent(parent)
            op = self.analysis.op_of(call) if isinstance(call, cst.Call) else None
            if op is None or op.name != "where":
                child, parent = call, self.analysis.parent(call) if call is not None else None
                continue
            cond = self.analysis.argument(call, op, 0)
            branches = (self.analysis.argument(call, op, 1), self.analysis.argument(call, op, 2))
            if cond is None or not any(child is branch for branch in branches):
                return False
            large = large_values_pass(self, cond, exponent)
            # the large values take the first branch where they pass the test
            return large is not None and child is branches[1 if large else 0]
        return False

    def _logsumexp_fix(self, node: cst.Call, argument: cst.BaseExpression,
                       reduce_call: Optional[cst.Call], spelled: str) -> Optional[Fix]:
        """``log(reduce_sum(exp(z), ...))`` in one expression → ``reduce_logsumexp(z, ...)``."""
        if reduce_call is None or argument is not reduce_call or not reduce_call.args:
            return None
        if self.namespace(reduce_call)[0] == "K":
            return None  # `tf.` might not be imported; `K.logsumexp` is gone in Keras 3
        summand = reduce_call.args[0]
        if summand.keyword is not None or not isinstance(summand.value, cst.Call):
            return None
        exp_op = self.analysis.op_of(summand.value)
        if exp_op is None or exp_op.name != "exp" or len(summand.value.args) != 1:
            return None
        exponent = summand.value.args[0].value
        call = self.named_like(node, reduce_call.with_changes(
            func=self.expression(spelled),
            args=[summand.with_changes(value=exponent), *reduce_call.args[1:]],
            lpar=node.lpar, rpar=node.rpar), self.namespace(reduce_call)[0] == "tf")
        return self.fix(f"use `{spelled}`", node, call) if call is not None else None

    # -- divisions --------------------------------------------------------------------------
    def _check_division(self, node: cst.CSTNode, denominator: cst.BaseExpression,
                        numerator: Optional[cst.BaseExpression] = None) -> None:
        bottom = self.analysis.value(denominator)
        # A quotient is a hand-written softmax only over a sum of exps: ask its value then.
        if numerator is not None and "sum_exp" in bottom.tags and (
                "handwritten_softmax" in self.analysis.value(node).tags):
            self._check_softmax(node, numerator, denominator)
            return
        if "sum_exp_unbounded" in bottom.tags:
            found = self._overflow_evidence(bottom)
            if found is None:
                return
            evidence, logits, exp_call = found
            namespace, prefix = self.namespace(exp_call)
            maximum = f"{prefix}.max" if namespace in ("ops", "K", "np") else (
                f"{prefix}.reduce_max")
            shown = self.compact(denominator)
            self.report(node, f"division by `{shown}`, a sum of exponentials that overflows "
                        f"to inf (x / inf, inf / inf = NaN): {{evidence}}", evidence=evidence,
                        suggestion=f"shift the exponent by its maximum in the numerator and "
                                   f"the denominator: `{logits} - {maximum}({logits}, axis=-1, "
                                   f"keepdims=True)`, or work in log space (`reduce_logsumexp`)")
            return
        if "exp" in bottom.tags and isinstance(bottom.node, cst.Call):
            self._check_exp_denominator(node, denominator, bottom.node)
        elif "one_plus_exp" in bottom.tags and isinstance(bottom.node, cst.Call) and (
                numerator is not None and self.analysis.value(numerator).const is not None):
            self._check_sigmoid(node, bottom.node)

    def _check_sigmoid(self, node: cst.CSTNode, exp_call: cst.Call) -> None:
        """`1 / (1 + exp(-x))`: a hand-written sigmoid, whose exp overflows for x < -88. Its
        value is then right (0); only its gradient is NaN, so it needs one (none passes a
        numpy function or data alone)."""
        if not self.analysis.gradient_reach(node).gradient:
            return
        argument = _exp_argument(exp_call)
        exponent = self.analysis.value(argument) if argument is not None else None
        if exponent is None or exponent.hi != float("inf"):
            return  # a clipped or bounded exponent
        shown = self.source(argument)
        confidence = "high" if exponent.known else "medium"
        evidence = Evidence(exp_call, "`{src}`", f"whose argument `{shown}` nothing bounds "
                            f"above: {_overflow(self.analysis.value(exp_call).dtype)}, and the "
                            "gradient of the quotient is then "
                            "inf / inf = NaN", confidence, producer="exp")
        namespace, prefix = self.namespace(exp_call)
        spelled = f"{prefix}.sigmoid" if namespace in ("ops", "K") else f"{prefix}.math.sigmoid"
        logits = shown[1:] if shown.startswith("-") else f"-({shown})"
        self.report(node, f"hand-written sigmoid `{self.compact(node)}`: {{evidence}}",
                    evidence=evidence,
                    suggestion=f"use `{spelled}({logits.strip()})`, which never overflows")

    def _check_exp_denominator(self, node: cst.CSTNode, denominator: cst.BaseExpression,
                               exp_call: cst.Call) -> None:
        """`x / exp(v)` of a learned value that training can drive below -88."""
        op = self.analysis.op_of(exp_call)
        if op is None or op.name != "exp":
            return
        argument = self.analysis.argument(exp_call, op, 0)
        if argument is None:
            return
        value = self.analysis.value(argument)
        learned = value.negative
        if learned is None and value.zero is not None and value.zero.producer == "variable":
            learned = value.zero
        if not (value.known and value.lo == float("-inf") and learned is not None):
            return
        shown = self.source(argument)
        evidence = Evidence(learned.node, learned.what, "a learned value that nothing bounds, "
                            "so training can drive it below -88", "medium", producer="exp",
                            name=learned.name)
        namespace, prefix = self.namespace(exp_call)
        clip = f"{prefix}.clip_by_value" if namespace == "tf" else f"{prefix}.clip"
        self.report(node, f"division by `{self.compact(denominator)}`, "
                    f"which underflows towards 0: once `{shown}` drops below ~-88.7 the "
                    f"quotient overflows to inf in float32 (exp is exactly 0 below ~-104): "
                    f"{{evidence}}", evidence=evidence,
                    suggestion=f"bound the exponent: `{prefix}.exp({clip}({shown}, -10.0, "
                               f"10.0))`, or predict a positive scale directly with "
                               f"`softplus(raw) + 1e-6`")

    # -- exp(a - b) of log-probabilities ------------------------------------------------------
    def _check_unbounded(self, node: cst.Call, argument: Optional[cst.BaseExpression]) -> None:
        """``exp(log_p - log_q)``, an importance ratio: an exponent shown to be unbounded
        above (not by a naming convention: a box delta is ``_check_box_size``'s)."""
        value = self.analysis.value(argument) if argument is not None else None
        if value is None or value.huge is None or value.huge.convention or (
                value.hi != float("inf")):
            return
        shown = self.source(argument)
        namespace, prefix = self.namespace(node, _SPELLED)
        clip = f"{prefix}.clip_by_value" if namespace == "tf" else f"{prefix}.clip"
        self.report(node, f"exp of `{self.compact(argument)}`, which nothing bounds above: "
                    f"{_overflow(self.analysis.value(node).dtype)}, and so is all it multiplies "
                    f"(NaN where the exponent is): "
                    f"{{evidence}}",
                    evidence=value.huge,
                    suggestion=f"bound the exponent: `{prefix}.exp({clip}({shown}, -20.0, "
                               f"20.0))` (or clip the ratio it gives)")

    # -- box decoding -----------------------------------------------------------------------
    def _check_box_size(self, node: cst.CSTNode, *factors: Optional[cst.BaseExpression]
                        ) -> None:
        """``exp(tw) * wa``: a box size decoded from a raw regression delta, unclipped, by an
        exp a gradient passes (one of data alone, or numpy's, decodes a trained model's
        prediction)."""
        if not self.analysis.may_be_huge():
            return
        for factor in factors:
            value = self.analysis.value(factor) if factor is not None else None
            if value is None or "exp" not in value.tags or not isinstance(
                    value.node, cst.Call) or not self.analysis.gradient_reach(value.node).gradient:
                continue
            argument = _exp_argument(value.node)
            exponent = self.analysis.value(argument) if argument is not None else None
            if exponent is None or exponent.huge is None or exponent.hi != float("inf"):
                continue
            shown = self.source(argument)
            namespace, prefix = self.namespace(value.node)
            self.report(node, f"box size `{self.compact(node)}` from `exp({shown})` of a "
                        f"regression output that nothing clips: exp overflows to inf above "
                        f"~88.7 in float32, and then the box corners `center ± size / 2`, "
                        f"their IoUs and gradients are inf or NaN: {{evidence}}",
                        evidence=exponent.huge,
                        suggestion=f"clip the exponent before exp: `{prefix}.exp("
                                   f"{prefix}.minimum({shown}, 4.135))` (log(1000 / 16), where "
                                   f"torchvision and detectron clamp box deltas)",
                        fix=self.fix("clip the exponent at log(1000 / 16)", argument,
                                     self.template(f"{prefix}.minimum({{x}}, 4.135)",
                                                   x=argument), safety="unsafe"))
            return

    # -- hand-written softmax ---------------------------------------------------------------
    def _check_softmax(self, node: cst.CSTNode, numerator: cst.BaseExpression,
                       denominator: cst.BaseExpression) -> None:
        """`exp(z) / reduce_sum(exp(z))` whose exponent is not shifted by its maximum."""
        if self._inside_log(node):
            return  # `log(exp(z) / sum(exp(z)))`: NAN103's log_softmax covers the expression
        top, bottom = self.analysis.value(numerator), self.analysis.value(denominator)
        if "exp_unbounded" not in top.tags and "sum_exp_unbounded" not in bottom.tags:
            return  # `exp(z - max(z)) / sum(...)`: the stable form
        exp_call = top.node if isinstance(top.node, cst.Call) else None
        argument = _exp_argument(exp_call)
        if exp_call is None or argument is None:
            return
        shown, exponent = self.source(argument), self.analysis.value(argument)
        below = _below(top.dtype, "it is 0 / 0 = NaN", exponent.lo)
        if exponent.known:
            why = (f"whose exponent `{shown}` nothing bounds: {_overflow(top.dtype)}, and inf / "
                   f"inf is NaN{below}")
            confidence = "high"
        else:
            why = (f"whose exponent `{shown}` is not shifted by its maximum: "
                   f"{_overflow(top.dtype)}, and inf / inf is NaN{below}")
            confidence = "medium"
        evidence = Evidence(exp_call, "`{src}`", why, confidence, producer="exp",
                            name=top.zero.name if top.zero else None)
        reduce_call = bottom.node if isinstance(bottom.node, cst.Call) else None
        axis = self._axis(reduce_call)
        namespace, prefix = self.namespace(exp_call, _SPELLED)
        spelled = f"{prefix}.nn.softmax" if namespace == "tf" else f"{prefix}.softmax"
        if self._one_axis(reduce_call) and namespace != "np":  # (numpy has no softmax)
            suggestion = (f"use `{spelled}({shown}, axis={axis})`, which shifts the logits by "
                          f"their maximum (or `log_softmax` / a fused cross-entropy if a log "
                          f"follows)")
        else:
            # A softmax takes one axis (by default the last): a sum over several, or over
            # all of them, is normalized by hand, with the shift over the same axes.
            maximum = f"{prefix}.max" if namespace in ("ops", "K", "np") else (
                f"{prefix}.reduce_max")
            over = f"axis={axis}, " if axis and axis != "None" else ""
            suggestion = (f"shift the exponent by its maximum over the axes of the sum, in "
                          f"the numerator and the denominator: `{shown} - {maximum}({shown}, "
                          f"{over}keepdims=True)`")
        self.report(node, f"hand-written softmax `{self.compact(node)}`: {{evidence}}",
                    evidence=evidence, suggestion=suggestion,
                    fix=None if namespace == "np" else self._softmax_fix(
                        node, numerator, denominator, exp_call, spelled, namespace))

    def _one_axis(self, reduce_call: Optional[cst.Call]) -> bool:
        """The sum is over one axis, an integer: what a softmax's `axis` can say. (Not a
        list or a tuple of axes, which `tf.nn.softmax` rejects, nor `None` or no axis, a
        sum over every axis, where the softmax's default is the last axis only.)"""
        axis = self.analysis.axis(reduce_call) if reduce_call is not None else None
        if axis is None or isinstance(axis, (cst.Tuple, cst.List, cst.Set)):
            return False
        number = self.analysis.value(axis).const
        return number is not None and number == int(number) and not (
            isinstance(axis, cst.Name) and axis.value in ("True", "False"))

    def _inside_log(self, node: cst.CSTNode) -> bool:
        parent = self.analysis.parent(node)
        while isinstance(parent, cst.Arg):
            parent = self.analysis.parent(parent)
        if not isinstance(parent, cst.Call):
            return False
        op = self.analysis.op_of(parent)
        return op is not None and op.name == "log"

    def _softmax_fix(self, node: cst.CSTNode, numerator: cst.BaseExpression,
                     denominator: cst.BaseExpression, exp_call: cst.Call, spelled: str,
                     namespace: str) -> Optional[Fix]:
        """``exp(z) / reduce_sum(exp(z), axis=a, keepdims=True)`` → ``softmax(z, axis=a)``:
        only with one integer axis and keepdims (otherwise the sum is over other axes, or
        `axis=` is not one the softmax takes)."""
        if numerator is not exp_call or not isinstance(denominator, cst.Call):
            return None
        axis = self.analysis.axis(denominator)
        keepdims = self.analysis.keyword(denominator, "keepdims")
        inner = denominator.args[0].value if denominator.args else None
        if (not self._one_axis(denominator)
                or not (isinstance(keepdims, cst.Name) and keepdims.value == "True")
                or not isinstance(inner, cst.Call)
                or self.analysis.code(inner).strip()
                != self.analysis.code(exp_call).strip()):
            return None
        logits = _exp_argument(exp_call)
        if logits is None or namespace not in ("tf", "ops"):
            return None  # `K.exp`: no softmax in the user's namespace
        replacement = self.named_like(node, self.template(
            f"{spelled}({{z}}, axis={{a}})", z=logits, a=axis), namespace == "tf")
        return self.fix(f"use `{spelled}`", node, replacement) if replacement else None

    # -- evidence ---------------------------------------------------------------------------
    def _overflow_evidence(self, total: Value) -> Optional[Tuple[Evidence, str, cst.Call]]:
        """Evidence that the exponent inside ``sum(exp(z))`` is unbounded, and `z`'s source."""
        reduce_call = total.node
        if not isinstance(reduce_call, cst.Call):
            return None
        op = self.analysis.op_of(reduce_call)
        if op is None:
            return None
        summand = self.analysis.argument(reduce_call, op, 0)
        if summand is None:
            return None
        summed = self.analysis.value(summand)
        exp_call = summed.node
        if not isinstance(exp_call, cst.Call):
            return None
        exp_op = self.analysis.op_of(exp_call)
        if exp_op is None or exp_op.name != "exp":
            return None
        argument = self.analysis.argument(exp_call, exp_op, 0)
        if argument is None:
            return None
        exponent = self.analysis.value(argument)
        if exponent.hi != float("inf"):
            return None
        if "exp_scaled" in summed.tags and not exponent.known:
            # A weighted sum of exps (`exp(-r * t) * w`, a masked softmax) whose exponent
            # comes from where the file does not show: no evidence that it is ever large.
            return None
        shown = self.source(argument)
        if exponent.known:
            why = (f"whose argument `{shown}` nothing bounds above: {_overflow(summed.dtype)}, "
                   f"so the sum is inf")
            confidence = "high"
        else:
            why = (f"whose argument `{shown}` is not shifted by its maximum or clipped: "
                   f"{_overflow(summed.dtype)}, so the sum is inf")
            confidence = "medium"
        return Evidence(exp_call, "`{src}`", why, confidence, producer="exp"), shown, exp_call

    # -- spelling ---------------------------------------------------------------------------
    def _logsumexp_spelling(self, reduce_call: Optional[cst.Call]) -> Optional[str]:
        """The fused op of the sum: TensorFlow's running one for a running sum (`cumsum`,
        which Keras and numpy have none of: None)."""
        # The Keras backend `K` of Keras 3 (`tf.keras.backend` since TF 2.16) has no
        # logsumexp: a `K.` sum is answered in `tf` (and gets no fix: see _logsumexp_fix).
        namespace, prefix = self.namespace(reduce_call, ("tf", "ops", "np"))
        if reduce_call is not None and last_name(reduce_call.func) == "cumsum":
            return f"{prefix}.math.cumulative_logsumexp" if namespace == "tf" else None
        if namespace == "tf":
            return f"{prefix}.math.reduce_logsumexp"
        return f"{prefix}.logaddexp.reduce" if namespace == "np" else f"{prefix}.logsumexp"

    def _axis(self, reduce_call: Optional[cst.Call]) -> Optional[str]:
        axis = self.analysis.axis(reduce_call) if reduce_call is not None else None
        return self.source(axis) if axis is not None else None


_SELECT_DEPTH = 6  # the nodes between an op and the select whose branch holds it
_SPELLED = ("tf", "ops", "K", "np")  # the families a suggestion is spelled in


def _exp_argument(call: Optional[cst.Call]) -> Optional[cst.BaseExpression]:
    """The exponent of ``exp(z)`` (positional or ``x=``)."""
    if call is None:
        return None
    for arg in call.args:
        if arg.keyword is None and not arg.star:
            return arg.value
        if arg.keyword is not None and arg.keyword.value == "x":
            return arg.value
    return None
