"""NAN101 unguarded-division."""

from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from nanlint.rule import (Evidence, Option, Rule, Value, denominator_forms, in_tested_branch,
                          last_name, names_in, safe_branches, terms, tests)

# Tests of a result for inf or NaN (`tf.math.is_inf`, `np.isnan`, ...).
_RESULT_TESTS = frozenset({"is_inf", "is_nan", "is_finite", "isinf", "isnan",
                           "isfinite"})


class UnguardedDivision(Rule):
    """
    ## What it does
    Flags a division (`a / b`, `tf.divide`, `tf.math.divide`, `tf.div`, `tf.truediv`,
    `tf.realdiv`, `keras.ops.divide`, `/=`), or a negative power (`x ** -0.5`, `tf.pow(x, -1)`,
    `keras.ops.power`: a division by a power of `x`, inf at 0 in the value itself), whose
    denominator (base) is a tensor that can be exactly 0: a count of a mask, a sum or mean of
    relu outputs, a sum of squares or a norm of a difference, `1 - p` of a probability, a
    variable whose initial value can be 0 (`tf.Variable(tf.random.uniform([], 0.0, 2.0))`,
    `K.variable(total_steps)` of a parameter that is 0 by default; also kept in a config
    dict, passed to a function, or returned by a helper; a trainable variable that starts
    away from 0 crosses 0 only by landing on it exactly, which is no evidence; nor is the
    norm of a variable's row or column, 0 only where every entry is at once), a parameter
    whose default is 0 (`warmup_steps=0`: its value wherever a caller leaves it out), a
    hand-computed variance `E[x²] - E[x]²` (or
    `sum_sq - mean * sum`, also over windows as `conv3d(x * x, box)`), even plus an epsilon
    unless it is clipped at 0 first (float32 rounding makes it negative for a constant input, by
    up to ~2.6e-6 x E[x²] under TF: a normalized cross-correlation `(cross * cross + EPS) /
    (t_var * p_var + EPS)`), a difference of two sums, a variance or standard deviation
    (`tf.math.reduce_std`, `K.std`, `keras.ops.var`: 0 for a constant row), the union `area1 +
    area2 - overlap` of an IoU (0 for two zero-size boxes, the padding of a label tensor; not
    where one area is a size from an exp, `exp(t_w) * anchor_w`: the union is at least it), and
    the state of a metric made with a zeros initializer (`add_weight(..., initializer="zeros")`,
    0 before the first update and after a reset), and a moving average of squares of a gradient
    `b * v + (1 - b) * g²` (`m / sqrt(v)` of an optimizer's update: a gradient is exactly 0 for
    a dead unit, and so is the average; the gradient is what a tape returns, or the first
    parameter of an optimizer's update method, `_apply_dense(self, grad, var)`), and a softplus
    written by hand, `log(1 + exp(z))` of a linear output `z` (a matmul, a dense layer), which
    is exactly 0 once `z < -16.6` (float32 rounds `1 + exp(z)` to 1; `tf.nn.softplus` does
    not, medium confidence). It also flags
    `tf.math.divide_no_nan(a, b)` when `b` is a continuous value that can get tiny (a product of
    probabilities, a variance, the denominator of a normalized cross-correlation), which
    `divide_no_nan` does not guard.

    Where a gradient is shown to flow (a loss), the harmonic mean `p * r / (p + r)` of an
    F1 is reported with medium confidence: it is 0 / 0 where a precision and a recall are
    both 0 (a class never predicted), unless one of them is shown positive. A ratio of a
    sum of weights alone (`sum(v * w) / sum(w)`, `x / sum(x)`) is not: judged on real code,
    the weights were nearly always positive by construction; `nanlint suspects` ranks it.
    A division in the branch of an `if`, of a conditional expression or of a `tf.cond` that
    runs only where the test has excluded a zero denominator (`if d > 0: x = n / d`, `0 if v
    == 0 else r / v`, `tf.cond(d > 0, lambda: n / d, lambda: 0.0)`, or a branch function
    defined beside the call; not `tf.cond(limit > d, ...)`, where `d` may be 0), or after an
    `if` that tests it and leaves (`if p == 0 or r == 0: return 0`), is guarded: only that
    branch runs. The test may name what the denominator casts, multiplies by a constant, or
    takes the root, square or absolute value of, each 0 exactly where it is (`n / (d * 1000)
    if d > 0 else 0`, `if mse == 0: return` before `255 / sqrt(mse)`). A counter increased
    before the division on every path to it by a positive amount (`self.n.assign_add(1)`,
    `K.update_add(n, 1.0)`; not by a tensor's size, 0 for an empty tensor) is not 0 there,
    though it starts at 0 (trainable or not). A selection of the non-zero elements,
    `tf.boolean_mask(c, c != 0)` (or `c > 0`), has no zero left; numpy's `finfo` limits are
    the numbers they are (`+ np.finfo(np.float32).eps` is an epsilon float32 holds). A 0/1
    mask of where a tensor reaches its maximum or minimum along an axis, or of a vector
    compared with itself laid along the other axis (`equal(l, transpose(l))`, `l[:, None] ==
    l[None, :]`: its diagonal), holds a 1 in each row, so its sum along that axis is at
    least 1; a test that every element passes by its operand's range (`d > 0` of `d =
    sqrt(maximum(x, 1e-12))`) is all ones.

    The sum of a parameter named like a mask or labels (`mask`, `*_mask`, `valid`,
    `weights`, `is_*`, `y_true`, `labels`: the `mask-parameters` setting; a batch with no
    positive label sums to 0), or of a parameter cast to float, is a count by convention:
    it is reported with medium confidence, and the message says so. So is its mean (the
    fraction selected), the rows of such a mask mapped by `tf.map_fn`, and a mask minus a
    0/1 tensor (`cast(equal(l, transpose(l))) - eye(n)`: the pairs of equal labels
    without the diagonal). A select by a condition and its negation, `x * cast(c) +
    cast(logical_not(c))` (or `m * x + (1 - m) * y`), is 0 only where the value it selects
    is: the zeros of the two casts never meet.

    ## Why is this bad?
    `x / 0` is `inf` and `0 / 0` is `NaN`; either poisons the loss, and the gradient of
    `a / b` with respect to `b` is `-a / b**2`, which overflows as `b` approaches 0 even when
    the forward value looks fine. This is the classic "loss is fine, then suddenly NaN" bug:
    one batch without a positive label, one dead relu row, one exact fit.
    `divide_no_nan` returns 0 only for an exact 0: a denominator of 1e-20 still gives a
    value of 1e20 and an infinite gradient.

    ## Example
    ```python
    count = tf.reduce_sum(tf.cast(labels > 0, tf.float32))
    loss = tf.reduce_sum(per_example * mask) / count
    ```

    ## Use instead
    ```python
    loss = tf.reduce_sum(per_example * mask) / tf.maximum(count, 1)
    # or, if an empty mask should give 0:
    loss = tf.math.divide_no_nan(tf.reduce_sum(per_example * mask), count)
    # or, for a continuous denominator:
    loss = total / (count + 1e-7)
    ```

    ## Fix safety
    Safe for proven counts, else unsafe. A denominator that the value analysis proves to
    hold whole numbers and never to be negative (a sum of casts of booleans: comparisons,
    `tf.cast(x > 0, ...)`, `tf.not_equal`, `tf.sequence_mask`; of one-hot rows; of integer
    tensors proven non-negative; `tf.math.count_nonzero`), or that has an integer dtype and
    is never negative, is 0 or at least 1, so it is clamped: `total / tf.maximum(count, 1)`
    (the integer 1 takes the count's dtype, float or integer, where `1.0` fails for the
    int64 of `count_nonzero`; `tf.` as the file spells it, `ops.` or `K.` for Keras; a
    parenthesized count is replaced with its parentheses, as the help line writes it).
    That is safe: the result equals the old one
    wherever the old one was finite, and the numerator keeps its gradient; `--fix` applies
    it. If an empty count should give 0, `tf.math.divide_no_nan(total, count)` is the
    alternative the help line names.

    Anything not proven to be whole numbers gets no clamp, since clamping at 1 would change
    it where it lies between 0 and 1: a fraction (a count divided by a size, a mean of a
    mask), a sum of continuous values under a mask (`reduce_sum(exp(-d) * mask)`), and the
    sum of a parameter that is a mask only by its name (`mask`, `weights`, `sample_weight`:
    it may hold weights such as 0.25). Where such a denominator is known not to be
    negative, the fix adds the configured `fix-epsilon` (`total / (norm + 1e-7)`;
    `fix-epsilon-float16` for a float16 value), also inside `tf.divide(a, b)` and
    `divide_no_nan(a, b)`; never to an integer, which takes no epsilon. That fix is
    unsafe: it changes values where the denominator is near 0, which is the point, so it
    is applied only with `--unsafe-fixes`. A whole-number
    denominator not proven non-negative (an integer cast of a parameter) gets the clamp,
    unsafe. A denominator that can be negative gets no fix: adding an epsilon can move its
    zero instead of removing it.

    A division in a value that takes no gradient (a metric, a summary, a print) is still
    reported, one step less confident, saying so: an inf metric is still a bug. But there, a
    division inside `tf.where(den > 0, a / den, 0)` is guarded (only its gradient would be
    NaN, and none flows), also when the condition is assigned first (`ok = tf.not_equal(den,
    0)`) and wherever no gradient is shown to flow, and so is a result that every read
    passes through one select testing it for inf or NaN (`d = deg ** -0.5`, then
    `d = tf.where(tf.math.is_inf(d), 0.0, d)`, or a `cond` with lambda branches, `tf.cond(
    tf.reduce_any(tf.math.is_nan(m)), lambda: tf.zeros_like(m), lambda: m)`) or taking it
    only where the denominator is not 0 (`r = w / g`, then `r = tf.where(g > 0, r, 1.0)`);
    a `check_numerics` alone fixes nothing. The `cond` guards also where a gradient flows
    (it runs and differentiates only the branch it takes); a `where` does not: where a
    gradient flows through `tf.where(den > 0, a / den, 0)`, NAN204 reports it in place of
    this rule (one division, one finding) and says why the where does not guard it, and a
    quotient a later `where` fixes is reported here.

    ## Options
    - `check-divide-no-nan` (bool, default `true`): also report `divide_no_nan` by a
      continuous value that can get tiny.

    ## Preview
    Judged on 44 findings in real repositories nobody here had tuned on, 13 were real or
    likely risks, 29 false and 2 style: a count that the data pipeline keeps at 1 or more
    (every target gets an end token), boxes decoded in another function, probabilities of
    a sampled action, code no caller reaches. Each needs values followed across files. It
    waits in preview until a sample shows 2 in 3; `nanlint suspects` ranks its sites.
    """

    code = "NAN101"
    preview = True
    hazard = "forward"
    name = "unguarded-division"
    severity = "error"
    summary = "division by a tensor that can be 0"
    fix_safety = "unsafe"
    fix_safety_detail = "safe for proven counts, else unsafe"
    options = {
        "check-divide-no-nan": Option(True, bool, "also report divide_no_nan by a continuous "
                                      "value that can get tiny"),
    }
    VALID = [
        "import tensorflow as tf\nc = tf.reduce_sum(tf.cast(y > 0, tf.float32))\n"
        "r = tf.math.divide_no_nan(t, c)\n",
        "import tensorflow as tf\nh = tf.nn.relu(x)\nw = h / (tf.reduce_sum(h) + 1e-7)\n",
        "import tensorflow as tf\ndef f(x, scale):\n    return x / scale\n",
        "total = 3.0\nsteps = 2\navg = total / steps\n",
    ]
    INVALID = [
        "import tensorflow as tf\nc = tf.reduce_sum(tf.cast(y > 0, tf.float32))\nr = t / c\n",
        "import tensorflow as tf\ndef f(x, mask):\n"
        "    return tf.reduce_sum(x * mask) / tf.reduce_sum(mask)\n",
        "import tensorflow as tf\nh = tf.nn.relu(x)\nw = tf.divide(h, tf.reduce_sum(h))\n",
        "from keras import ops\nd = ops.sum(ops.square(a - b))\nr = ops.divide(1.0, d)\n",
        "import tensorflow as tf\nclass Kappa(tf.keras.metrics.Metric):\n"
        "    def __init__(self):\n"
        "        self.m = self.add_weight('m', shape=(3, 3), initializer='zeros')\n"
        "    def result(self):\n        return self.m / tf.reduce_sum(self.m)\n",
    ]

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Divide):
            self._check(node, node.right)
        elif isinstance(node.operator, cst.Power) and self._negative(node.right):
            self._check(node, node.left, power=True)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.operator, cst.DivideAssign):
            self._check(node, node.value)

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None:
            return
        if op.name == "divide":
            denominator = self.analysis.argument(node, op, 1)
            if denominator is not None:
                self._check(node, denominator)
        elif op.name == "pow" and self._negative(self.analysis.argument(node, op, 1)):
            base = self.analysis.argument(node, op, 0)
            if base is not None:
                self._check(node, base, power=True)
        elif op.name == "divide_no_nan" and self.settings["check-divide-no-nan"]:
            denominator = self.analysis.argument(node, op, 1)
            if denominator is not None:
                self._check_no_nan(node, denominator)

    def _negative(self, exponent: Optional[cst.BaseExpression]) -> bool:
        """A constant exponent below 0: ``x ** -0.5`` is ``1 / x ** 0.5``, inf at 0."""
        number = self.analysis.value(exponent).const if exponent is not None else None
        return number is not None and number < 0

    def _evidence(self, denominator: cst.BaseExpression) -> Optional[Evidence]:
        value: Value = self.analysis.value(denominator)
        evidence = value.zero
        if evidence is None or (evidence.convention and evidence.confidence == "low"):
            return None  # a probability-named parameter is too weak; a mask count is not
        return evidence

    def _numerator(self, node: cst.CSTNode) -> str:
        """The numerator as written, for a help line."""
        top = self._numerator_expression(node)
        return self.source(top) if top is not None else "numerator"

    def _numerator_expression(self, node: cst.CSTNode) -> Optional[cst.BaseExpression]:
        if isinstance(node, cst.BinaryOperation):
            return node.left
        if isinstance(node, cst.AugAssign):
            return node.target
        if isinstance(node, cst.Call):
            op = self.analysis.op_of(node)
            return self.analysis.argument(node, op, 0) if op is not None else None
        return None

    def _check(self, node: cst.CSTNode, denominator: cst.BaseExpression,
               power: bool = False) -> None:
        """``power``: ``denominator`` is the base of a negative power, a division by it."""
        evidence = self._evidence(denominator)
        if evidence is None and not power:
            evidence = self.analysis.own_factors(self._numerator_expression(node), denominator)
            if evidence is not None and not self.gradient_shown(node):
                evidence = None  # the form is evidence only where a gradient flows (a loss)
        if evidence is None:
            return
        if in_tested_branch(self, node, denominator) or self._exits_first(node, denominator) \
                or self._incremented_first(node, denominator):
            return
        select = self._fixed_after(node, denominator)
        if select is not None and self.analysis.op_of(select).name == "cond":
            return  # a cond runs, and differentiates, only the branch it takes
        if (select is not None or self._where_guarded(node, denominator)) and (
                not self.gradient_shown(node)):
            return  # the where keeps the value; only the dropped branch's gradient is NaN
        shown = self.source(denominator)
        value = self.analysis.value(denominator)
        numerator = "1" if power else self._numerator(node)
        family, prefix = self.namespace(
            evidence.node if isinstance(evidence.node, cst.Call) else None,
            ("tf", "ops", "K", "np"))
        # The help shows the division as the fix writes it, in its own form: `a / b`,
        # `a /= b`, `tf.math.divide(a, b)`.
        assign = f"{numerator} = " if isinstance(node, cst.AugAssign) else ""
        clamp = f"`{self.rewritten(node, denominator, self.clamp(denominator, prefix))}`"
        no_nan = (f"; or `{assign}{prefix}.math.divide_no_nan({numerator}, {shown})` if an "
                  "empty " if family == "tf" and evidence.discrete and not evidence.tiny
                  and not power else "")
        integer = self.integer_typed(denominator)
        if (value.whole or integer) and value.negative is None:
            # Whole numbers (proven, or of an integer dtype, to which no epsilon can be
            # added): proven not negative, a count is 0 or at least 1, so the clamp
            # changes nothing where the division was finite (safe); otherwise (an integer
            # cast of a parameter) it is the fix an integer dtype can take, unsafe.
            count = value.is_count or (integer and value.nonnegative)
            exact = ("is exact wherever the count is not 0" if count else
                     "is exact if the count is never negative (a mask of 0s and 1s)")
            suggestion = (f"clamp the count: {clamp} {exact}" + (
                "" if power else " and keeps the gradient of the numerator") + (
                no_nan and no_nan + "count should give 0"))
            fix = self.fix(f"clamp the count with `{prefix}.maximum`", denominator,
                           self.clamp(denominator, prefix),
                           safety="safe" if count else "unsafe")
        elif evidence.producer == "variance_epsilon":
            suggestion = clip_variance(evidence, self.namespace(
                self._op_call(evidence.node))[1])
            fix = None
        else:
            # Not proven whole (a fraction, a mean, a masked sum of continuous values, a
            # parameter that is a mask only by its name): clamping at 1 would change it.
            guarded = self.plus_epsilon(denominator, value,
                                        parenthesize=isinstance(node, cst.BinaryOperation))
            suggestion = (f"add an epsilon to the denominator: "
                          f"`{self.rewritten(node, denominator, guarded)}`"
                          + (no_nan and no_nan + "selection should give 0"))
            if evidence.discrete and evidence.convention and self.holds(
                    denominator, evidence.node) is not False:
                # (not for a value computed from the count: a fraction, a scaled count)
                suggestion += (f"; if it only ever holds 0 and 1, clamping the count, {clamp}, "
                               "is exact")
            fix = self._fix(denominator, isinstance(node, cst.BinaryOperation), power)
        what = (f"negative power of `{shown}`, which is a division by it and can be 0"
                if power else f"division by `{shown}`, which can be 0")
        self.report(node, f"{what}: {{evidence}}", evidence=evidence,
                    suggestion=suggestion.replace("to the denominator", "to the base")
                    if power else suggestion, fix=fix)

    def _exits_first(self, node: cst.CSTNode, denominator: cst.BaseExpression) -> bool:
        """``if rec == 0 or pre == 0: return 0`` before ``2 * rec * pre / (rec + pre)``: an
        earlier ``if`` of the same function that compares the denominator (or one of its
        terms) and leaves (return, raise, continue, break) guards the division after it."""
        shown = {self.source(term) for term in terms(denominator)}
        shown.update(denominator_forms(self, denominator))  # also what it casts or roots
        return any(isinstance(statement, cst.If) and _leaves(statement.body) and any(
            tests(self, statement.test, text, None, 0) for text in shown)
            for statement in self._run_before(node))

    def _incremented_first(self, node: cst.CSTNode, denominator: cst.BaseExpression) -> bool:
        """``self.n.assign_add(1)`` before ``self.total / self.n``: a counter increased before
        the division (in the same function, on every path to it) by a positive amount is
        not 0 there: its zero evidence is where it starts (a counter is not decremented
        below it). A tensor's size is no such amount: it is 0 for an empty tensor."""
        shown = set(denominator_forms(self, denominator))  # also what it casts
        for statement in self._run_before(node):
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                call = small.value if isinstance(small, cst.Expr) else None
                if not isinstance(call, cst.Call) or last_name(call.func) not in (
                        "assign_add", "update_add"):
                    continue
                args = [arg.value for arg in call.args if arg.keyword is None]
                if isinstance(call.func, cst.Attribute) and last_name(call.func) == \
                        "assign_add" and self.source(call.func.value) in shown and args:
                    amount = args[0]
                elif len(args) >= 2 and self.source(args[0]) in shown:
                    amount = args[1]
                else:
                    continue
                if self.analysis.value(amount).positive:
                    return True
        return False

    def _run_before(self, node: cst.CSTNode) -> Iterator[cst.BaseStatement]:
        """The statements of ``node``'s function that run before it on every path: those
        before it in its block and in each block around it."""
        child, parent = node, self.analysis.parent(node)
        while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Module)):
            if isinstance(parent, (cst.IndentedBlock, cst.Module)):
                for statement in parent.body:
                    if statement is child:
                        break
                    yield statement
            child, parent = parent, self.analysis.parent(parent)

    def _where_guarded(self, node: cst.CSTNode, denominator: cst.BaseExpression) -> bool:
        """``tf.where(den > 0, a / den, 0)``: the branch of a where that its condition takes
        only where the denominator is not 0 (or, where the direction is not read, a branch
        of a where whose condition tests the denominator)."""
        arg = self.analysis.parent(node)
        call = self.analysis.parent(arg) if isinstance(arg, cst.Arg) else None
        if not isinstance(call, cst.Call) or len(call.args) < 3 or arg is call.args[0]:
            return False
        op = self.analysis.op_of(call)
        if op is None or op.name != "where":
            return False
        shown = self.source(denominator)
        safe = safe_branches(self, call.args[0].value, shown, None, 0)
        if safe:  # `tf.where(d == 0, n / d, 0)` takes the division where d is 0
            return (arg is call.args[1]) in safe
        return tests(self, call.args[0].value, shown, None, 0)

    def _fixed_after(self, node: cst.CSTNode, denominator: cst.BaseExpression
                     ) -> Optional[cst.Call]:
        """``d = deg ** -0.5`` and then ``d = tf.where(tf.math.is_inf(d), 0.0, d)``, or ``r =
        a / b`` and then ``r = tf.where(b > 0, r, 1.0)``: every read of the result is in one
        select (a `where`, or a `cond` whose branches are lambdas) whose condition tests it
        for inf or NaN (a check of the result followed by its fix), or picks it only where
        the condition excludes a zero denominator. That select, or None."""
        readers = self.analysis.readers(node)
        if not readers or readers == [node]:
            return None
        selects, tested = {}, False
        shown = self.source(denominator)
        for read in readers:
            child, parent = read, self.analysis.parent(read)
            while parent is not None and not (isinstance(parent, cst.Call) and (
                    op := self.analysis.op_of(parent)) is not None and op.name in (
                        "where", "cond")):
                if isinstance(parent, cst.Call) and last_name(parent.func) in _RESULT_TESTS:
                    tested = True
                if isinstance(parent, cst.BaseSmallStatement):
                    return None
                child, parent = parent, self.analysis.parent(parent)
            if parent is None or len(parent.args) < 3:
                return None
            selects[id(parent)] = parent
            if child is parent.args[1] or child is parent.args[2]:
                # the branch the select takes where its condition holds (or fails)
                if (child is parent.args[1]) in safe_branches(
                        self, parent.args[0].value, shown, None, 0):
                    tested = True
        return next(iter(selects.values())) if tested and len(selects) == 1 else None

    def _fix(self, denominator: cst.BaseExpression, operand: bool = False,
             power: bool = False):
        value = self.analysis.value(denominator)
        if value.negative is not None or self.integer_typed(denominator):
            return None  # the epsilon could move the zero; an integer takes no epsilon
        return self.fix(f"add an epsilon to the {'base' if power else 'denominator'}",
                        denominator,
                        self.plus_epsilon(denominator, value, parenthesize=operand))

    def _check_no_nan(self, node: cst.Call, denominator: cst.BaseExpression) -> None:
        evidence = self._evidence(denominator)
        if evidence is None or not evidence.tiny:
            return  # an exact 0 (a count, a mask, a relu) is what divide_no_nan guards
        shown = self.source(denominator)
        guarded = self.rewritten(node, denominator, self.plus_epsilon(
            denominator, self.analysis.value(denominator)))
        self.report(node, f"`divide_no_nan` guards only an exact 0, but `{shown}` can get "
                    f"tiny without being 0 (the value and its gradient overflow): {{evidence}}",
                    evidence=evidence.weaker("medium"),
                    suggestion=clip_variance(evidence, self.namespace(
                        self._op_call(evidence.node))[1])
                    if evidence.producer == "variance_epsilon" else
                    f"add an epsilon to the denominator: `{guarded}`",
                    fix=None if evidence.producer == "variance_epsilon"
                    else self._fix(denominator))


def clip_variance(evidence: Evidence, prefix: str) -> str:
    """The advice for a hand-computed variance that an epsilon does not guard."""
    name = f"`{evidence.name}`" if evidence.name else "the variance"
    return (f"clip {name} at 0 before adding the epsilon (`{prefix}.maximum("
            f"{evidence.name or 'var'}"
            ", 0.0) + eps`, as Flax and Keras do), or compute it as `mean(square(x - "
            "mean(x)))`, which cannot be negative")


def _leaves(body: cst.BaseSuite) -> bool:
    """Whether a block ends by leaving: return, raise, continue or break."""
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    last = statements[-1] if statements else None
    if isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        last = last.body[-1] if last.body else None
    return isinstance(last, (cst.Return, cst.Raise, cst.Continue, cst.Break))
