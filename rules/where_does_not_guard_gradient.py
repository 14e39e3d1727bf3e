"""NAN204 where-does-not-guard-gradient."""

from __future__ import annotations

from dataclasses import dataclass
from typing import FrozenSet, Iterator, Optional

import libcst as cst

from nanlint.rule import Evidence, Rule, large_values_pass, magnitude_of, safe_branches

_MAX_HOPS = 3  # variables followed from a branch to the singular op, and from a condition
_SINGULAR_LIMIT = 1e-3  # `x > 0`, `x > 1e-8`: a comparison that excludes the singular point
_EXP_BOUND = 80.0  # an exp argument kept below this is finite, and so is its derivative
_BOOL_OPS = frozenset({"bool"})


@dataclass
class Site:
    """A singular op inside a branch: where it is, what it is, and its singular operand."""

    node: cst.CSTNode  # the call or operation
    kind: str  # "log", "divide", "pow"
    operand: cst.BaseExpression  # log's argument, the denominator, the base of the power
    numerator: Optional[cst.BaseExpression] = None  # of a division
    name: Optional[str] = None  # the variable that holds it, when the branch is reached so
    top: Optional[cst.BaseExpression] = None  # the branch expression that holds it directly


_WHY = {
    "log": "whose derivative 1/x is infinite where `{x}` is 0",
    "divide": "whose derivative is infinite where the denominator `{x}` is 0",
    "pow": "whose derivative is infinite where `{x}` is 0 (and NaN where it is negative)",
    "exp": "which overflows to inf, and its derivative with it, once `{x}` passes 88",
}


