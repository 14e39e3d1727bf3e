"""Import resolution and the op table: which calls are which canonical TF/Keras ops.

The analysis answers ``op_of(call)`` at the traversal's current position, so the cases run
through the real engine with a throwaway rule that records the answer for every call.
"""

import textwrap

import libcst as cst
import pytest

from nanlint import optable
from nanlint.analysis.callsites import op_argument
from nanlint.engine import lint_source
from nanlint.options import LintOptions
from nanlint.rule import Rule


def resolved_calls(source):
    """[(callee source, canonical op name or None, qualified name or None)] for each call."""
    seen = []

    class Recorder(Rule):
        code = "NAN999"
        name = "op-recorder"
        severity = "info"

        def visit_Call(self, node):
            op = self.analysis.op_of(node)
            seen.append((self.source(node.func), op.name if op is not None else None,
                         self.analysis.qualified_name(node.func)))

    findings = lint_source(textwrap.dedent(source), "imports.py",
                           LintOptions(rules=[Recorder], check_all_files=True))
    assert not findings, [f.message for f in findings]  # a parse error would hide the case
    return seen


def op_of(source, func):
    """The canonical op name of the one call whose callee is written ``func``."""
    matches = [(op, qualified) for text, op, qualified in resolved_calls(source)
               if text == func]
    assert len(matches) == 1, f"expected one call of `{func}`, got {matches}"
    return matches[0][0]


