"""NAN402 unbounded-relu-stack."""

from __future__ import annotations

from typing import List, Optional

import libcst as cst

from nanlint.rule import Option, Rule, last_name, visit_tree

# Methods of a model that look at it without training it.
LOOKING_ONLY = frozenset({"summary", "save", "save_weights", "load_weights", "predict",
                          "evaluate", "to_json", "to_yaml", "count_params", "get_config",
                          "build", "get_layer", "get_weights", "export"})
UNBOUNDED = frozenset({"relu", "linear"})
BOUNDED = frozenset({"tanh", "sigmoid", "softmax", "relu6", "capped"})
# Recurrent layers: their output passes through tanh unless another activation is given.
RECURRENT = frozenset({"LSTM", "GRU", "SimpleRNN", "CuDNNLSTM", "CuDNNGRU", "ConvLSTM1D",
                       "ConvLSTM2D", "ConvLSTM3D"})
WRAPPERS = frozenset({"Bidirectional", "TimeDistributed"})


class UnboundedReluStack(Rule):
    """
    ## What it does
    Reports a Keras `Sequential` model — built from a list of layers or with `model.add(...)`
    in the same block — or a functional `keras.Model(inputs, outputs)` whose outputs come
    from a chain of layers (`x = Dense(...)(x)`, followed back to the first merge or input),
    whose hidden layers include at least `min-layers` relu or linear
    layers (`Dense`, `Conv*`, `ReLU`, `Activation('relu')`), at least one of them relu, and
    no normalization layer
    (`BatchNormalization`, `LayerNormalization`, `Normalization`, `Rescaling`, any layer
    named as a normalization such as a project's own `BatchRenormalization`, a `Lambda` of
    `l2_normalize`, ...) nor a
    bounded activation (`tanh`, `sigmoid`, `softmax`, `relu6`, a `ReLU(max_value=...)`, a
    recurrent layer, whose output passes through `tanh` by default) anywhere before the
    output layer. It
    is information, not an error. Layers with other activations (`selu`, `gelu`, a
    function nanlint does not know) are not counted.

    ## Why is this bad?
    Nothing in such a stack bounds the size of the activations: relu passes positive values
    unchanged, so each layer can multiply their scale, and a learning rate or an input
    slightly too large makes them grow layer by layer until the logits overflow or the
    softmax saturates, and the loss becomes inf/NaN. A normalization layer (or one bounded
    activation) early on keeps the scale in check; the NaN-debugging advice for all-relu
    stacks is to lower the learning rate first and add normalization as a last resort.

    ## Example
    ```python
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    ```

    ## Use instead
    ```python
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.LayerNormalization(),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    ```

    ## Fix safety
    No automatic fix: adding a layer changes the model.

    ## Options
    - `min-layers` (integer, default `3`): the number of relu or linear hidden layers from
      which a stack without normalization is reported.

    ## Preview
    On the tutorial-style sample (tests/data/tutorials) its findings were 1 real of
    8: most stacks of three or more relu layers without normalization (image classifiers,
    autoencoders, DQN networks) train fine on scaled inputs. It waits in preview
    until it has evidence that the activations grow (raw inputs, a large learning rate).
    """

    code = "NAN402"
    preview = True
    name = "unbounded-relu-stack"
    severity = "info"
    summary = "stack of relu layers with no normalization or bounded activation"
    options = {
        "min-layers": Option(3, int, "the number of relu or linear hidden layers from which "
                             "a stack without normalization is reported"),
    }
    VALID = [
        "from tensorflow.keras import layers, models\nm = models.Sequential([\n"
        "    layers.Dense(64), layers.ReLU(max_value=20), layers.Dense(64),\n"
        "    layers.ReLU(max_value=20), layers.Bidirectional(layers.LSTM(32)),\n"
        "    layers.Dense(10)])\n",
        "import tensorflow as tf\nL = tf.keras.layers\nm = tf.keras.Sequential([\n"
        "    L.Dense(64, activation='relu'), L.BatchNormalization(),\n"
        "    L.Dense(64, activation='relu'), L.Dense(64, activation='relu'), L.Dense(1)])\n",
        "import tensorflow as tf\nL = tf.keras.layers\nm = tf.keras.Sequential([\n"
        "    L.Dense(64, activation='relu'), L.Dense(10, activation='softmax')])\n",
        "import tensorflow as tf\nL = tf.keras.layers\nm = tf.keras.Sequential([\n"
        "    L.Dense(64, activation='selu'), L.Dense(64, activation='selu'),\n"
        "    L.Dense(64, activation='selu'), L.Dense(1)])\n",
    ]
    INVALID = [
        "import tensorflow as tf\nL = tf.keras.layers\nm = tf.keras.Sequential([\n"
        "    L.Dense(64, activation='relu'), L.Dense(64, activation='relu'),\n"
        "    L.Dense(64, activation='relu'), L.Dense(10, activation='softmax')])\n",
        "import keras\nfrom keras import layers\ni = keras.Input((8,))\n"
        "x = layers.Dense(64, activation='relu')(i)\nx = layers.Dense(64, activation='relu')(x)\n"
        "x = layers.Dense(64)(x)\nm = keras.Model(i, layers.Dense(1)(x))\n",
        "from keras import layers, models\nm = models.Sequential()\n"
        "m.add(layers.Conv2D(32, 3, activation='relu'))\n"
        "m.add(layers.Conv2D(64, 3, activation='relu'))\nm.add(layers.Flatten())\n"
        "m.add(layers.Dense(128, activation='relu'))\nm.add(layers.Dense(10))\n",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        op = self.analysis.op_of(node)
        if op is None or not self.analysis.gradient_may_flow():
            return
        if op.name == "functional_model":
            outputs = self.analysis.argument(node, op, 1)
            if outputs is not None:
                self._judge(node, self._chain(outputs), "functional")
            return
        if op.name != "sequential_model":
            return
        given = self.analysis.argument(node, op, 0)
        if isinstance(given, (cst.List, cst.Tuple)):
            layers = [element.value for element in given.elements]
        elif given is None:
            layers = self._added_layers(node)
        else:
            return
        self._judge(node, layers, "Sequential")

    def _added_layers(self, node: cst.Call) -> List[cst.BaseExpression]:
        """The layers of `m = Sequential()` followed by `m.add(layer)` statements."""
        statement = self.analysis.cursor.statements[-1] if self.analysis.cursor.statements \
            else None
        if not (isinstance(statement, cst.Assign) and statement.value is node
                and len(statement.targets) == 1
                and isinstance(statement.targets[0].target, cst.Name)):
            return []
        name = statement.targets[0].target.value
        line = self.analysis.parent(statement)
        block = self.analysis.parent(line) if line is not None else None
        body = getattr(block, "body", None)
        if not isinstance(body, (list, tuple)) or line not in body:
            return []
        layers = []
        for later in body[body.index(line) + 1:]:
            if not isinstance(later, cst.SimpleStatementLine):
                continue
            if any(isinstance(small, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == name
                    for t in small.targets) for small in later.body):
                break  # `model = Sequential()` again: another model from here on
            for small in later.body:
                call = small.value if isinstance(small, cst.Expr) else None
                if (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                        and call.func.attr.value == "add"
                        and isinstance(call.func.value, cst.Name)
                        and call.func.value.value == name and call.args):
                    layers.append(call.args[0].value)
        return layers

    def _activation(self, layer: cst.BaseExpression) -> Optional[str]:
        """The layer's activation; "normalization" for a normalization layer: one the op
        table knows, one named as a normalization (`BatchRenormalization`,
        `InstanceNormalization`, `GroupNorm`: another library's or the project's own), or a
        `Lambda` of a normalizing op (`Lambda(lambda x: tf.math.l2_normalize(x, 1))`)."""
        if isinstance(layer, cst.Call):
            op = self.analysis.op_of(layer)
            if op is not None and op.name == "normalization_layer":
                return "normalization"
            name = last_name(layer.func)
            if name in WRAPPERS and layer.args:
                return self._activation(layer.args[0].value)
            given = {arg.keyword.value: arg.value for arg in layer.args if arg.keyword}
            if name in RECURRENT and "activation" not in given:
                return "tanh"
            cap = given.get("max_value")
            if cap is not None and not (isinstance(cap, cst.Name) and cap.value == "None"):
                return "capped"  # `ReLU(max_value=20)`: a clipped relu
            if name.lower().endswith(("normalization", "norm")):
                return "normalization"
            function = layer.args[0].value if name == "Lambda" and layer.args else None
            if isinstance(function, cst.Lambda) and isinstance(function.body, cst.Call) and (
                    "normaliz" in last_name(function.body.func)):
                return "normalization"
        return self.analysis.value(layer).layer

    def _chain(self, outputs: cst.BaseExpression) -> List[cst.BaseExpression]:
        """The layers of a functional model, input first: `x = Dense(...)(x)` followed back
        from the outputs while each step has one input (a merge ends the chain)."""
        layers: List[cst.BaseExpression] = []
        expr, place = outputs, self.analysis.here()
        while len(layers) < 64:
            if isinstance(expr, cst.Name):
                found = self.analysis.binding(expr.value, place)
                if found is None or found[0].kind != "assign" or found[0].value is None:
                    break
                expr, place = found[0].value, found[1]
                continue
            if not (isinstance(expr, cst.Call) and len(expr.args) == 1):
                break
            layer = expr.func
            if isinstance(layer, cst.Name):
                found = self.analysis.binding(layer.value, place)
                layer = found[0].value if found is not None and found[0].kind == "assign" \
                    else None
            if not isinstance(layer, cst.Call):
                break
            layers.append(layer)
            expr = expr.args[0].value
        layers.reverse()
        return layers

    def _never_trained(self) -> bool:
        """The model is bound to a name whose every use is a method that does not train it
        (`summary()`, `save()`, `predict()`): built to be looked at, not trained."""
        statement = self.analysis.cursor.statements[-1] if self.analysis.cursor.statements \
            else None
        if not isinstance(statement, cst.Assign):
            return False
        names = {t.target.value for t in statement.targets if isinstance(t.target, cst.Name)}
        if not names:
            return False
        uses = _Uses(names)
        visit_tree(self.analysis.module, uses)
        return bool(uses.methods) and not uses.other and uses.methods <= LOOKING_ONLY

    def _judge(self, node: cst.Call, layers: List[cst.BaseExpression], kind: str) -> None:
        if self._never_trained():
            return
        activations = [(layer, self._activation(layer)) for layer in layers]
        known = [(layer, kind) for layer, kind in activations if kind is not None]
        if any(kind == "normalization" for _, kind in known):
            return
        hidden = known[:-1]
        if any(kind in BOUNDED for _, kind in hidden):
            return
        unbounded = [kind for _, kind in hidden if kind in UNBOUNDED]
        if len(unbounded) < self.settings["min-layers"] or all(
                kind == "linear" for kind in unbounded):
            return  # a stack of linear layers alone is scaffolding, not a relu network
        self.report(node, f"a {kind} model of {len(unbounded)} relu/linear hidden layers "
                    "with no normalization layer or bounded activation: nothing bounds the "
                    "activations, which can grow layer by layer until the loss is inf/NaN",
                    confidence="low",
                    suggestion="add a `LayerNormalization` or `BatchNormalization` after the "
                               "first layers (and keep the learning rate small)")


class _Uses(cst.CSTVisitor):
    """The methods called on ``names`` and whether they are used any other way (passed,
    called, returned: perhaps trained elsewhere). Assignments to them are not uses."""

    def __init__(self, names) -> None:
        self.names = names
        self.methods: set = set()
        self.other = False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if isinstance(node.value, cst.Name) and node.value.value in self.names:
            self.methods.add(node.attr.value)
            return False
        return True

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        return not isinstance(node.target, cst.Name)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.names:
            self.other = True