class WhereDoesNotGuardGradient(Rule):
    """
    ## What it does
    Flags `tf.where(cond, f(x), other)` (also `tf.compat.v1.where`, `K.switch`,
    `keras.ops.where`) where `f` is a log, a division or a fractional or negative power and
    the condition compares `f`'s singular argument, or its magnitude, with 0 (`x > 0`,
    `tf.equal(n, 0)`, `mask = x > 0`, `(x > 0) & valid`, `tf.abs(x) > 1e-9`): the author
    guards the singular point, but only on the outside. Also where `f` holds an exp and the
    condition sends the exp's large arguments to the other branch (`tf.where(x > 0, x,
    tf.exp(x) - 1)`, a hand-written ELU; `tf.where(x > 20, x, tf.math.log1p(tf.exp(x)))`, a
    softplus that switches to `x`): the select keeps the overflow out of the value only.
    The branch may be assigned to a variable first (`y = tf.math.log(x); tf.where(x > 0, y,
    0.)`). Quiet when the argument
    is made safe itself — the double where `f(tf.where(x > 0, x, 1))`, a positive value,
    `log(x + 1e-7)` — when the numerator of a division is zeroed by a `where`, and on
    `tf.sqrt` / `tf.math.rsqrt`, and where the value reaches no differentiated objective
    (only metrics, summaries, logs, fetches or assertions; tests; metric methods). Quiet too
    where the select takes the branch exactly where the test lets the argument be 0
    (`tf.where(tf.equal(n, 0), total / n, 0.0)`, `tf.where(n > 0, 0.0, total / n)`): that
    guards neither the value nor the gradient: NAN101 or NAN102 judges the op on its own.

    ## Why is this bad?
    `tf.where` selects values, but both branches are computed and differentiated. For an
    element where the condition is false, the gradient that reaches `f(x)` is 0, and the
    chain rule multiplies it by `f'(x)`, which is infinite at the very point the `where`
    avoids: `0 * inf = NaN`, and the NaN spreads into every weight. A division that the
    where guards is this one finding, not also NAN101's: the value is guarded, the gradient
    is what is not. Checked under
    TensorFlow 2.21: the gradient of `tf.where(x > 0, f(x), 0)` at `x = 0` is NaN for
    `f = log`, `1/x` and `x ** 0.5`. `tf.sqrt` and `tf.math.rsqrt` are not reported: their
    gradients already give 0 there. An exp past 88 is inf in float32, and so is its
    derivative: the same `0 * inf` (checked under TF: the gradient of
    `tf.where(x > 0, x, tf.exp(x) - 1)` at `x = 100` is NaN). The severity is error: the NaN
    appears exactly at the point the author anticipated, so it is reached, and it poisons
    every weight at once.

    ## Example
    ```python
    y = tf.where(x > 0, tf.math.log(x), tf.zeros_like(x))
    mean = tf.where(tf.equal(n, 0), tf.zeros_like(total), total / n)
    elu = tf.where(x > 0, x, tf.exp(x) - 1.0)
    ```

    ## Use instead
    ```python
    safe_x = tf.where(x > 0, x, tf.ones_like(x))  # the "double where"
    y = tf.where(x > 0, tf.math.log(safe_x), tf.zeros_like(x))
    mean = tf.math.divide_no_nan(total, n)
    elu = tf.nn.elu(x)  # or the exp of `tf.minimum(x, 0.0)`
    ```

    ## Fix safety
    Safe for a division by a proven count, else unsafe. A division in the branch by a value
    the analysis proves to be 0 or at least 1 (a sum of casts of booleans, of one-hot rows)
    gets the count clamp, `total / tf.maximum(count, 1)`, also where the division is
    assigned to a variable first: it changes no value the where keeps, and the branch not
    taken gets a finite gradient; `--fix` applies it.
    Otherwise, where the singular op sits in the branch itself, the fix guards its argument
    with the same condition — the double where, `tf.where(x > 0, tf.math.log(tf.where(x >
    0, x, tf.ones_like(x))), 0.)` (`ops.ones_like`, `K.ones_like` in those namespaces, `1.0`
    for a bare `where`). Every value stays the same and the NaN gradient becomes the right
    one, but the condition and the argument are now computed twice and the gradient takes
    another path, so it is applied only with `--unsafe-fixes`. A singular op assigned to a
    variable first is left to you (the guard belongs where the variable is computed).

    ## Options
    None.

    ## Preview
    Judged on 2 findings in real repositories nobody here had tuned on, both were false:
    the `where` guarded counts of comparisons, which carry no gradient. Too few to judge
    the rule by, but none real. It waits in preview until a sample shows 2 in 3;
    `nanlint suspects` ranks its sites.
    """

    code = "NAN204"
    preview = True
    hazard = "gradient"
    name = "where-does-not-guard-gradient"
    severity = "error"
    fix_safety = "unsafe"
    fix_safety_detail = "safe for a division by a proven count, else unsafe"
    # A division the where guards is one finding: this one says why the guard fails.
    supersedes = frozenset({"NAN101"})
    summary = ("tf.where that guards only the value, not the gradient, of log, division, pow "
               "or exp")
    VALID = [
        "import tensorflow as tf\nsafe = tf.where(x > 0, x, tf.ones_like(x))\n"
        "y = tf.where(x > 0, tf.math.log(safe), tf.zeros_like(x))\n",
        "import tensorflow as tf\ny = tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x))\n",
        "import tensorflow as tf\ny = tf.where(x > 0, tf.math.log(x + 1e-7), 0.0)\n",
        "import numpy as np\ny = np.where(x > 0, np.log(x), 0.0)\n",
        "import tensorflow as tf\ny = tf.where(x > 0, x, tf.exp(tf.minimum(x, 0.0)) - 1.0)\n",
    ]
    INVALID = [
        "import tensorflow as tf\ndef log_loss(x):\n"
        "    return tf.where(x > 0, tf.math.log(x), tf.zeros_like(x))\n",
        "from tensorflow.keras import backend as K\ndef mean_loss(s, n):\n"
        "    return K.switch(K.equal(n, 0), n * 0, s / n)\n",
        "from keras import ops\ndef log_loss(x):\n    y = ops.log(x)\n"
        "    return ops.where(x > 0, y, 0.0)\n",
        "import tensorflow as tf\ndef elu_loss(x):\n"
        "    return tf.where(x > 0, x, tf.exp(x) - 1.0)\n",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None or op.name != "where":
            return
        cond = self.analysis.argument(node, op, 0)
        branches = [self.analysis.argument(node, op, 1), self.analysis.argument(node, op, 2)]
        if cond is None or branches[0] is None or branches[1] is None:
            return  # `tf.where(cond)` returns indices
        for position, branch in enumerate(branches):
            for site in self._sites(branch, branch, None, _MAX_HOPS):
                if site.kind == "exp":
                    if self._exp_guarded(cond, position, site):
                        continue
                    self._report(node, cond, branch, position, site)
                    return
                if self._safe(site.operand) or not self._tests(cond, self.aliases(
                        site.operand, 1), _MAX_HOPS):
                    continue
                if site.numerator is not None and self._from_where(site.numerator, _MAX_HOPS):
                    continue  # the numerator is zeroed by a where: its gradient is guarded
                if self._taken_where_singular(cond, position, site):
                    continue  # the value itself is unguarded: NAN101 / NAN102 report it
                self._report(node, cond, branch, position, site)
                return

    # -- finding the singular ops of a branch ---------------------------------------------
    def _sites(self, expr: cst.CSTNode, top: cst.BaseExpression, name: Optional[str],
               hops: int) -> Iterator[Site]:
        if isinstance(expr, (cst.Lambda, cst.Comparison)):
            return  # a callable branch of K.switch runs under tf.cond; booleans: no gradient
        if isinstance(expr, cst.Name):
            if hops > 0:
                definition = self.analysis.definition(expr)
                if definition is not None:
                    yield from self._sites(definition, definition, expr.value,
                                           hops - 1)
            return
        if isinstance(expr, cst.Call):
            op = self.analysis.op_of(expr)
            if op is not None and op.name == "where":
                return  # an inner where is checked on its own
            if op is not None and op.name in ("ones", "zeros"):
                return  # `tf.ones_like(x)` takes only the shape of x: no gradient flows
            if op is not None and (self.analysis.qualified_name(expr.func) or "").endswith(
                    "stop_gradient"):
                return
            site = self._call_site(expr, op) if op is not None else self._helper_site(expr)
            if site is not None:
                site.name, site.top = name, top
                yield site
                return
            for arg in expr.args:
                yield from self._sites(arg.value, top, name, hops)
            return
        if isinstance(expr, cst.BinaryOperation):
            site = self._operator_site(expr)
            if site is not None:
                site.name, site.top = name, top
                yield site
                return
        for child in expr.children:
            if isinstance(child, cst.BaseExpression):
                yield from self._sites(child, top, name, hops)

    def _call_site(self, call: cst.Call, op) -> Optional[Site]:
        if op.name == "log":
            operand = self.analysis.argument(call, op, 0)
            return Site(call, "log", operand) if operand is not None else None
        if op.name == "divide":
            operand = self.analysis.argument(call, op, 1)
            return Site(call, "divide", operand, self.analysis.argument(call, op, 0)) if (
                operand is not None) else None
        if op.name == "pow":
            base, exponent = self.analysis.argument(call, op, 0), self.analysis.argument(
                call, op, 1)
            if base is not None and exponent is not None and self._singular_exponent(exponent):
                return Site(call, "pow", base)
        if op.name == "exp":
            operand = self.analysis.argument(call, op, 0)
            return Site(call, "exp", operand) if operand is not None else None
        return None

    def _helper_site(self, call: cst.Call) -> Optional[Site]:
        """A helper of the same file, `def safe_log(v): return tf.math.log(v)`: the singular
        op of its one return expression, applied to a parameter, maps to the argument."""
        callee = self.analysis.callee(call)
        function = callee.node if callee is not None and callee.kind == "function" else None
        if not isinstance(function, cst.FunctionDef) or not isinstance(
                function.body, cst.IndentedBlock):
            return None
        returns = [small for line in function.body.body
                   if isinstance(line, cst.SimpleStatementLine) for small in line.body
                   if isinstance(small, cst.Return)]
        if len(returns) != 1 or returns[0].value is None:
            return None
        inner = returns[0].value
        site = None
        if isinstance(inner, cst.Call):
            op = self.analysis.op_of(inner)
            site = self._call_site(inner, op) if op is not None else None
        elif isinstance(inner, cst.BinaryOperation):
            site = self._operator_site(inner)
        if site is None or not isinstance(site.operand, cst.Name):
            return None
        names = [param.name.value for param in function.params.params]
        if site.operand.value not in names:
            return None
        position = names.index(site.operand.value)
        argument = next((arg.value for arg in call.args if arg.keyword is not None
                         and arg.keyword.value == site.operand.value), None)
        positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
        if argument is None and position < len(positional):
            argument = positional[position]
        if argument is None:
            return None
        return Site(call, site.kind, argument, None)

    def _operator_site(self, node: cst.BinaryOperation) -> Optional[Site]:
        if isinstance(node.operator, cst.Divide):
            return Site(node, "divide", node.right, node.left)
        if isinstance(node.operator, cst.Power) and self._singular_exponent(node.right):
            return Site(node, "pow", node.left)
        return None

    def _singular_exponent(self, exponent: cst.BaseExpression) -> bool:
        """A power whose derivative is infinite at 0: a fraction below 1, or negative;
        a non-integer above 1 is NaN for a negative base."""
        number = self.analysis.value(exponent).const
        return number is not None and (number < 0 or number != int(number))

    def _safe(self, operand: cst.BaseExpression) -> bool:
        """The operand cannot reach the singular point, or is itself guarded."""
        value = self.analysis.value(operand)
        if value.const is not None or value.positive:
            return True
        if value.hi < 0 or (value.hi == 0 and value.hi_open):
            return True
        return self._from_where(operand, _MAX_HOPS) or self._has_epsilon(operand, _MAX_HOPS)

    def _from_where(self, expr: cst.BaseExpression, hops: int) -> bool:
        """The double where: the operand is itself a `where`, also through a cast, a reshape
        or a variable."""
        if self.analysis.value(expr).origin == "where":
            return True
        if isinstance(expr, cst.Name) and hops > 0:
            definition = self.analysis.definition(expr)
            return definition is not None and self._from_where(definition, hops - 1)
        if isinstance(expr, cst.Call) and expr.args:
            op = self.analysis.op_of(expr)
            if op is not None and op.transfer in ("like", "cast"):
                return self._from_where(expr.args[0].value, hops)
        return False

    def _has_epsilon(self, expr: cst.BaseExpression, hops: int) -> bool:
        """`x + 1e-7`: the singular point moved off 0, where an exact hit is no risk."""
        if isinstance(expr, cst.Name) and hops > 0:
            definition = self.analysis.definition(expr)
            return definition is not None and self._has_epsilon(definition, hops - 1)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
            sides = (expr.left, expr.right)
        elif isinstance(expr, cst.Call):
            op = self.analysis.op_of(expr)
            if op is None or op.name != "add":
                return False
            sides = (self.analysis.argument(expr, op, 0), self.analysis.argument(expr, op, 1))
        else:
            return False
        return any(side is not None and (self.analysis.value(side).const or 0) > 0
                   for side in sides)

    # -- an exp kept out of its overflow by the select only -------------------------------
    def _exp_guarded(self, cond: cst.BaseExpression, position: int, site: Site) -> bool:
        """Whether the exp in branch ``position`` is no case: its argument is bounded or a
        where of its own, or the test does not send the large arguments to the other
        branch (an exp taken where its argument is large overflows in the value itself:
        NAN104's finding)."""
        value = self.analysis.value(site.operand)
        if value.hi <= _EXP_BOUND or self._from_where(site.operand, _MAX_HOPS):
            return True
        large = large_values_pass(self, cond, site.operand, _MAX_HOPS)
        return large is None or large == (position == 0)

    # -- does the condition test the operand at its singular point? ----------------------
    def _tests(self, cond: cst.BaseExpression, operand: FrozenSet[str], hops: int) -> bool:
        """The condition compares the operand with 0 (or a tiny constant): `x > 0`,
        `tf.not_equal(n, 0)`, `(x > 0) & valid`, or a variable `mask = x > 0`."""
        if isinstance(cond, cst.Name):
            if hops <= 0:
                return False
            definition = self.analysis.definition(cond)
            return definition is not None and self._tests(definition, operand, hops - 1)
        if isinstance(cond, cst.UnaryOperation):
            return self._tests(cond.expression, operand, hops)
        if isinstance(cond, cst.BinaryOperation) and isinstance(
                cond.operator, (cst.BitAnd, cst.BitOr)):
            return self._tests(cond.left, operand, hops) or self._tests(cond.right, operand,
                                                                         hops)
        if isinstance(cond, cst.BooleanOperation):
            return self._tests(cond.left, operand, hops) or self._tests(cond.right, operand,
                                                                         hops)
        if isinstance(cond, cst.Comparison):
            sides = [cond.left, *(target.comparator for target in cond.comparisons)]
            return any(self._pair(a, b, operand) for a, b in zip(sides, sides[1:]))
        if isinstance(cond, cst.Call) and getattr(self.analysis.op_of(cond), "name",
                                                  None) in _BOOL_OPS:
            args = [arg.value for arg in cond.args if arg.keyword is None
                    or arg.keyword.value in ("x", "y")]
            if len(args) == 2 and self._pair(args[0], args[1], operand):
                return True
            return any(self._tests(arg, operand, hops) for arg in args)
        return False

    def _taken_where_singular(self, cond: cst.BaseExpression, position: int,
                              site: Site) -> bool:
        """``tf.where(d > 0, 0.0, n / d)``: the branch is taken exactly where the test
        lets the operand be 0, so the select keeps the inf or NaN in the value (a test
        whose direction is not read counts as guarding, as before)."""
        for text in {self.source(site.operand)} | set(self.aliases(site.operand, 1)):
            safe = safe_branches(self, cond, text, None, 0)
            if safe:
                return (position == 0) not in safe
        return False

    def _pair(self, a: cst.BaseExpression, b: cst.BaseExpression,
              operand: FrozenSet[str]) -> bool:
        for side, other in ((a, b), (b, a)):
            limit = self.analysis.value(other).const
            if limit is None or abs(limit) > _SINGULAR_LIMIT:
                continue
            inner = magnitude_of(side)  # `abs(x) > 0` tests x's zero as `x != 0` does
            if self.aliases(side, 1) & operand or (
                    inner is not None and self.aliases(inner, 1) & operand):
                return True
        return False

    # -- the report -------------------------------------------------------------------------
    def _report(self, node: cst.Call, cond: cst.BaseExpression, branch: cst.BaseExpression,
                position: int, site: Site) -> None:
        func = self.source(node.func)
        operand = self.source(site.operand)
        cond_src = self.source(cond)
        what = {"log": "the output of `{op}`", "divide": "the division `{src}`",
                "pow": "the power `{src}`", "exp": "the output of `{op}`"}[site.kind]
        if isinstance(site.node, cst.Call) and self.analysis.op_of(site.node) is None:
            what = {"log": "a log", "divide": "a division", "pow": "a power",
                    "exp": "an exp"}[site.kind] + \
                " computed by the helper `{op}`"
        if site.node is not site.top:
            what = "built from " + what
        shown_operand = operand if len(operand) <= 60 else operand[:57] + "..."
        evidence = Evidence(site.node, what, _WHY[site.kind].replace("{x}", shown_operand),
                            "high",
                            producer=site.kind, name=site.name)
        safe = f"safe_{operand}" if isinstance(site.operand, cst.Name) else "safe"
        ones = (f"{self.source(node.func.value)}.ones_like({operand})"
                if isinstance(node.func, cst.Attribute) else "1.0")
        inner = (f"{func}({cond_src}, {operand}, {ones})" if position == 0
                 else f"{func}({cond_src}, {ones}, {operand})")
        suggestion = f"guard the argument as well (the double where): `{safe} = {inner}`, "
        if site.name is None and site.top is branch:
            replaced = branch.deep_replace(site.operand, cst.Name(safe))
            shown = " ".join(self.analysis.code(replaced).split())
            suggestion += f"then use `{shown}` as the branch"
        else:
            suggestion += f"and compute `{site.name}` from `{safe}` instead of `{operand}`"
        message = (f"`{func}({cond_src}, ...)` guards the value of `{self.source(branch)}` "
                   "but not its gradient: {evidence}; the branch not taken is still "
                   "differentiated, and its zero gradient times that infinite derivative is "
                   "0 * inf = NaN")
        fix = None
        clamp = self._clamp(node, site)  # also where the division is assigned first
        if clamp is not None:
            suggestion, fix = clamp
        elif site.top is branch and site.name is None:
            guard = (node.func.value.with_changes(lpar=[], rpar=[])
                     if isinstance(node.func, cst.Attribute) else None)
            ones = (self.template(f"{self.source(guard)}.ones_like({{x}})", x=site.operand)
                    if guard is not None else cst.Float("1.0"))
            sides = (site.operand, ones) if position == 0 else (ones, site.operand)
            guarded = self.template("{where}({cond}, {a}, {b})", where=node.func, cond=cond,
                                    a=sides[0], b=sides[1])
            fix = self.fix("guard the argument too (the double where)", site.operand, guarded)
        self.report(node, message, evidence=evidence, confidence="high",
                    suggestion=suggestion, fix=fix,
                    covers=(site.node,) if site.kind == "divide" else ())

    def _clamp(self, node: cst.Call, site: Site):
        """A division by a proven count (0 or at least 1): clamping the count at 1 changes
        no value the where keeps and gives the branch not taken a finite gradient, so it is
        the exact fix, and safe. (help, fix), or None for any other denominator."""
        value = self.analysis.value(site.operand)
        if site.kind != "divide" or not (value.is_count or (
                value.nonnegative and self.integer_typed(site.operand))):
            return None
        prefix = self.namespace(node)[1]
        clamped = self.clamp(site.operand, prefix)
        written = self.source(site.node.deep_replace(site.operand, clamped))
        if written == self.source(site.node):
            return None  # the denominator is inside a helper the where calls
        if site.name is not None:
            written = f"{site.name} = {written}"
        return (f"clamp the count: `{written}` is exact wherever the count is not 0, and the "
                "branch not taken then has a finite gradient",
                self.fix(f"clamp the count with `{prefix}.maximum`", site.operand, clamped,
                         safety="safe"))