# -- forms that resolve to `log` -------------------------------------------------------------
RESOLVED = [
    pytest.param("import tensorflow as tf\ntf.math.log(x)\n", "tf.math.log", id="tf.math"),
    pytest.param("import tensorflow as tf\ntf.log(x)\n", "tf.log", id="tf.log"),
    pytest.param("import tensorflow as tf\ntf.compat.v1.log(x)\n", "tf.compat.v1.log",
                 id="tf.compat.v1"),
    pytest.param("import tensorflow.compat.v1 as tf\ntf.log(x)\n", "tf.log",
                 id="import-compat.v1-as-tf"),
    pytest.param("from tensorflow.compat import v1 as tf\ntf.log(x)\n", "tf.log",
                 id="from-compat-import-v1"),
    pytest.param("from tensorflow import math as tm\ntm.log(x)\n", "tm.log",
                 id="from-tensorflow-import-math"),
    pytest.param("from tensorflow.math import log\nlog(x)\n", "log",
                 id="from-tensorflow.math-import-log"),
    pytest.param("from tensorflow.math import log as ln\nln(x)\n", "ln",
                 id="from-import-log-as"),
    pytest.param("import tensorflow\ntensorflow.math.log(x)\n", "tensorflow.math.log",
                 id="import-tensorflow"),
    pytest.param("import tensorflow.math\ntensorflow.math.log(x)\n", "tensorflow.math.log",
                 id="import-dotted"),
    pytest.param("from tensorflow.keras import backend as K\nK.log(x)\n", "K.log",
                 id="keras-backend"),
    pytest.param("from . import backend as K\nK.log(x)\n", "K.log",
                 id="package-own-backend-as-K"),
    pytest.param("from .. import backend as K\nK.log(x)\n", "K.log",
                 id="parent-package-backend-as-K"),
    pytest.param("import tensorflow as tf\ntf.keras.backend.log(x)\n",
                 "tf.keras.backend.log", id="tf.keras.backend"),
    pytest.param("import keras\nkeras.ops.log(x)\n", "keras.ops.log", id="keras.ops"),
    pytest.param("from keras import ops\nops.log(x)\n", "ops.log", id="from-keras-import-ops"),
    pytest.param("from keras.src import ops\nops.log(x)\n", "ops.log", id="keras.src-ops"),
    pytest.param("from keras.src.ops import numpy as knp\nknp.log(x)\n", "knp.log",
                 id="keras.src.ops.numpy"),
    pytest.param("import tf_keras\ntf_keras.backend.log(x)\n", "tf_keras.backend.log",
                 id="tf_keras"),
    pytest.param("import tensorflow as tf\ntfm = tf.math\ntfm.log(x)\n", "tfm.log",
                 id="module-alias-in-code"),
    pytest.param("import tensorflow as tf\nK = tf.keras.backend\nK.log(x)\n", "K.log",
                 id="backend-alias-in-code"),
    pytest.param("import tensorflow as tf\nlg = tf.math.log\nlg(x)\n", "lg",
                 id="function-alias-in-code"),
    pytest.param("import tensorflow as tf\na = tf\nb = a.math\nb.log(x)\n", "b.log",
                 id="alias-chain"),
    pytest.param("""
        def f(x):
            import tensorflow as tf
            return tf.math.log(x)
        """, "tf.math.log", id="import-in-function"),
    pytest.param("""
        def f(x):
            from tensorflow.math import log
            return log(x)
        """, "log", id="from-import-in-function"),
    pytest.param("""
        import tensorflow as tf
        def f(x):
            tfm = tf.math
            return tfm.log(x)
        """, "tfm.log", id="alias-in-function"),
    pytest.param("""
        def f(x):
            return tf.math.log(x)
        import tensorflow as tf
        """, "tf.math.log", id="module-import-after-function"),
    pytest.param("""
        import tensorflow as tf
        class Model:
            tf = None  # a class attribute is not visible in its methods
            def call(self, x):
                return tf.math.log(x)
        """, "tf.math.log", id="method"),
    # A conventional alias the file never binds stands for its module: a star import
    # brought it, a function's import made it global, or a snippet left the imports out.
    pytest.param("from utils import *\ntf.math.log(x)\n", "tf.math.log",
                 id="free-alias-after-star-import"),
    pytest.param("tf.math.log(x)\n", "tf.math.log", id="free-alias-in-a-snippet"),
    pytest.param("from common import *\nK.log(x)\n", "K.log", id="free-K"),
    pytest.param("""
        def setup():
            global tf
            import tensorflow as tf
        def f(x):
            return tf.math.log(x)
        """, "tf.math.log", id="free-alias-made-global-by-a-function"),
    pytest.param("""
        tf = None
        def setup():
            global tf
            import tensorflow as tf
        def f(x):
            return tf.math.log(x)
        """, "tf.math.log", id="lazy-import-held-as-None-until-a-function-imports-it"),
    pytest.param("import tensorflow as tf\nys = [tf.math.log(v) for v in xs]\n",
                 "tf.math.log", id="in-comprehension"),
    pytest.param("import tensorflow as tf\nf = lambda v: tf.math.log(v)\n", "tf.math.log",
                 id="in-lambda"),
]


@pytest.mark.parametrize("source, func", RESOLVED)
def test_resolves_to_log(source, func):
    assert op_of(source, func) == "log"


