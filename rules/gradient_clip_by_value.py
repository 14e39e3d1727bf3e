"""NAN302 gradient-clip-by-value."""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

import libcst as cst

from nanlint.rule import Evidence, Rule

# Methods that return gradients: a list of them, or (gradient, variable) pairs.
GRADIENT_METHODS = {"gradient": "grads", "get_gradients": "grads",
                    "compute_gradients": "pairs"}
COMPREHENSIONS = (cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp)
# What an expression holds: "grad" (one gradient), "grads" (a list of them), "pairs"
# (a list of (gradient, variable)), "pair" (one of those); with the call that made them.
Found = Tuple[str, cst.Call]
# What the gradient is taken with respect to: trainable variables (an update) or inputs and
# actions (dQ/da in an actor-critic, dL/dx for a saliency map or an adversarial example).
VARIABLES = re.compile(r"trainable|variables|weights|params|var_list|\bvars?\b", re.I)
INPUTS = re.compile(r"action|input|state|obs|image|pixel|feature|\bx\b", re.I)
INPUT_MAKERS = ("placeholder", "Input", "convert_to_tensor", "constant", "identity")


class GradientClipByValue(Rule):
    """
    ## What it does
    Flags `tf.clip_by_value` (also `K.clip`, `keras.ops.clip`) applied to gradients — from
    `tape.gradient`, `tf.gradients`, `optimizer.compute_gradients` or
    `optimizer.get_gradients` — whether directly, in a list comprehension, in a loop, or in
    a `zip` with the variables; and a Keras optimizer built with `clipvalue=`. Only gradients
    of trainable variables count: a gradient with respect to inputs or actions
    (`tape.gradient(q, actions)` in an actor-critic, `tape.gradient(loss, images)` for an
    adversarial example or a saliency map, a placeholder, a watched tensor, a model's output)
    is clipped on purpose and is not reported, nor is a clip whose gradients then go to
    `tf.clip_by_global_norm` (a far bound, `clip_by_value(g, -1e16, 1e16)`, that keeps their
    norm finite before the global clip). Code inside test functions is not checked.

    ## Why is this bad?
    Clipping each gradient element separately changes the direction of the update (the
    large components are cut, the small ones are not) and bounds nothing that matters: the
    total step still grows with the number of weights. It also hides the problem it is
    meant to fix: `clip_by_value` passes NaN through unchanged and turns an overflowing
    `inf` gradient into a plausible-looking bound, so training keeps going on garbage.
    `tf.clip_by_global_norm` does nothing while the gradients are small, rescales them all
    together when they are large (keeping the direction), and returns a non-finite norm that
    can be checked when something has already overflowed.

    ## Example
    ```python
    grads = tape.gradient(loss, model.trainable_variables)
    grads = [tf.clip_by_value(g, -1.0, 1.0) for g in grads]
    optimizer = tf.keras.optimizers.Adam(clipvalue=1.0)
    ```

    ## Use instead
    ```python
    grads = tape.gradient(loss, model.trainable_variables)
    grads, _ = tf.clip_by_global_norm(grads, 5.0)
    optimizer = tf.keras.optimizers.Adam(global_clipnorm=1.0)
    ```

    ## Fix safety
    No automatic fix yet: clipping by the global norm changes the updates, so the fix will
    be marked unsafe.

    ## Options
    None.

    ## Preview
    On the tutorial-style sample (tests/data/tutorials) its findings were 0 real of 2:
    element-wise gradient clipping is a questionable practice but makes no NaN itself (an
    LSTM with `clipvalue=0.5` or `clip_by_value(grad, -1, 1)` trains). It waits in preview
    until it reports only where the clipping hides an overflow that the code produces.
    """

    code = "NAN302"
    preview = True
    name = "gradient-clip-by-value"
    severity = "warning"
    summary = "gradients clipped element by element instead of by their global norm"
    VALID = [
        "import tensorflow as tf\ngrads = tape.gradient(loss, variables)\n"
        "grads, _ = tf.clip_by_global_norm(grads, 5.0)\n",
        "import tensorflow as tf\np = tf.clip_by_value(tf.nn.softmax(z), 1e-7, 1.0)\n",
        "import tensorflow as tf\nfor v in critic.trainable_variables:\n"
        "    v.assign(tf.clip_by_value(v, -0.01, 0.01))\n",
        "import tensorflow as tf\nopt = tf.keras.optimizers.Adam(global_clipnorm=1.0)\n",
    ]
    INVALID = [
        "import tensorflow as tf\ngrads = tape.gradient(loss, variables)\n"
        "grads = [tf.clip_by_value(g, -1.0, 1.0) for g in grads]\n",
        "import tensorflow.compat.v1 as tf\ngvs = optimizer.compute_gradients(loss)\n"
        "capped = [(tf.clip_by_value(grad, -1., 1.), var) for grad, var in gvs]\n",
        "import tensorflow as tf\ngrads = tf.gradients(loss, params)\n"
        "for g, p in zip(grads, params):\n    p.assign_sub(0.1 * tf.clip_by_value(g, -5, 5))\n",
        "import tensorflow as tf\nopt = tf.keras.optimizers.SGD(0.01, clipvalue=0.5)\n",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if not self.analysis.gradient_may_flow():
            return  # a test checks the clipping API
        op = self.analysis.op_of(node)
        if op is None:
            return
        if op.name == "clip":
            argument = self.analysis.argument(node, op, 0)
            found = self._holds(argument, node, 0) if argument is not None else None
            if found is not None and found[0] in ("grad", "grads") and self._of_variables(
                    found[1]) and not self._then_global_norm(node):
                self._report_clip(node, found[1])
        elif "optimizer" in op.tags:
            clipvalue = self.analysis.keyword(node, "clipvalue")
            if clipvalue is not None and not (isinstance(clipvalue, cst.Name)
                                              and clipvalue.value == "None"):
                self.report(clipvalue, f"`{self.source(node.func)}(clipvalue="
                            f"{self.source(clipvalue)})` clips every gradient element "
                            "separately: it changes the update's direction and lets NaN "
                            "through", confidence="high",
                            suggestion="use `global_clipnorm=` (or `clipnorm=`) instead")

    def _report_clip(self, node: cst.Call, source: cst.Call) -> None:
        evidence = Evidence(source, "a gradient from `{src}`",
                            "and clipping its elements one by one changes the update's "
                            "direction, bounds no step, and passes NaN through unchanged",
                            producer="gradient")
        self.report(node, f"`{self.source(node.func)}` clips gradients element by element: "
                    "{evidence}", evidence=evidence,
                    suggestion="clip all gradients together: "
                               "`grads, _ = tf.clip_by_global_norm(grads, 5.0)`")

    def _then_global_norm(self, node: cst.Call) -> bool:
        """The clipped gradients (or the list of them a comprehension makes) go on to
        `clip_by_global_norm`: the clip by value only keeps the norm finite, and the
        gradients are clipped by their global norm."""
        expr: cst.CSTNode = node
        parent = self.analysis.parent(expr)
        while isinstance(parent, (cst.IfExp, *COMPREHENSIONS)) and expr is not getattr(
                parent, "test", None):
            expr, parent = parent, self.analysis.parent(parent)
        for reader in self.analysis.readers(expr):
            call = self.analysis.parent(reader)
            call = self.analysis.parent(call) if isinstance(call, cst.Arg) else call
            op = self.analysis.op_of(call) if isinstance(call, cst.Call) else None
            if op is not None and op.name == "clip_by_global_norm":
                return True
        return False

    def _of_variables(self, source: cst.Call) -> bool:
        """The gradient call differentiates with respect to trainable variables, or nothing
        says otherwise; False for inputs and actions."""
        func = source.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("compute_gradients",
                                                                   "get_gradients"):
            return True
        positional = [arg.value for arg in source.args if arg.keyword is None]
        wrt = self.analysis.keyword(source, "sources") or self.analysis.keyword(
            source, "xs") or (positional[1] if len(positional) > 1 else None)
        return wrt is None or not self._input_like(wrt, 0)

    def _input_like(self, expr: cst.BaseExpression, depth: int) -> bool:
        if depth > 4:
            return False
        if isinstance(expr, (cst.List, cst.Tuple)):
            return bool(expr.elements) and all(self._input_like(e.value, depth + 1)
                                               for e in expr.elements)
        text = self.source(expr)
        if VARIABLES.search(text):
            return False
        if isinstance(expr, cst.Name):
            definition = self.analysis.definition(expr)
            if definition is not None and self._input_like(definition, depth + 1):
                return True
            return bool(INPUTS.search(expr.value))
        if isinstance(expr, cst.Call):
            qualified = self.analysis.qualified_name(expr.func) or ""
            if qualified.rsplit(".", 1)[-1] in ("Variable", "get_variable", "variable"):
                return False
            # A placeholder, an input, a converted tensor, or the output of a model.
            return qualified.endswith(INPUT_MAKERS) or self.analysis.op_of(expr) is None
        return False

    # -- what an expression holds -----------------------------------------------------------
    def _holds(self, expr: cst.BaseExpression, at: cst.CSTNode, depth: int) -> Optional[Found]:
        if depth > 8:
            return None
        deeper = depth + 1
        if isinstance(expr, cst.Name):
            loop = self._loop_binding(expr.value, at)
            if loop is not None:
                iterable, path = loop
                return self._element(iterable, path, at, deeper)
            definition = self.analysis.definition(expr)
            return self._holds(definition, at, deeper) if definition is not None else None
        if isinstance(expr, cst.Subscript):
            base = self._holds(expr.value, at, deeper)
            if base is None or len(expr.slice) != 1:
                return None
            index = expr.slice[0].slice
            if base[0] == "grads":
                return "grad", base[1]
            if base[0] == "pair" and isinstance(index, cst.Index) and isinstance(
                    index.value, cst.Integer) and index.value.evaluated_value == 0:
                return "grad", base[1]
            return None
        if isinstance(expr, cst.Call):
            func = expr.func
            if isinstance(func, cst.Attribute) and func.attr.value in GRADIENT_METHODS and (
                    func.attr.value != "gradient" or len(expr.args) >= 2):  # not np.gradient
                return GRADIENT_METHODS[func.attr.value], expr
            op = self.analysis.op_of(expr)
            if op is not None and op.name == "gradients":
                return "grads", expr
            if isinstance(func, cst.Name) and func.value in ("list", "tuple") and expr.args:
                return self._holds(expr.args[0].value, at, deeper)
        return None

    def _element(self, iterable: cst.BaseExpression, path: List[int], at: cst.CSTNode,
                 depth: int) -> Optional[Found]:
        """What the element at ``path`` of an item of ``iterable`` holds."""
        if depth > 8:
            return None
        if isinstance(iterable, cst.Name) and self._loop_binding(iterable.value, at) is None:
            definition = self.analysis.definition(iterable)
            if definition is not None:
                return self._element(definition, path, at, depth + 1)
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Name):
            args = [a.value for a in iterable.args if a.keyword is None]
            if iterable.func.value == "zip" and path and path[0] < len(args):
                return self._element(args[path[0]], path[1:], at, depth + 1)
            if iterable.func.value == "enumerate" and path and path[0] == 1 and args:
                return self._element(args[0], path[1:], at, depth + 1)
            if iterable.func.value in ("list", "tuple") and args:
                return self._element(args[0], path, at, depth + 1)
        found = self._holds(iterable, at, depth + 1)
        if found is None:
            return None
        kind, source = found
        if kind == "grads" and not path:
            return "grad", source
        if kind == "pairs" and path == [0]:
            return "grad", source
        if kind == "pairs" and not path:
            return "pair", source
        return None

    def _loop_binding(self, name: str, at: cst.CSTNode
                      ) -> Optional[Tuple[cst.BaseExpression, List[int]]]:
        """(iterable, position in the target) of the closest loop around ``at`` that binds
        ``name``: a comprehension's `for` or a `for` statement."""
        node = self.analysis.parent(at)
        while node is not None:
            fors: List[cst.CSTNode] = []
            if isinstance(node, COMPREHENSIONS):
                comp = node.for_in
                while comp is not None:
                    fors.append(comp)
                    comp = comp.inner_for_in
            elif isinstance(node, cst.For):
                fors.append(node)
            for loop in reversed(fors):
                path = _position(loop.target, name)
                if path is not None:
                    return loop.iter, path
            if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                return None
            node = self.analysis.parent(node)
        return None


def _position(target: cst.BaseExpression, name: str) -> Optional[List[int]]:
    """Where ``name`` is bound in a loop target: [] for the whole item, [1, 0] for
    `i, (g, v)`; None if the target does not bind it."""
    if isinstance(target, cst.Name):
        return [] if target.value == name else None
    if isinstance(target, (cst.Tuple, cst.List)):
        for index, element in enumerate(target.elements):
            inner = _position(element.value, name)
            if inner is not None:
                return [index, *inner]
    return None
