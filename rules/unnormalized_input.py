"""NAN401 unnormalized-input."""

from __future__ import annotations

import math
import re
from typing import List, Optional, Set, Tuple

import libcst as cst

from nanlint.rule import FLOAT16, FLOAT16_MAX, Evidence, Moment, Place, Rule, visit_tree

# Methods that train on their first argument (`x`).
TRAINING_METHODS = frozenset({"fit", "train_on_batch", "fit_generator"})
# Methods that only run the model on it: a hazard of the values, not of training.
INFERENCE_METHODS = frozenset({"predict", "evaluate", "predict_on_batch", "test_on_batch"})
KERAS = ("keras.", "tensorflow.keras.", "tf_keras.")
MODELS = frozenset({"Model", "Sequential", "load_model"})
# Calls that make a loop a training loop.
TRAINING_STEPS = frozenset({"apply_gradients", "minimize", "gradient", "train_on_batch",
                            "GradientTape"})
# The names of a training op passed in from elsewhere (a parameter): a convention.
STEP_NAME = re.compile(r"train|step|optim|update|minimi")
# Data written in the code (a literal range) count as raw above this root mean square.
LARGE_RMS = 10.0
# With an optimizer whose step does not grow with the gradient (Adam, RMSprop, Adagrad,
# Adadelta: each weight moves by about the learning rate), raw data diverges only when the
# first layer's outputs are this many times too large.
ADAPTIVE_LIMIT = 1e3
# Keras optimizers given by name to `compile`, and their families.
OPTIMIZER_NAMES = {"sgd": "sgd", "adam": "adaptive", "adamw": "adaptive", "adamax": "adaptive",
                   "nadam": "adaptive", "rmsprop": "adaptive", "lion": "adaptive",
                   "adafactor": "adaptive", "lamb": "adaptive", "adagrad": "adagrad",
                   "ftrl": "adagrad", "adadelta": "adadelta"}
OPTIMIZER_FAMILIES = frozenset(OPTIMIZER_NAMES.values())
# Receivers whose `fit` is not training: they only compute statistics of the data.
NOT_MODELS = ("ImageDataGenerator", "preprocessing", "sklearn", "Normalization",
              "TextVectorization")
# Calls and methods that keep the range of their first argument (or receiver).
KEEP_RANGE = frozenset({"numpy.reshape", "numpy.expand_dims", "numpy.asarray", "numpy.array",
                        "numpy.squeeze", "numpy.stack", "numpy.concatenate",
                        "tensorflow.image.resize", "tensorflow.data.Dataset.from_tensor_slices",
                        "tensorflow.data.Dataset.from_tensors"})
KEEP_RANGE_METHODS = frozenset({"astype", "reshape", "to_numpy", "copy", "squeeze", "batch",
                                "shuffle", "prefetch", "repeat", "cache", "take", "skip",
                                "unbatch", "padded_batch", "flatten"})
KEEP_RANGE_OPS = frozenset({"identity", "cast"})
Raw = Tuple[cst.Call, str]  # the loading call and what its values are