# -- forms that must not resolve -------------------------------------------------------------
UNRESOLVED = [
    pytest.param("import math\nmath.log(x)\n", "math.log", id="math"),
    pytest.param("import torch\ntorch.log(x)\n", "torch.log", id="torch"),
    pytest.param("import jax.numpy as jnp\njnp.log(x)\n", "jnp.log", id="jax"),
    pytest.param("def log(x):\n    return x\nlog(x)\n", "log", id="local-function"),
    pytest.param("from tensorflow.math import log\ndef log(x):\n    return x\nlog(x)\n", "log",
                 id="local-function-redefines-import"),
    pytest.param("""
        import tensorflow as tf
        def f(tf, x):
            return tf.math.log(x)
        """, "tf.math.log", id="parameter-shadows-tf"),
    pytest.param("import tensorflow as tf\nf = lambda tf: tf.math.log(x)\n", "tf.math.log",
                 id="lambda-parameter-shadows-tf"),
    pytest.param("import tensorflow as tf\ntf = make()\ntf.math.log(x)\n", "tf.math.log",
                 id="reassigned-tf"),
    pytest.param("import tensorflow as tf\nfor tf in xs:\n    tf.math.log(x)\n",
                 "tf.math.log", id="loop-variable-shadows-tf"),
    pytest.param("import tensorflow as tf\nys = [tf.math.log(v) for tf in xs]\n",
                 "tf.math.log", id="comprehension-variable-shadows-tf"),
    pytest.param("tf.math.log(x)\nimport tensorflow as tf\n", "tf.math.log",
                 id="use-before-import"),
    pytest.param("tfm.log(x)\n", "tfm.log", id="free-name-of-no-convention"),
    pytest.param("from . import backend\nbackend.log(x)\n", "backend.log",
                 id="package-own-module-without-a-conventional-alias"),
    pytest.param("import tensorflow as tf\nx.log(y)\n", "x.log", id="method-on-value"),
    pytest.param("import tensorflow as tf\ntf.math.log1p(x)\n", "tf.math.log1p",
                 id="other-op-log1p"),
]


@pytest.mark.parametrize("source, func", UNRESOLVED)
def test_does_not_resolve_to_log(source, func):
    assert op_of(source, func) != "log"


def test_numpy_functions_are_spellings_of_the_ops_they_compute():
    calls = resolved_calls("import numpy as np\nnp.log(x)\n")
    assert calls == [("np.log", "log", "numpy.log")]
    assert resolved_calls("from utils import *\nnp.log(x)\n") == calls  # a free `np`
    # one that computes a spread of data is numpy's own op (it claims no 0)
    assert resolved_calls("import numpy as np\nnp.std(x)\n") == [
        ("np.std", "np.std", "numpy.std")]


def test_qualified_name_of_an_external_call():
    calls = resolved_calls("import scipy.special as sp\nsp.xlogy(x, y)\n")
    assert calls == [("sp.xlogy", None, "scipy.special.xlogy")]


def test_qualified_name_follows_aliases():
    calls = resolved_calls("import tensorflow as tf\ntfm = tf.math\ntfm.log(x)\n")
    assert calls == [("tfm.log", "log", "tensorflow.math.log")]


def test_other_ops_resolve_by_their_canonical_names():
    source = textwrap.dedent("""
        import tensorflow as tf
        from tensorflow.keras import backend as K
        from keras import ops, layers
        tf.nn.softmax(z)
        tf.math.sqrt(x)
        tf.compat.v1.div(a, b)
        K.epsilon()
        ops.divide_no_nan(a, b)
        layers.Dense(4)
        tf.keras.layers.Dense(4)
        tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z)
    """)
    assert [op for _, op, _ in resolved_calls(source)] == [
        "softmax", "sqrt", "divide", "epsilon", "divide_no_nan", "dense", "dense",
        "fused_cross_entropy"]


# -- the op table ----------------------------------------------------------------------------
@pytest.mark.parametrize("qualified, spelling", [
    ("tensorflow.math.log", "tf.math.log"),
    ("tensorflow.log", "tf.log"),
    ("tensorflow.compat.v1.log", "tf.log"),
    ("tensorflow.compat.v1.math.log", "tf.math.log"),
    ("tensorflow.compat.v2.nn.softmax", "tf.nn.softmax"),
    ("tensorflow._api.v2.math.log", "tf.math.log"),
    ("tensorflow._api.v1.keras.backend.sqrt", "K.sqrt"),
    ("tensorflow.contrib.layers.python.layers.layer_norm", "tf.contrib.layers.layer_norm"),
    ("tensorflow.contrib.layers.python.layers.layers.conv2d", "tf.contrib.layers.conv2d"),
    ("tensorflow.keras.backend.epsilon", "K.epsilon"),
    ("tensorflow.compat.v1.keras.backend.log", "K.log"),
    ("tensorflow.python.keras.backend.log", "K.log"),
    ("keras.backend.log", "K.log"),
    ("keras.ops.log", "ops.log"),
    ("keras.ops.numpy.log", "ops.log"),
    ("keras.src.ops.numpy.log", "ops.log"),
    ("keras.api.ops.log", "ops.log"),
    ("keras._tf_keras.keras.backend.log", "K.log"),
    ("tf_keras.layers.Dense", "layers.Dense"),
    ("keras.activations.relu", "activations.relu"),
    ("keras.losses.mse", "losses.mse"),
    ("keras.metrics.mean_squared_error", "keras.metrics.mean_squared_error"),
    ("numpy.log", "np.log"),
    ("numpy.random.normal", "np.random.normal"),
    ("math.log", None),
    ("tensorflow", None),
    ("tensorflowx.log", None),
    ("kerasx.ops.log", None),
])
def test_spelling_of(qualified, spelling):
    assert optable.spelling_of(qualified) == spelling


