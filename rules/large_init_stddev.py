"""NAN304 large-init-stddev."""

from __future__ import annotations

import math
from typing import List, Optional, Set, Tuple

import libcst as cst

from nanlint.rule import Evidence, Op, Option, Rule, visit_tree

# The stddev an initializer uses when none is given (None: it depends on the TF version).
DEFAULT_STDDEV = {"random_normal": 1.0, "normal_initializer": 0.05}
NORMAL_OPS = frozenset({"random_normal", "normal_initializer", "tf_normal_initializer"})


class LargeInitStddev(Rule):
    """
    ## What it does
    Flags the kernel of a matmul or conv initialized from a normal distribution whose stddev
    is too large for the layer's fan-in, in a file where the network's outputs reach a
    hand-written `log` or `exp` (a cross-entropy written out, a softmax by hand). Covered:
    `tf.Variable(tf.random_normal(shape))` (also `tf.random.normal`,
    `tf.random.truncated_normal`, `K.random_normal`, `keras.random.normal`, whose stddev is
    1.0 unless given), `tf.get_variable(..., initializer=tf.random_normal_initializer(stddev=1.0))`,
    `self.add_weight(..., initializer=RandomNormal(stddev=1.0))` and a Keras `RandomNormal` /
    `TruncatedNormal` given as a layer's `kernel_initializer`. The stddev may be a constant
    expression (`2.0 / (c * 10)`) or a factor (`tf.random.normal(shape) * 0.01`).

    A variable is a weight only where it is the kernel — the second operand — of a
    `matmul`, `tf.nn.conv2d`, `K.dot` or `ops.matmul`, found through its name, `self.w`, a
    dict entry (`weights["h1"]`) or a helper that returns it. A GAN's latent vector, an
    input being optimized, an embedding table, a bias and noise are not. The fan-in comes
    from a literal shape (`[784, 10]`: 784; a conv kernel `[5, 5, 32, 64]`: 5·5·32 = 800;
    module constants count as literal); the measure is the *gain* stddev × √fan-in. Where
    the shape is not known, nanlint assumes `assumed-fan-in` and reports with medium
    confidence. Non-trainable variables and initializers built inside test functions are
    not checked. The hand-written log or exp may be anywhere in the file: nanlint does not
    follow the network's output forward to it. A log of what is kept above 0
    (`log(clip_by_value(p, 1e-9, 1.))`) or an exp of what is kept below 88 does not count:
    the saturated softmax gives it a finite loss.

    ## Why is this bad?
    A layer `x @ W` with `W ~ N(0, σ²)` multiplies the scale of its input by about
    σ·√fan-in. Glorot/LeCun initialization keeps that gain at 1, He initialization at √2. A
    gain of 28 — `tf.random_normal([784, 256])` with its default stddev 1.0 — makes each
    layer's outputs 28× larger than its inputs: after two layers the logits are hundreds of
    times too large, a hand-written softmax or sigmoid saturates to exactly 0 and 1, `log`
    gives `-inf` and `exp` of a logit above 88 is `inf` in float32; the first gradient is
    NaN. Under a fused loss (`softmax_cross_entropy_with_logits`, Keras losses) the same
    logits give a large but finite loss and the network trains, so nothing is reported
    there. The default `max-gain` of 8 is quiet on `tf.truncated_normal(shape,
    stddev=0.1)` for a 3136-wide layer (gain 5.6) and on small layers.

    ## Example
    ```python
    W1 = tf.Variable(tf.random_normal([784, 256]))
    init = tf.keras.initializers.RandomNormal(stddev=1.0)
    ```

    ## Use instead
    ```python
    W1 = tf.Variable(tf.random.truncated_normal([784, 256], stddev=0.02))
    W1 = tf.Variable(tf.keras.initializers.GlorotUniform()([784, 256]))
    init = tf.keras.initializers.HeNormal()
    ```

    ## Fix safety
    No automatic fix: a Glorot or He initializer changes the model's starting point.

    ## Options
    - `max-gain` (number, default `8.0`): the largest stddev × √fan-in accepted.
    - `assumed-fan-in` (integer, default `100`): the fan-in assumed where the shape is not
      literal (a helper's `shape` parameter, a Keras layer's input).

    ## Preview
    On the tutorial-style sample (tests/data/tutorials) its findings were 1 real of
    5: the hand-written log it looks for may belong to another model of the file (nanlint
    does not follow a network's output forward to it), and a single wide layer on inputs
    in [0, 1] keeps log(softmax) finite. It waits in preview until it follows the kernel's
    output to the log or exp.
    """

    code = "NAN304"
    preview = True
    name = "large-init-stddev"
    severity = "warning"
    summary = "weight initializer with a stddev too large for the layer's fan-in"
    options = {
        "max-gain": Option(8.0, float, "the largest stddev times square root of fan-in "
                           "accepted"),
        "assumed-fan-in": Option(100, int, "the fan-in assumed where the shape is not "
                                 "literal"),
    }
    VALID = [
        "import tensorflow as tf\nW = tf.Variable(tf.random.truncated_normal([784, 10], "
        "stddev=0.1))\np = tf.nn.softmax(tf.matmul(x, W))\nl = tf.math.log(p)\n",
        "import tensorflow as tf\nW = tf.Variable(tf.random.normal([784, 10]))\n"
        "l = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=tf.matmul(x, W))\n",
        "import tensorflow as tf\nz = tf.Variable(tf.random.normal([64, 128]))\n"
        "l = tf.math.log(tf.nn.sigmoid(tf.matmul(z, G)))\n",
        "import tensorflow as tf\nb = tf.Variable(tf.random.normal([10]))\n",
        "import tensorflow as tf\nnoise = tf.random.normal([64, 784])\n",
        "import tensorflow as tf\nlayer = tf.keras.layers.Dense(10, kernel_initializer="
        "tf.keras.initializers.RandomNormal())\n",
        "import tensorflow as tf\nW = tf.Variable(tf.keras.initializers.GlorotUniform()("
        "[784, 10]))\n",
    ]
    INVALID = [
        "import tensorflow.compat.v1 as tf\nW = tf.Variable(tf.random_normal([784, 10]))\n"
        "y = tf.nn.softmax(tf.matmul(x, W))\nloss = -tf.reduce_sum(y_ * tf.log(y))\n",
        "import tensorflow as tf\ndef weight(shape):\n"
        "    return tf.Variable(tf.random.normal(shape))\nW = weight([512, 10])\n"
        "out = tf.exp(tf.matmul(x, W))\n",
        "import tensorflow as tf\nC = 0.5\nW = tf.compat.v1.get_variable('w', [1024, 512], "
        "initializer=tf.random_normal_initializer(stddev=2.0 / (C * 10)))\n"
        "p = tf.sigmoid(tf.matmul(x, W))\nl = tf.math.log(1 - p)\n",
        "from tensorflow import keras\nlayer = keras.layers.Dense(10, kernel_initializer="
        "keras.initializers.RandomNormal(stddev=1.0))\np = keras.ops.softmax(layer(x))\n"
        "l = keras.ops.log(p)\n",
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._checked: Set[int] = set()  # initializers judged with the variable they fill
        self._kwargs: Optional[List[cst.Arg]] = None
        self._calls: Optional[List[cst.Call]] = None

    def visit_Call(self, node: cst.Call) -> None:
        if not self.analysis.gradient_may_flow():
            return  # a test builds initializers to check their API
        op = self.analysis.op_of(node)
        if op is not None and op.name == "variable":
            self._check_variable(node, op)
        elif isinstance(node.func, cst.Attribute) and node.func.attr.value == "add_weight":
            self._check_weight(node, self.analysis.keyword(node, "initializer"),
                               self.analysis.keyword(node, "shape"))
        elif op is not None and "initializer" in op.tags and id(node) not in self._checked \
                and self._given_as_kernel_initializer(node):
            self._check_weight(node, node, None, kernel=node)

    def _check_variable(self, node: cst.Call, op: Op) -> None:
        trainable = self.analysis.keyword(node, "trainable")
        if isinstance(trainable, cst.Name) and trainable.value == "False":
            return
        qualified = self.analysis.qualified_name(node.func) or ""
        if qualified.endswith("get_variable"):
            shape = self.analysis.passed(node, "shape", 1)
            self._check_weight(node, self.analysis.keyword(node, "initializer"), shape)
        else:
            self._check_weight(node, self.analysis.argument(node, op, 0),
                               self.analysis.keyword(node, "shape"))

    def _normal(self, expr: Optional[cst.BaseExpression], depth: int = 0
                ) -> Optional[Tuple[cst.Call, Op, float]]:
        """The normal draw or initializer that ``expr`` is, and a constant factor on it."""
        if expr is None or depth > 6:
            return None
        if isinstance(expr, cst.Name):
            return self._normal(self.analysis.definition(expr), depth + 1)
        if isinstance(expr, cst.BinaryOperation) and isinstance(
                expr.operator, (cst.Multiply, cst.Divide)):
            factor = self.analysis.number(expr.right)
            inner, divide = expr.left, isinstance(expr.operator, cst.Divide)
            if factor is None and not divide:
                factor, inner = self.analysis.number(expr.left), expr.right
            found = self._normal(inner, depth + 1) if factor is not None else None
            if found is None or factor.value == 0:
                return None
            call, op, scale = found
            return call, op, scale / factor.value if divide else scale * factor.value
        if isinstance(expr, cst.Call):
            op = self.analysis.op_of(expr)
            if op is not None and op.name in NORMAL_OPS:
                return expr, op, 1.0
        return None

    def _fan_in(self, shape: Optional[cst.BaseExpression]) -> Optional[Tuple[int, bool]]:
        """(fan-in, known) of a weight of ``shape``; None for a 1-D shape (a bias)."""
        if isinstance(shape, cst.Name):
            shape = self.analysis.definition(shape) or shape
        if isinstance(shape, (cst.List, cst.Tuple)):
            if len(shape.elements) < 2:
                return None
            numbers = [self.analysis.number(e.value) for e in shape.elements[:-1]]
            if all(n is not None and 1 <= n.value < math.inf for n in numbers):
                return math.prod(int(n.value) for n in numbers), True
        return self.settings["assumed-fan-in"], False

    def _given_as_kernel_initializer(self, node: cst.Call) -> bool:
        """`Dense(..., kernel_initializer=RandomNormal(1.0))`, directly or through a name."""
        parent = self.analysis.parent(node)
        if isinstance(parent, cst.Arg):
            return parent.keyword is not None and "kernel" in parent.keyword.value
        statement = self.analysis.cursor.statements[-1] if self.analysis.cursor.statements \
            else None
        if isinstance(statement, cst.Assign) and statement.value is node:
            names = {t.target.value for t in statement.targets if isinstance(t.target, cst.Name)}
            return any(isinstance(arg.value, cst.Name) and arg.value.value in names
                       and arg.keyword is not None and "kernel" in arg.keyword.value
                       for arg in self._keyword_args())
        return False

    def _keyword_args(self) -> List[cst.Arg]:
        if self._kwargs is None:
            collect = _Collect(cst.Arg)
            visit_tree(self.analysis.module, collect)
            self._kwargs = [arg for arg in collect.found if arg.keyword is not None]
        return self._kwargs

    # -- where the variable is used: a weight is the kernel of a matmul or a conv ----------
    def _handles(self, node: cst.Call, depth: int = 0) -> List[Tuple[str, str]]:
        """How the variable made by ``node`` is referred to: ("name", "W"), ("attr", "w")
        for `self.w`, ("source", 'weights["h1"]') for a dict entry, ("call", "weight")
        for a helper function that returns it."""
        handles: List[Tuple[str, str]] = []
        child: cst.CSTNode = node
        parent = self.analysis.parent(node)
        while parent is not None and depth < 12:
            depth += 1
            if isinstance(parent, cst.DictElement) and parent.value is child and \
                    isinstance(parent.key, cst.SimpleString):
                owner = self.analysis.parent(parent)
                assign = self.analysis.parent(owner) if owner is not None else None
                if isinstance(assign, cst.Assign):
                    for target in assign.targets:
                        if isinstance(target.target, cst.Name):
                            handles.append(("source", f"{target.target.value}[{parent.key.value}]"))
                            handles.append(("source", f"{target.target.value}"
                                            f"[{parent.key.value.replace(chr(39), chr(34))}]"))
                            handles.append(("source", f"{target.target.value}"
                                            f"[{parent.key.value.replace(chr(34), chr(39))}]"))
                return handles
            if isinstance(parent, cst.Assign):
                for target in parent.targets:
                    t = target.target
                    if isinstance(t, cst.Name):
                        handles.append(("name", t.value))
                        handles += self._returned_as(t.value)
                    elif isinstance(t, cst.Attribute):
                        handles.append(("attr", t.attr.value))
                return handles
            if isinstance(parent, cst.Return):
                function = self.analysis.in_function()
                if function is not None:
                    handles.append(("call", function.name.value))
                    handles += self._assigned_from(function.name.value)
                return handles
            if isinstance(parent, (cst.SimpleStatementLine, cst.IndentedBlock)):
                return handles
            child, parent = parent, self.analysis.parent(parent)
        return handles

    def _returned_as(self, name: str) -> List[Tuple[str, str]]:
        """`w = tf.Variable(...); return w` in a helper: the helper's calls."""
        function = self.analysis.in_function()
        if function is None:
            return []
        returns = [n for n in _returns(function) if isinstance(n.value, cst.Name)
                   and n.value.value == name]
        if not returns:
            return []
        return [("call", function.name.value), *self._assigned_from(function.name.value)]

    def _assigned_from(self, function: str) -> List[Tuple[str, str]]:
        """The names that `name = function(...)` binds, anywhere in the module."""
        found: List[Tuple[str, str]] = []
        for call in self._calls_named(function):
            parent = self.analysis.parent(call)
            if isinstance(parent, cst.Assign):
                for target in parent.targets:
                    if isinstance(target.target, cst.Name):
                        found.append(("name", target.target.value))
                    elif isinstance(target.target, cst.Attribute):
                        found.append(("attr", target.target.attr.value))
        return found

    def _calls_named(self, function: str) -> List[cst.Call]:
        return [call for call in self._all_calls()
                if (isinstance(call.func, cst.Name) and call.func.value == function)
                or (isinstance(call.func, cst.Attribute) and call.func.attr.value == function)]

    def _all_calls(self) -> List[cst.Call]:
        if self._calls is None:
            collect = _Collect(cst.Call)
            visit_tree(self.analysis.module, collect)
            self._calls = collect.found
        return self._calls

    def _kernel_use(self, node: cst.Call) -> Optional[cst.Call]:
        """The matmul or conv whose kernel (second operand) is the variable ``node`` makes."""
        handles = set(self._handles(node))
        if not handles:
            return None
        for use in self.analysis.calls_of("matmul"):
            if len(use.args) < 2:
                continue
            kernel = use.args[1].value
            if self._refers(kernel, handles):
                return use
        return None

    def _refers(self, expr: cst.BaseExpression, handles) -> bool:
        if isinstance(expr, cst.Name):
            return ("name", expr.value) in handles
        if isinstance(expr, cst.Attribute):
            return ("attr", expr.attr.value) in handles
        if isinstance(expr, cst.Subscript):
            return ("source", self.source(expr)) in handles
        if isinstance(expr, cst.Call):
            func = expr.func
            name = func.value if isinstance(func, cst.Name) else (
                func.attr.value if isinstance(func, cst.Attribute) else "")
            return ("call", name) in handles
        return False

    def _hazard(self) -> Optional[cst.Call]:
        """A hand-written log or exp in the file: where logits blown up by the initialization
        become -inf (log of a saturated softmax or sigmoid) or inf (exp). Not a log of what
        is kept above 0 (`log(clip(p, 1e-9, 1))`) nor an exp of what is kept below 88."""
        found = [call for name in ("log", "exp") for call in self.analysis.calls_of(name)
                 if not self._bounded(call, name)]
        return min(found, key=lambda call: self._order(call)) if found else None

    def _bounded(self, call: cst.Call, name: str) -> bool:
        op = self.analysis.op_of(call)
        argument = self.analysis.argument(call, op, 0) if op is not None else None
        if argument is None:
            return False
        self.analysis.module_index()  # the value where the call is, not where the weight is
        value = self.analysis.value(argument)
        return value.positive if name == "log" else value.hi < 88

    def _order(self, call: cst.Call) -> int:
        calls = self._all_calls()
        return next((i for i, c in enumerate(calls) if c is call), len(calls))

    def _check_weight(self, node: cst.Call, init: Optional[cst.BaseExpression],
                      shape: Optional[cst.BaseExpression],
                      kernel: Optional[cst.Call] = None) -> None:
        found = self._normal(init)
        if found is None:
            return
        call, op, scale = found
        self._checked.add(id(call))
        statement = self.analysis.cursor.statements[-1] if self.analysis.cursor.statements \
            else node
        function = self.analysis.in_function()
        context = self.analysis.code(statement).lower() + (
            function.name.value.lower() if function is not None else "")
        if "emb" in context or "bias" in context:
            return  # an embedding table is looked up, a bias added: neither has a fan-in
        stddev_expr = self.analysis.argument(call, op, op.args.index("stddev"))
        if stddev_expr is None:
            stddev = DEFAULT_STDDEV.get(op.name)
        else:
            number = self.analysis.number(stddev_expr)
            stddev = number.value if number is not None else None
        if stddev is None:
            return
        if op.name == "random_normal":
            shape = self.analysis.argument(call, op, 0)
        fan = self._fan_in(shape)
        if fan is None:
            return
        fan_in, known = max(1, fan[0]), fan[1]
        stddev = abs(stddev * scale)
        gain = stddev * math.sqrt(fan_in)
        limit = self.settings["max-gain"]
        if gain <= limit:
            return
        use = kernel if kernel is not None else self._kernel_use(node)
        if use is None:
            return  # not the kernel of a matmul or conv: latent noise, an input, a table
        hazard = self._hazard()
        if hazard is None:
            return  # nothing in the file turns large logits into inf/NaN
        given = "given" if stddev_expr is not None or scale != 1.0 else "its default"
        where = (f"fan-in {fan_in}" if known else
                 f"an assumed fan-in of {fan_in} (the shape is not literal)")
        advice = math.sqrt(2.0 / fan_in)
        evidence = Evidence(hazard, "the hand-written `{src}`",
                            "where a saturated softmax or sigmoid gives log(0) = -inf and a "
                            "large logit exp(x > 88) = inf in float32", "medium",
                            producer=self.analysis.op_of(hazard).name)
        self.report(call, f"`{self.compact(call.func)}` initializes the kernel of "
                    f"`{self.compact(use, 40)}` with stddev {stddev:g} "
                    f"({given}): with {where} each layer multiplies the scale of its input by "
                    f"~{gain:.3g} (stddev x sqrt(fan-in) = {stddev:g} x {math.sqrt(fan_in):.3g}, "
                    f"limit {limit:g}), so two such layers make the logits ~{gain * gain:.3g} "
                    "times larger than the inputs, and the outputs reach a hand-written log or "
                    "exp: {evidence}",
                    evidence=evidence, confidence="high" if known else "medium",
                    suggestion=f"use a Glorot or He initializer, or stddev ~{advice:.2g} "
                               f"(sqrt(2 / fan-in)), e.g. `tf.random.truncated_normal(shape, "
                               f"stddev={advice:.2g})`")


def _returns(function: cst.FunctionDef) -> List[cst.Return]:
    collect = _Collect(cst.Return, function)
    visit_tree(function, collect)
    return collect.found


class _Collect(cst.CSTVisitor):
    """The nodes of one class, in source order; inside ``function`` (if given), not in
    the functions nested in it. (A module class: a class made inside a function is a
    reference cycle, which keeps what its closure holds alive until a cyclic collection.)"""

    def __init__(self, kind: type, function: Optional[cst.FunctionDef] = None) -> None:
        self.kind, self.function = kind, function
        self.found: List[cst.CSTNode] = []

    def visit_Arg(self, node: cst.Arg) -> None:
        self._take(node)

    def visit_Call(self, node: cst.Call) -> None:
        self._take(node)

    def visit_Return(self, node: cst.Return) -> None:
        self._take(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return self.function is None or node is self.function

    def _take(self, node: cst.CSTNode) -> None:
        if node.__class__ is self.kind:
            self.found.append(node)