class UnnormalizedInput(Rule):
    """
    ## What it does
    Flags input data known to be raw that reaches training with no scaling on the way, once
    per raw source, on its first training use. Known raw: the data of
    `keras.datasets.*.load_data()` (mnist, fashion_mnist, cifar10/100, boston_housing),
    decoded images (`tf.io.decode_*`, `tf.image.decode_*`, `image_dataset_from_directory`),
    and data whose range the code writes with large values (`np.arange(1000)`,
    `np.random.uniform(0, 255, ...)`: a root mean square above 10). A file read with
    `np.load` or `pd.read_csv` is not known to be raw (it may be scaled already, or binary).

    Training uses: the `x` of `fit` / `train_on_batch` / `fit_generator` on a model, a value
    of the `feed_dict` of a `sess.run` that runs a training op (the result of `minimize` or
    `apply_gradients`, or a name such as `train_step`), or what a training loop iterates
    over (`for x, y in dataset:` with `tape.gradient`, `apply_gradients` or `minimize` in
    the body, and `x` not rebound in it). An evaluation or prediction `sess.run`, `evaluate`,
    `predict`, and the `fit` of an `ImageDataGenerator` or scaler (which only computes
    statistics) are not training. The data are followed through assignments, tuple
    unpacking, slicing, `astype`/`reshape`, `tf.cast`, `sess.run(images)`, list
    comprehensions, `tf.data` pipelines (`from_tensor_slices`, `batch`, `shuffle`, `map`
    with a function of the file), `ImageDataGenerator.flow` (unless it rescales) and helper
    functions of the file.

    The optimizer decides whether the scale matters. Plain or momentum SGD steps with the
    gradient, which grows with the data, so raw data is reported under it and wherever the
    optimizer is not shown. Adam, RMSprop, Adagrad, Adadelta and the other adaptive
    optimizers move each weight by about the learning rate whatever the gradient's size:
    under them raw data is reported only when it is more than 1,000 times the scale of ~1
    (raw pixels, 255 times, are not). The optimizer is read from the model's `compile` (in
    the same function, or on `self.model` in the same class), from the `minimize` a training
    `sess.run` fetches, and from the optimizer a training loop steps.

    Any arithmetic on the way counts as scaling (`/ 255`, `x /= 255.`, `(x - mean) / std`),
    as do `tf.image.convert_image_dtype`, `per_image_standardization`, `clip_by_value` and a
    `map` with a function nanlint cannot see; a `Rescaling`, `Normalization` or other
    normalization layer anywhere in the file silences the rule.

    Data beyond float16's maximum (65504) that reaches a model computing in float16 is
    reported at its first use of any kind — `model(x)`, `layer(x)`, `predict`, `evaluate`,
    `fit`, a `sess.run` feeding a float16 placeholder — and `tf.cast(x, tf.float16)` of such
    data where it is cast. The data's greatest value must be written in the code (a literal
    range such as `np.random.uniform(60000, 70000)`, `np.arange`, `np.linspace`, a literal
    table, constant arithmetic on them); the model computes in float16 under the float16
    dtype policy in force at the use (`set_global_policy('mixed_float16')` or `'float16'`,
    TF 2.3's `mixed_precision.experimental.set_policy`, a `Policy` object; `set_floatx`
    while no policy is set), or where the function that uses or builds the model makes a
    layer or `Input` with a float16 dtype. A layer kept in float32 there (`dtype='float32'`,
    `autocast=False`) is how such data is meant to enter, and silences it; so does any
    scaling on the way.

    ## Why is this bad?
    Pixel values are integers in 0..255 and tabular features come in their own units (a
    price in thousands, a tax rate in hundreds). The first layer multiplies them by weights
    initialized for inputs of scale ~1, so its outputs are hundreds of times too large:
    sigmoids and softmaxes saturate to exactly 0 and 1, `log` of them is `-inf`, the
    gradients are as large as the inputs and the first steps overflow to NaN.

    In float16 it does not take training: float16's largest finite value is 65504, and under
    a float16 policy Keras layers cast their inputs to float16 (autocast) before `call`, so
    a value of 70000 is `inf` before the first operation, and a normalization or loss of it is
    `inf - inf = NaN`. (Recent Keras 3 — 3.15.1 has it, keras-team/keras PR 23070 — lets
    LayerNormalization and GroupNormalization skip the cast; other layers, and older
    versions, do not.)

    ## Example
    ```python
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    model.fit(x_train, y_train, epochs=5)
    ```
    ```python
    keras.mixed_precision.set_global_policy("mixed_float16")
    x = np.random.uniform(60000, 70000, size=(1, 16))
    model(x)  # 70000 is inf in float16
    ```

    ## Use instead
    ```python
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    model.fit(x_train / 255.0, y_train, epochs=5)
    # or put tf.keras.layers.Rescaling(1 / 255) first in the model
    ```
    ```python
    keras.mixed_precision.set_global_policy("mixed_float16")
    x = np.random.uniform(60000, 70000, size=(1, 16))
    model(x / 70000.0)  # or keep the first layer in float32: dtype="float32" / autocast=False
    ```

    ## Fix safety
    No automatic fix: the right scaling depends on the data.

    ## Options
    None.

    ## Preview
    Judged on 14 findings in real repositories nobody here had tuned on, 3 were real (a
    feature of about 1e6 under SGD), 9 false and 2 style: scaling done inside the model
    where nanlint does not follow it (an aliased `preprocess_input`, a `Rescaling` layer a
    course skeleton asks for), a single linear layer whose step is stable for that rate,
    raw pixels into bounded activations. It waits in preview until a sample shows 2 in 3;
    `nanlint suspects` ranks unscaled inputs.
    """

    code = "NAN401"
    preview = True
    name = "unnormalized-input"
    severity = "warning"
    summary = "raw input data reaches training without scaling, or float16 beyond its range"
    VALID = [
        "import tensorflow as tf\n(x, y), _ = tf.keras.datasets.mnist.load_data()\n"
        "model.fit(x / 255.0, y)\n",
        "import tensorflow as tf\n(x, y), _ = tf.keras.datasets.mnist.load_data()\n"
        "x = x.astype('float32')\nx /= 255\nmodel.fit(x, y)\n",
        "import tensorflow as tf\n(x, y), _ = tf.keras.datasets.mnist.load_data()\n"
        "model = tf.keras.Sequential([tf.keras.layers.Rescaling(1 / 255),\n"
        "                             tf.keras.layers.Dense(10)])\nmodel.fit(x, y)\n",
        "import tensorflow as tf\n(x, y), _ = tf.keras.datasets.imdb.load_data()\n"
        "model.fit(x, y)\n",
        "import numpy as np\nimport keras\n"
        "keras.mixed_precision.set_global_policy('mixed_float16')\n"
        "model.predict(np.random.uniform(60000, 70000, size=(8, 4)) / 70000.0)\n",
    ]
    INVALID = [
        "import tensorflow as tf\n(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()\n"
        "model.fit(x_train, y_train, epochs=5)\n",
        "import tensorflow as tf\nfrom tensorflow.keras.datasets import cifar10\n"
        "(x, y), (xt, yt) = cifar10.load_data()\nx = x.reshape(-1, 3072).astype('float32')\n"
        "model.train_on_batch(x[:32], y[:32])\n",
        "import tensorflow as tf\ndef load(path):\n"
        "    return tf.io.decode_jpeg(tf.io.read_file(path))\n"
        "ds = tf.data.Dataset.from_tensor_slices(files).map(load).batch(32)\nmodel.fit(ds)\n",
        "import numpy as np\nimport keras\n"
        "keras.mixed_precision.set_global_policy('mixed_float16')\n"
        "model.predict(np.random.uniform(60000, 70000, size=(8, 4)))\n",
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._scaled_in_model: Optional[bool] = None
        self._reported: Set[int] = set()  # raw sources already reported (once each)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        self._check_cast(node)
        if not isinstance(func, cst.Attribute):
            if self._keras_object(func):  # `model(x)`, `layer(x)`: the model runs on x
                x = node.args[0].value if node.args and node.args[0].keyword is None else None
                if x is not None:
                    self._check_float16(node, x, f"`{self.compact(func, 40)}`", func)
            return
        method = func.attr.value
        if method in INFERENCE_METHODS or method in TRAINING_METHODS:
            x = self.analysis.passed(node, "x")
            if x is None or not self._is_model(func.value):
                return
            if method in INFERENCE_METHODS:
                self._check_float16(node, x, f"`{self.compact(func, 40)}`", func.value)
            else:
                self._check(node, x, f"`{self.source(func)}`", func.value)
        elif method == "run":
            feed = self.analysis.keyword(node, "feed_dict")
            if not isinstance(feed, cst.Dict):
                return
            training = self._runs_a_training_step(node)
            for element in feed.elements:
                if not isinstance(element, cst.DictElement):
                    continue
                if self._float16_placeholder(node, element):
                    continue
                if training:
                    self._check(node, element.value, "the `feed_dict` of a training step")

    def _float16_placeholder(self, node: cst.Call, element: cst.DictElement) -> bool:
        """`sess.run(..., feed_dict={x: data})` where `x` is a float16 placeholder: data
        beyond 65504 is inf once fed, in any run (training or not)."""
        key = element.key
        made = self.analysis.definition(key) if isinstance(key, cst.Name) else None
        if not isinstance(made, cst.Call) or not (
                self.analysis.qualified_name(made.func) or "").endswith(".placeholder"):
            return False
        dtype = self.analysis.keyword(made, "dtype")
        if dtype is None and made.args and made.args[0].keyword is None:
            dtype = made.args[0].value
        if dtype is None or self.analysis.dtype_name(dtype) not in FLOAT16:
            return False
        evidence = Evidence(made, "fed to the placeholder `{src}`", "which holds float16",
                            producer="placeholder")
        return self._check_float16(node, element.value, "a `feed_dict`", evidence=evidence)

    def visit_For(self, node: cst.For) -> None:
        """`for x, y in dataset:` with a training step in the body, where `x` is used as
        the dataset gives it (not rebound in the loop)."""
        target = node.target
        if isinstance(target, (cst.Tuple, cst.List)) and target.elements:
            target = target.elements[0].value
        if not isinstance(target, cst.Name):
            return
        calls, bound = _Body(), target.value
        visit_tree(node.body, calls)
        if calls.training and bound not in calls.assigned:
            self._check(node.iter, node.iter, "a training loop")

    def _is_model(self, receiver: cst.BaseExpression) -> bool:
        """False for a receiver that only computes statistics of the data (an
        ImageDataGenerator's `fit`, a scikit-learn scaler, a preprocessing layer)."""
        if isinstance(receiver, cst.Name):
            definition = self.analysis.definition(receiver)
            if isinstance(definition, cst.Call):
                qualified = self.analysis.qualified_name(definition.func) or ""
                if qualified and not qualified.startswith(("tensorflow", "keras", "tf_keras")):
                    return False
                if any(word in qualified for word in NOT_MODELS):
                    return False
        return True

    def _runs_a_training_step(self, node: cst.Call) -> bool:
        """`sess.run(train_op, ...)` or `train_op.run(...)` where `train_op` is the result of
        `minimize` or `apply_gradients`; an evaluation or prediction run trains nothing."""
        for fetch in self.analysis.run_fetches(node):
            if isinstance(fetch, cst.Name) and self.analysis.definition(fetch) is None and \
                    STEP_NAME.search(fetch.value.lower()):
                return True  # a parameter or loop name: `train_step`, `train_op`, `optimizer`
            step = self.analysis.definition(fetch) if isinstance(fetch, cst.Name) else fetch
            if isinstance(step, cst.Call) and isinstance(step.func, cst.Attribute) and \
                    step.func.attr.value in ("minimize", "apply_gradients"):
                return True
            if isinstance(step, cst.Call) and isinstance(step.func, cst.Name) and \
                    step.func.value == "minimize":
                return True
        return False

    def _normalized_by_a_layer(self) -> bool:
        if self._scaled_in_model is None:
            self._scaled_in_model = bool(self.analysis.calls_of("normalization_layer"))
        return self._scaled_in_model

    def _check(self, node: cst.CSTNode, x: cst.BaseExpression, where: str,
               model: Optional[cst.BaseExpression] = None) -> None:
        if not self.analysis.gradient_may_flow() or self._check_float16(node, x, where, model):
            return
        raw = self._raw(x, self.analysis.here(), 0)
        moment = self.analysis.moment(x) if raw is None or raw[1] != "images" else None
        if raw is None and moment is not None and moment.largest > LARGE_RMS:
            raw = (moment.source, "range")
        if raw is None or self._normalized_by_a_layer():
            return
        source, what = raw
        if id(source) in self._reported:
            return  # one finding per raw source: its first training use
        scale = 255.0 if what == "images" else moment.largest if moment is not None else None
        family = self._optimizer_family(node, model)
        if family not in (None, "sgd") and scale is not None and scale <= ADAPTIVE_LIMIT:
            return  # an adaptive step: the scale slows the first layer, no more
        self._reported.add(id(source))
        if what == "images":
            why = ("which holds integer pixel values in 0..255: about 255 times the scale "
                   "of ~1 that the first layer's initialization assumes")
        elif moment is not None:
            why = (f"which holds values of root mean square ~{moment.largest:.3g}"
                   + (f" over {moment.features} features (E[|x|^2] ~ {moment.total:.3g}, "
                      f"against ~{moment.features} for standardized ones)"
                      if moment.features > 1 else "")
                   + f": ~{moment.largest:.3g} times the scale of ~1 that the first layer's "
                   "initialization assumes")
        else:
            why = "which holds values in their stored units, never scaled on the way here"
        name = self.compact(x, 40) if isinstance(x, (cst.Name, cst.Subscript)) else None
        evidence = Evidence(source, "the raw data of `{src}`", why, "high",
                            producer="raw_input", name=name)
        self.report(node, f"raw input data reaches {where} unscaled: {{evidence}}, so the "
                    "first layer's outputs and the gradients are as many times too large; "
                    "sigmoids and softmaxes saturate and the loss turns inf/NaN",
                    evidence=evidence,
                    suggestion=("divide by 255 (`x / 255.0`) or put "
                                "`tf.keras.layers.Rescaling(1 / 255)` first in the model"
                                if what == "images" else
                                "standardize the features (`(x - mean) / std`) or put a "
                                "`tf.keras.layers.Normalization` layer first in the model"))

    def _optimizer_family(self, node: cst.CSTNode, model: Optional[cst.BaseExpression]
                          ) -> Optional[str]:
        """The family of the optimizer that trains on the data ("sgd", "adaptive",
        "adagrad", "adadelta"), or None where it is not shown: the one a training loop's
        body steps, the `optimizer` given to the model's `compile`, or the one whose
        `minimize` a training `sess.run` fetches."""
        optimizers: List[cst.BaseExpression] = []
        loop = self.analysis.parent(node)
        if isinstance(loop, cst.For) and loop.iter is node:  # the optimizer its body steps
            steps = _Steps()
            visit_tree(loop.body, steps)
            optimizers.extend(steps.optimizers)
        elif model is not None and isinstance(model, (cst.Name, cst.Attribute)):
            receiver = self.source(model)
            for compiled in self.analysis.method_calls(receiver, "compile"):
                if not self._same_model(compiled, node, receiver):
                    continue
                found = self.analysis.passed(compiled, "optimizer")
                if found is not None:
                    optimizers.append(found)
        elif isinstance(node, cst.Call):  # `sess.run(train_op, feed_dict=...)`
            for fetch in self.analysis.run_fetches(node):
                step = self.analysis.definition(fetch) if isinstance(fetch, cst.Name) else fetch
                if isinstance(step, cst.Call) and isinstance(step.func, cst.Attribute) and \
                        step.func.attr.value in ("minimize", "apply_gradients"):
                    optimizers.append(step.func.value)
        families = {self._family_of(optimizer) for optimizer in optimizers}
        return families.pop() if len(families) == 1 else None

    def _same_model(self, compiled: cst.Call, use: cst.CSTNode, receiver: str) -> bool:
        """Whether `compile` is called on the model that `use` trains: the same name in the
        same function (or both at the top level), or `self.model` in the same class."""
        here, there = self.analysis.function_of(use), self.analysis.function_of(compiled)
        if receiver.startswith("self."):
            return self._class_of(here) is not None and self._class_of(here) is \
                self._class_of(there)
        return here is there

    def _class_of(self, function: Optional[cst.FunctionDef]) -> Optional[cst.ClassDef]:
        node: Optional[cst.CSTNode] = function
        while node is not None and not isinstance(node, cst.ClassDef):
            node = self.analysis.parent(node)
        return node

    def _family_of(self, optimizer: cst.BaseExpression) -> Optional[str]:
        if isinstance(optimizer, cst.Name):
            optimizer = self.analysis.definition(optimizer) or optimizer
        if isinstance(optimizer, cst.SimpleString):
            return OPTIMIZER_NAMES.get(optimizer.value.strip("'\"").lower())
        if isinstance(optimizer, cst.Call):
            op = self.analysis.op_of(optimizer)
            if op is not None and "optimizer" in op.tags:
                return next((tag for tag in op.tags if tag in OPTIMIZER_FAMILIES), None)
            # old Keras's lower-case aliases, `optimizers.rmsprop(lr=...)`
            func = optimizer.func
            if isinstance(func, cst.Attribute) and "optimizers" in self.source(func.value):
                return OPTIMIZER_NAMES.get(func.attr.value.lower())
        return None

    # -- data beyond float16's range, computed in float16 ------------------------------------
    def _keras_object(self, func: cst.BaseExpression) -> bool:
        """`model` of `model(x)` made by a Keras constructor (a Model, Sequential, a layer,
        `load_model`), or the constructor call itself (`layers.Dense(3)(x)`)."""
        made = self.analysis.definition(func) if isinstance(func, cst.Name) else func
        if not isinstance(made, cst.Call):
            return False
        qualified = self.analysis.qualified_name(made.func) or ""
        return qualified.startswith(KERAS) and (".layers." in qualified or qualified.rsplit(
            ".", 1)[-1] in MODELS)  # not a loss or metric object: they compute in float32

    def _float16_layers(self, model: Optional[cst.BaseExpression]) -> Optional[Evidence]:
        """Why the model computes in float16: the float16 dtype policy in force, or a layer
        made with a float16 dtype; None where a layer is kept in float32 (`dtype='float32'`,
        `autocast=False`), which is how such data is meant to enter a float16 model. Layers
        count where the model is used, or built (`model = build()`: in `build`)."""
        units = {id(self.analysis.in_function())}
        made = self.analysis.definition(model) if isinstance(model, cst.Name) else None
        if isinstance(made, cst.Call):
            callee = self.analysis.callee(made)
            if callee is not None and isinstance(callee.node, cst.FunctionDef):
                units.add(id(callee.node))
        layers = [(layer.call, layer.dtype) for layer in self.analysis.layer_dtypes()
                  if id(layer.function) in units]
        if any(dtype == "float32" for _, dtype in layers):
            return None
        policy = self.analysis.dtype_policy()
        if policy is not None:
            return Evidence(policy.call, f"run under the '{policy.name}' dtype policy set by "
                            "`{op}`", "which makes Keras layers cast their inputs to float16 "
                            "(autocast)", producer="policy")
        for call, _ in layers:
            return Evidence(call, "run by a model with the float16 layer `{src}`",
                            "which casts its inputs to float16", "medium", producer="policy")
        return None

    def _beyond_float16(self, x: cst.BaseExpression) -> Optional[Moment]:
        """The moments of ``x`` where the code shows values beyond the float16 maximum."""
        moment = self.analysis.moment(x)
        if moment is None or moment.extreme is None or moment.extreme <= FLOAT16_MAX:
            return None
        return moment

    def _check_float16(self, node: cst.CSTNode, x: cst.BaseExpression, where: str,
                       model: Optional[cst.BaseExpression] = None,
                       evidence: Optional[Evidence] = None) -> bool:
        """Data beyond 65504 reaching a model that computes in float16: not a slow start
        but an immediate inf, at any use of the model. True where it is (or was) reported."""
        if not self.analysis.gradient_may_flow():
            return False
        moment = self._beyond_float16(x)
        if moment is not None and evidence is None:
            evidence = self._float16_layers(model)
        if moment is None or evidence is None:
            return False
        if id(moment.source) not in self._reported:
            self._reported.add(id(moment.source))
            self.report(node, f"{moment.what} holds values up to {_number(moment.extreme)}, "
                        f"above float16's maximum 65,504, and reaches {where}: {{evidence}}; "
                        "cast to float16 these values are inf, and what the layers compute "
                        "from them (a normalization, a loss) is inf/NaN",
                        evidence=evidence,
                        suggestion="scale the data first (divide by its range, or standardize "
                                   "it), or keep the layer that receives it in float32 "
                                   "(`dtype='float32'`, `autocast=False`)")
        return True

    def _check_cast(self, node: cst.Call) -> None:
        """`tf.cast(x, tf.float16)` of data beyond 65504: inf at the cast itself."""
        op = self.analysis.op_of(node)
        if op is None or op.name != "cast" or not node.args or node.args[0].keyword is not None \
                or not self.analysis.gradient_may_flow():
            return
        if self.analysis.value(node).dtype not in FLOAT16:
            return
        moment = self._beyond_float16(node.args[0].value)
        if moment is None or id(moment.source) in self._reported:
            return
        self._reported.add(id(moment.source))
        evidence = Evidence(moment.source, "the data of `{src}`",
                            f"which holds values up to {_number(moment.extreme)}",
                            producer="raw_input")
        self.report(node, f"`{self.compact(node, 50)}` casts to float16 data beyond its maximum "
                    "65,504: {evidence}, and each of them becomes inf",
                    evidence=evidence,
                    suggestion="scale the data before the cast, or keep it in float32")

    def _raw(self, expr: cst.BaseExpression, place: Place, depth: int,
             element: Optional[Raw] = None, path: Tuple[int, ...] = ()) -> Optional[Raw]:
        """The loading call whose unscaled data ``expr`` is, or None. ``path`` selects in a
        tuple value (`(x, y), _ = load_data()`: x is (0, 0)); inside a function given to
        `dataset.map`, ``element`` is what its parameters hold."""
        if depth > 12:
            return None
        deeper = depth + 1
        found = self.analysis.origin(expr, place, path)
        if found is None:
            return None
        if found.expr is None:  # a parameter holds the element; `x /= 255`, a loop variable
            return element if found.param else None
        expr, place, path = found.expr, found.place, found.path
        if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
            return self._raw(expr.elt, place, deeper, element, path)
        if isinstance(expr, (cst.Tuple, cst.List)) and expr.elements:
            # (features, labels): without a selection, the features are trained on.
            index, rest = (path[0], path[1:]) if path else (0, ())
            if index >= len(expr.elements):
                return None
            return self._raw(expr.elements[index].value, place, deeper, element, rest)
        if isinstance(expr, cst.Call):
            return self._raw_call(expr, place, deeper, element, path)
        return None

    def _raw_call(self, call: cst.Call, place: Place, depth: int,
                  element: Optional[Raw], path: Tuple[int, ...]) -> Optional[Raw]:
        op = self.analysis.op_at(call, place)
        qualified = (self.analysis.qualified_at(call.func, place) or "").replace(
            "tensorflow.compat.v1.", "tensorflow.").replace("tensorflow.compat.v2.",
                                                            "tensorflow.")
        first = call.args[0].value if call.args and call.args[0].keyword is None else None
        if op is not None and "raw_input" in op.tags:
            if qualified.endswith("load_data") and path and path[-1] == 1:
                return None  # `(x, y), _ = load_data()`: y holds the labels
            return call, "images" if op.name == "raw_images" else "features"
        if qualified.endswith("convert_image_dtype"):
            return None  # scales integer images to [0, 1]
        if (op is not None and op.name in KEEP_RANGE_OPS) or qualified in KEEP_RANGE:
            return self._raw(first, place, depth, element, path) if first is not None else None
        func = call.func
        if isinstance(func, cst.Attribute) and not qualified:
            method = func.attr.value
            if method in KEEP_RANGE_METHODS:
                return self._raw(func.value, place, depth, element, path)
            if method in ("run", "eval") and first is not None:
                return self._raw(first, place, depth, element, path)  # `sess.run(images)`
            if method in ("flow", "flow_from_dataframe") and first is not None:
                if self._rescaling_generator(func.value, place):
                    return None
                return self._raw(first, place, depth, element, path)
            if method == "map" and first is not None:
                return self._mapped(first, place, depth,
                                    self._raw(func.value, place, depth, element))
            return None
        for result, where in self.analysis.results(func, place):
            found = self._raw(result, where, depth, element, path)
            if found is not None:
                return found
        return None

    def _rescaling_generator(self, receiver: cst.BaseExpression, place: Place) -> bool:
        """An `ImageDataGenerator(rescale=1/255, ...)` or one that standardizes."""
        if isinstance(receiver, cst.Name):
            found = self.analysis.binding(receiver.value, place)
            receiver = found[0].value if found is not None else None
        return isinstance(receiver, cst.Call) and any(
            a.keyword is not None and a.keyword.value in (
                "rescale", "preprocessing_function", "featurewise_std_normalization",
                "samplewise_std_normalization") for a in receiver.args)

    def _mapped(self, function: cst.BaseExpression, place: Place, depth: int,
                element: Optional[Raw]) -> Optional[Raw]:
        """What `dataset.map(function)` yields: raw where every result of the function is
        raw, or the unchanged element of a raw dataset; a function nanlint cannot see may
        scale, so it yields nothing known."""
        found = [self._raw(result, where, depth, element)
                 for result, where in self.analysis.results(function, place)]
        if not found or any(f is None for f in found):
            return None
        return found[0]


def _number(value: float) -> str:
    """70000 -> "70,000"; 2.5e12 -> "2.5e+12"."""
    if math.isfinite(value) and value == int(value) and value < 1e12:
        return f"{value:,.0f}"
    return f"{value:.3g}"


class _Steps(cst.CSTVisitor):
    """The receivers of the optimizer steps (`minimize`, `apply_gradients`) of a body."""

    def __init__(self) -> None:
        super().__init__()
        self.optimizers: List[cst.BaseExpression] = []

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in (
                "minimize", "apply_gradients"):
            self.optimizers.append(node.func.value)


class _Body(cst.CSTVisitor):
    """Whether a loop body takes a training step, and the names it assigns."""

    def __init__(self) -> None:
        self.training = False
        self.assigned: set = set()

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else (
            func.value if isinstance(func, cst.Name) else "")
        self.training = self.training or name in TRAINING_STEPS

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._names(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._names(node.target)

    def _names(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.assigned.add(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._names(element.value)