@pytest.mark.parametrize("qualified, name", [
    ("tensorflow.math.log", "log"),
    ("tensorflow.compat.v1.log", "log"),
    ("keras.src.ops.log", "log"),
    ("tensorflow.keras.backend.log", "log"),
    ("tensorflow.nn.softmax", "softmax"),
    ("keras.activations.softmax", "softmax"),
    ("tensorflow.math.divide_no_nan", "divide_no_nan"),
    ("tensorflow.compat.v1.div", "divide"),
    ("tensorflow.keras.backend.epsilon", "epsilon"),
    ("keras.layers.Dense", "dense"),
    ("tensorflow.keras.layers.ReLU", "relu_layer"),
    ("tensorflow.math.log1p", "log1p"),
    ("tensorflow.nonexistent", None),
    ("numpy.log", "log"),
    ("numpy.std", "np.std"),
    ("math.log", None),
])
def test_lookup(qualified, name):
    op = optable.lookup(qualified)
    assert (op.name if op is not None else None) == name


def test_spelling_of_chained_module_aliases():
    assert optable.spelling_of("tensorflow._api.v2.compat.v1.log") == "tf.log"


def test_no_duplicate_spellings():
    spellings = [spelling for op in optable.OPS for spelling in op.spellings]
    duplicates = sorted({s for s in spellings if spellings.count(s) > 1})
    assert not duplicates, duplicates
    names = [op.name for op in optable.OPS]
    assert len(names) == len(set(names))


# Namespace of a spelling → the canonical module it stands for (inverse of NAMESPACES).
_MODULE_OF = {}
for _module, _namespace in optable.NAMESPACES:
    if len(_module) < len(_MODULE_OF.get(_namespace, _module + ".")):
        _MODULE_OF[_namespace] = _module


def _all_spellings():
    return [pytest.param(op, spelling, id=spelling)
            for op in optable.OPS for spelling in op.spellings]


@pytest.mark.parametrize("op, spelling", _all_spellings())
def test_every_spelling_maps_back_to_its_op(op, spelling):
    if spelling in optable.NUMPY_SAME:  # the op as numpy's: the same op, on arrays
        assert optable.TABLE.by_spelling[spelling] == optable.replace(
            op, spellings=(spelling,), array=True)
    else:
        assert optable.TABLE.by_spelling[spelling] is op
    assert optable.TABLE.by_name[op.name] is op
    namespace, _, rest = spelling.partition(".")
    assert namespace in _MODULE_OF, f"{spelling}: unknown namespace {namespace!r}"
    qualified = f"{_MODULE_OF[namespace]}.{rest}"
    # Reachable: the fully qualified name the spelling stands for looks it up again.
    assert optable.spelling_of(qualified) == spelling
    assert optable.lookup(qualified) is optable.TABLE.by_spelling[spelling]


def test_namespace_inverse_is_complete():
    assert set(_MODULE_OF) == {namespace for _, namespace in optable.NAMESPACES}
    assert _MODULE_OF["ops"] == "keras.ops"
    assert _MODULE_OF["tf"] == "tensorflow"
    assert _MODULE_OF["K"] == "keras.backend"


def test_activation_strings_name_ops():
    for string, name in optable.ACTIVATION_STRINGS.items():
        assert name in optable.TABLE.by_name, (string, name)



def test_a_module_whose_only_import_is_a_package_module_under_a_conventional_alias_is_read():
    # No "tensorflow" or "keras" in the text: the module is still linted (the cheap text
    # test that skips modules without TensorFlow knows the alias).
    from conftest import options_for

    source = ("from ..engine import Layer\nfrom .. import backend as K\n\n\n"
              "class Norm(Layer):\n    def call(self, x):\n"
              "        h = K.relu(x)\n        return x / K.sum(h)\n")
    assert [f.code for f in lint_source(source, "norm.py", options_for())] == ["NAN101"]
    other = source.replace("backend as K", "backend as B").replace("K.", "B.")
    assert lint_source(other, "norm.py", options_for()) == []


def test_a_module_that_uses_tf_without_importing_it_is_read():
    # A star import brings `tf`: no "tensorflow" in the text, the module is still linted;
    # the same code with a name no convention knows is not.
    from conftest import options_for

    source = ("from model_utils import *\n\n\ndef norm(x):\n"
              "    h = tf.nn.relu(x)\n    return x / tf.reduce_sum(h)\n")
    assert [f.code for f in lint_source(source, "norm.py", options_for())] == ["NAN101"]
    other = source.replace("tf.", "tfx.")
    assert lint_source(other, "norm.py", options_for()) == []


def test_an_arrays_reduction_method_is_its_op_over_the_receiver():
    calls = resolved_calls("import numpy as np\n\n\ndef f(z, model):\n"
                           "    return z.max(1), (z - 1).sum(), z.clip(0, 1), np.max(z),"
                           " model.mean\n\n\nclass C:\n    def max(self, a):\n"
                           "        return self.max(a)\n")
    assert [(func, op) for func, op, _ in calls] == [
        ("z.max", "reduce_max"), ("(z - 1).sum", "reduce_sum"), ("z.clip", "clip"),
        ("np.max", "reduce_max"), ("self.max", None)]
    tensors = resolved_calls("import torch\n\n\ndef f(x):\n"
                             "    return x.pow(2).sum(-1).sqrt(), x.exp(), x.log(), x.prod(),"
                             " x.softmax(-1)\n")
    assert [(func, op) for func, op, _ in tensors] == [
        ("x.pow(2).sum(-1).sqrt", "sqrt"), ("x.pow(2).sum", "reduce_sum"), ("x.pow", "pow"),
        ("x.exp", "exp"), ("x.log", "log"), ("x.prod", "reduce_prod"),
        ("x.softmax", "softmax")]
    # A module's alias is no array: `tf = tf.compat.v1` then `tf.pow(...)` is TF's pow, and
    # check reports what it reports of TF's ops (an array's are left to the hunt).
    aliased = ("import tensorflow as tf\ntf = tf.compat.v1\n\n\ndef l2_loss(x1, x2):\n"
               "    return tf.reduce_mean(tf.pow(tf.norm(x1 - x2, axis=1), 2))\n")
    from conftest import options_for

    assert [f.code for f in lint_source(aliased, "a.py", options_for())] == ["NAN202"]
    power = cst.parse_expression("x.pow(0.5)")
    assert cst.Module([]).code_for_node(op_argument(power, optable.TABLE.methods["pow"], 1)) \
        == "0.5"
    method = optable.TABLE.methods["clip"]
    call = cst.parse_expression("p.clip(1e-7, 1.0)")
    assert [cst.Module([]).code_for_node(op_argument(call, method, i))
            for i in range(3)] == ["p", "1e-7", "1.0"]
