"""The value analysis: ranges and evidence of zero / negative values.

Each case marks the expression under test as the first argument of a call to ``probe(...)``
(an unbound name, so the call itself is invisible to the analysis); a throwaway rule records
``self.analysis.value(arg)`` at that point of the real traversal.
"""

import math
import signal
import textwrap
from contextlib import contextmanager

import libcst as cst
import pytest

from conftest import options_for
from nanlint.engine import lint_source
from nanlint.options import LintOptions
from nanlint.rule import Analysis, Rule
from nanlint.analysis import Settings

TF = "import tensorflow as tf\nfrom tensorflow.keras import backend as K\n"


def normalized(source):
    """Dedent a case; ``TF + \"\"\"...\"\"\"`` keeps the header and dedents the rest."""
    if source.startswith(TF):
        return TF + textwrap.dedent(source[len(TF):]).lstrip("\n")
    return textwrap.dedent(source)


def probes(source, settings=None, question=lambda analysis, value: value):
    """The value of the first argument of every `probe(...)` call, in traversal order (or
    ``question(analysis, value)`` there)."""
    seen = []

    class Recorder(Rule):
        code = "NAN999"
        name = "value-recorder"
        severity = "info"

        def visit_Call(self, node):
            if isinstance(node.func, cst.Name) and node.func.value == "probe":
                seen.append(question(self.analysis, self.analysis.value(node.args[0].value)))

    options = LintOptions(rules=[Recorder], settings=settings or Settings(),
                          check_all_files=True)
    findings = lint_source(normalized(source), "values.py", options)
    assert not findings, [f.message for f in findings]  # a parse error would hide the case
    return seen


def probe(source, settings=None):
    values = probes(source, settings)
    assert len(values) == 1, f"expected one probe(...), got {len(values)}"
    return values[0]


def no_evidence(value):
    return value.zero is None and value.negative is None


@contextmanager
def time_limit(seconds):
    """Fail instead of hanging (the analysis must terminate on recursive code)."""
    def expired(signum, frame):
        raise TimeoutError(f"analysis did not finish within {seconds}s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# -- literals and constant folding -----------------------------------------------------------
@pytest.mark.parametrize("expr, number", [
    ("1e-7", 1e-7),
    ("1 / 255.0", 1 / 255.0),
    ("2 ** -10", 2 ** -10),
    ("-1e-7", -1e-7),
    ("1 - 2 * 3", -5.0),
    ("0.5 * (1 + 1e-6)", 0.5 * (1 + 1e-6)),
    ("True", 1.0),
])
def test_constant_folding(expr, number):
    value = probe(f"probe({expr})\n")
    assert value.const == pytest.approx(number)
    assert value.lo == value.hi == value.const
    assert value.known and not value.tensor
    assert no_evidence(value)


def test_small_positive_constant_is_positive():
    value = probe("probe(1e-7)\n")
    assert value.positive and not value.can_be_zero


def test_zero_constant_is_an_interval_not_evidence():
    value = probe("probe(0.0)\n")
    assert value.const == 0.0 and not value.positive
    assert value.zero is None  # evidence comes from producers, not literals


def test_pythons_min_and_max_of_two_values_or_more_are_the_elementwise_ones():
    assert probe("probe(min(loss, 20))\n").hi == 20
    assert probe("probe(max(std, 1e-3, eps))\n").lo == pytest.approx(1e-3)
    assert probe(TF + "probe(max(tf.nn.relu(x), 0.5))\n").positive
    assert not probe("probe(min(values))\n").known  # of an iterable: not followed
    # a name of the file's own is not the builtin
    assert probe("min = lambda a, b: a - b\nprobe(min(x, 20))\n").hi != 20


@pytest.mark.parametrize("call", ["tf.fill([2, 3], -1e9)", "ops.full_like(x, -1e9)",
                                  "ops.full((2,), fill_value=-1e9)", "np.full_like(x, -1e9)"])
def test_a_tensor_of_one_value_is_that_value(call):
    value = probe("import numpy as np\nimport tensorflow as tf\nfrom keras import ops\n"
                  f"probe({call})\n")
    assert value.const == -1e9 and value.lo == value.hi == -1e9


@pytest.mark.parametrize("grow, read, evidence", [
    ("xs.append(tf.nn.relu(x))", "tf.stack(xs, axis=0)", True),
    ("xs.append(tf.nn.relu(x))", "tf.concat(xs, axis=-1)[:, 1:]", True),
    ("xs.insert(0, tf.nn.relu(x))", "tf.add_n(xs)", True),
    ("xs.extend([tf.nn.relu(x), tf.nn.relu(y)])", "tf.concat(xs, -1)", True),
    ("xs.append(tf.nn.relu(x))", "tf.concat(1, xs)", True),  # TF < 1.0: the axis first
    ("xs.append(tf.nn.relu(x))\n    xs.append(load())", "tf.stack(xs)", False),
    ("xs.append(tf.exp(x))", "tf.stack(xs)", False)])
def test_a_list_grown_by_append_holds_what_was_appended(grow, read, evidence):
    value = probe(TF + f"def f(x, y, n):\n    xs = []\n    for _ in range(n):\n"
                       f"        {grow}\n    probe({read})\n")
    assert (value.zero is not None) is evidence
    assert value.lo >= 0 or not evidence


def test_python_numbers_are_known_and_stay_python_numbers():
    source = ("def f(n: int, rate: float, xs, lmax):\n"
              "    probe(n)\n    probe(rate * 2)\n"
              "    for l in range(1, lmax):\n        probe(l)\n        probe(l - n)\n"
              "    probe(xs[0] * n)\n")
    n, rate, l, difference, array = probes(source)
    assert n.integral and not rate.integral and l.lo == 1 and l.integral
    from nanlint.analysis.evaluator import python_number
    assert all(python_number(v) for v in (n, rate, l, difference))
    assert not python_number(array)  # times something unknown: maybe an array


# -- producers and guards --------------------------------------------------------------------
def test_relu_has_zero_evidence():
    value = probe(TF + "probe(tf.nn.relu(x))\n")
    assert value.zero is not None
    assert value.zero.confidence == "high"
    assert value.nonnegative and not value.positive
    assert value.negative is None
    assert "relu" in value.tags


def test_relu_plus_epsilon_is_positive():
    value = probe(TF + "probe(tf.nn.relu(x) + 1e-7)\n")
    assert value.positive
    assert value.lo == pytest.approx(1e-7)
    assert value.zero is None


@pytest.mark.parametrize("expr, number", [
    ("np.pi", math.pi), ("math.pi ** 2", math.pi ** 2), ("2 * np.e", 2 * math.e),
    ("tau", math.tau), ("np.pie", None)])
def test_a_mathematical_constant_is_its_number(expr, number):
    value = probe(f"import numpy as np\nimport math\nfrom math import tau\nprobe({expr})\n")
    assert value.const == (pytest.approx(number) if number is not None else None)


def test_a_ratio_of_non_negative_values_is_non_negative():
    # Its 0 / 0 is the division's own hazard; past it, a ratio of squares plus 1 is >= 1.
    value = probe(TF + "probe(tf.square(x) / tf.abs(a) + 1.0)\n")
    assert value.positive and value.lo == 1.0
    ratio = probe(TF + "probe(tf.nn.relu(x) / tf.abs(a))\n")
    assert ratio.nonnegative and not ratio.positive and ratio.zero is not None
    mixed = probe(TF + "probe(tf.square(x) / a)\n")  # a of unknown sign
    assert not mixed.nonnegative


def test_maximum_with_a_constant_is_positive():
    value = probe(TF + "probe(tf.maximum(x, 1e-6))\n")
    assert value.positive
    assert value.lo == pytest.approx(1e-6)
    assert value.zero is None


def test_maximum_with_zero_has_zero_evidence():
    value = probe(TF + "probe(tf.maximum(x, 0.0))\n")
    assert value.zero is not None and value.nonnegative


@pytest.mark.parametrize("zero", ["0.0", "tf.zeros_like(x)", "zeros"])
def test_maximum_with_a_tensor_of_zeros_has_zero_evidence(zero):
    value = probe(TF + f"zeros = tf.zeros_like(x)\nprobe(tf.maximum({zero}, x))\n")
    assert value.zero is not None and value.nonnegative
    assert "not positive" in value.zero.why


def test_maximum_of_zeros_and_a_positive_value_has_no_zero_evidence():
    value = probe(TF + "probe(tf.maximum(tf.zeros_like(x), tf.exp(x)))\n")
    assert value.zero is None and value.positive


@pytest.mark.parametrize("clipped", ["tf.clip_by_value(x, 0.0, 1.0)", "K.clip(x, 0, 5)",
                                     "tf.clip_by_value(x, tf.zeros_like(x), 1.0)"])
def test_clip_to_a_floor_of_zero_is_zero_wherever_its_input_is_not_positive(clipped):
    # clip(x, 0, h) is min(max(x, 0), h): a relu where x can be negative
    value = probe(TF + f"probe({clipped})\n")
    assert value.zero is not None and "not positive" in value.zero.why
    assert value.lo == 0.0


def test_clip_to_zero_of_a_value_that_is_not_negative_adds_no_evidence():
    assert probe(TF + "probe(tf.clip_by_value(tf.exp(x), 0.0, 1.0))\n").zero is None


def test_clip_by_value_with_positive_floor_is_positive():
    value = probe(TF + "p = tf.nn.softmax(z)\nprobe(tf.clip_by_value(p, 1e-7, 1.0))\n")
    assert value.positive
    assert value.lo == pytest.approx(1e-7) and value.hi == 1.0
    assert value.zero is None


def test_clip_by_value_by_keyword_is_positive():
    value = probe(TF + "p = tf.nn.softmax(z)\n"
                  "probe(tf.clip_by_value(p, clip_value_min=1e-7, clip_value_max=1.0))\n")
    assert value.positive and value.zero is None


def test_clip_by_value_to_zero_keeps_softmax_evidence():
    value = probe(TF + "p = tf.nn.softmax(z)\nprobe(tf.clip_by_value(p, 0.0, 1.0))\n")
    assert value.zero is not None
    assert value.zero.name == "p"
    assert "underflows" in value.zero.why
    assert value.lo == 0.0 and value.hi == 1.0


def test_one_minus_sigmoid_has_zero_evidence():
    value = probe(TF + "probe(1 - tf.sigmoid(z))\n")
    assert value.zero is not None
    assert "saturates to 1" in value.zero.why


def test_one_minus_clipped_sigmoid_with_parameter_epsilon_has_none():
    value = probe(TF + """
        def loss(z, eps):
            probe(1 - tf.clip_by_value(tf.sigmoid(z), eps, 1 - eps))
        """)
    assert value.zero is None
    assert value.negative is None


def test_one_minus_sigmoid_clipped_to_one_keeps_evidence():
    # Clipping to exactly 1.0 does not stop `1 - p` from being 0.
    value = probe(TF + "probe(1 - tf.clip_by_value(tf.sigmoid(z), 1e-7, 1.0))\n")
    assert value.zero is not None


@pytest.mark.parametrize("selection, evidence", [
    ("boxes[..., 3]", False), ("boxes[:, :, 2:4]", False), ("boxes", True),
    ("boxes[...]", True), ("boxes[:, None]", True)])
def test_a_zero_of_some_parts_of_a_concat_is_not_one_of_the_entries_selected(selection,
                                                                             evidence):
    # The centres are a sigmoid's (0 by underflow), the sizes an exp's: `[..., 3]` takes a
    # size, and the whole tensor holds the centres too.
    value = probe(TF + f"""
        boxes = tf.concat([tf.sigmoid(a), tf.exp(b)], axis=-1)
        probe({selection})
    """)
    assert (value.zero is not None) == evidence
    assert value.lo == 0.0  # the range is still the parts' union


def test_a_zero_of_every_part_of_a_concat_is_one_of_every_entry():
    value = probe(TF + """
        boxes = tf.concat([tf.nn.relu(a), tf.nn.relu(b)], axis=-1)
        probe(boxes[..., 3])
    """)
    assert value.zero is not None


def test_exp_is_positive():
    value = probe(TF + "probe(tf.exp(x))\n")
    assert value.positive
    assert value.lo == 0.0 and value.lo_open
    assert no_evidence(value)
    assert "exp" in value.tags


def test_ones_like_is_exactly_one():
    value = probe(TF + "probe(tf.ones_like(x))\n")
    assert value.lo == value.hi == 1.0
    assert value.positive and no_evidence(value)


def test_zeros_like_has_zero_evidence():
    value = probe(TF + "probe(tf.zeros_like(x))\n")
    assert value.lo == value.hi == 0.0
    assert value.zero is not None


def test_keras_epsilon_is_1e_7():
    value = probe(TF + "probe(K.epsilon())\n")
    assert value.const == 1e-7
    assert value.positive and value.tensor


def test_keras_epsilon_follows_settings():
    value = probe(TF + "probe(K.epsilon())\n", settings=Settings(epsilon=1e-4))
    assert value.const == 1e-4


# -- names: assignments, constants, scopes ---------------------------------------------------
def test_module_constant_flows_into_function():
    first, second = probes(TF + """
        EPS = 1e-8
        def f(x):
            probe(EPS)
            probe(tf.nn.relu(x) + EPS)
        """)
    assert first.const == 1e-8
    assert second.positive and second.zero is None


def test_module_constant_defined_after_the_function():
    value = probe(TF + """
        def f(x):
            probe(tf.nn.relu(x) + EPS)
        EPS = 1e-8
        """)
    assert value.positive and value.zero is None


def test_latest_assignment_wins():
    value = probe(TF + "p = tf.nn.softmax(z)\np = p + 1e-7\nprobe(p)\n")
    assert value.zero is None
    assert value.positive


def test_value_before_reassignment_keeps_evidence():
    before, after = probes(TF + "p = tf.nn.softmax(z)\nprobe(p)\np = p + 1e-7\nprobe(p)\n")
    assert before.zero is not None and before.zero.name == "p"
    assert after.zero is None and after.positive


def test_augmented_assignment_adds_epsilon():
    value = probe(TF + "p = tf.nn.softmax(z)\np += 1e-7\nprobe(p)\n")
    assert value.zero is None
    assert value.positive


def test_augmented_multiplication_keeps_evidence():
    value = probe(TF + "p = tf.nn.softmax(z)\np *= 2.0\nprobe(p)\n")
    assert value.zero is not None


def test_accumulated_sum_from_zero_keeps_evidence():
    value = probe(TF + "total = 0.0\nfor b in batches:\n    total += tf.nn.relu(b)\n"
                  "probe(total)\n")
    assert value.zero is not None


def test_annotated_and_tuple_assignments():
    annotated, first, second = probes(TF + """
        p: tf.Tensor = tf.nn.softmax(z)
        probe(p)
        q, r = tf.nn.relu(x), 1.0
        probe(q)
        probe(r)
        """)
    assert annotated.zero is not None
    assert first.zero is not None
    assert second.const == 1.0


def test_use_before_assignment_in_a_loop_is_unknown():
    value = probe(TF + "for i in range(3):\n    probe(p)\n    p = tf.nn.relu(x)\n")
    assert not value.known and no_evidence(value)


def test_parameter_is_unknown():
    value = probe(TF + "def f(x):\n    probe(x)\n")
    assert not value.known
    assert no_evidence(value)
    assert value.lo == -math.inf and value.hi == math.inf


def test_probability_parameter_of_a_loss_is_weak_evidence():
    value = probe(TF + "def my_loss(y_true, y_pred):\n    probe(y_pred)\n")
    assert value.zero is not None
    assert value.zero.convention and value.zero.confidence == "low"


def test_probability_named_parameter_outside_a_loss_is_unknown():
    value = probe(TF + "def forward(x, y_pred):\n    probe(y_pred)\n")
    assert no_evidence(value)


def test_unknown_call_is_unknown():
    value = probe(TF + "from mylib import scale\nprobe(scale(x))\n")
    assert not value.known and no_evidence(value)


def test_comprehension_variable_shadows_outer_name():
    inner, outer = probes(TF + "v = tf.nn.relu(x)\nys = [probe(v) for v in xs]\nprobe(v)\n")
    assert not inner.known and no_evidence(inner)
    assert outer.zero is not None and outer.zero.name == "v"


def test_comprehension_uses_outer_name_it_does_not_bind():
    value = probe(TF + "v = tf.nn.relu(x)\nys = [probe(v) for w in xs]\n")
    assert value.zero is not None


def test_comprehension_outermost_iterable_sees_enclosing_scope():
    value = probe(TF + "v = tf.nn.relu(x)\nys = [v for v in probe(v)]\n")
    assert value.zero is not None


def test_default_argument_sees_enclosing_scope():
    value = probe(TF + """
        p = tf.nn.softmax(z)
        def f(x, y=probe(p)):
            p = 1.0
            return p
        """)
    assert value.zero is not None


# -- helpers, methods, layers ----------------------------------------------------------------
def test_helper_defined_before_the_call():
    value = probe(TF + "def gate(x):\n    return tf.nn.relu(x)\nprobe(gate(x))\n")
    assert value.zero is not None


def test_helper_defined_after_the_calling_function():
    value = probe(TF + """
        def f(x):
            probe(gate(x))
        def gate(x):
            return tf.nn.relu(x)
        """)
    assert value.zero is not None


def test_helper_defined_after_a_module_level_call_is_not_followed():
    # At module level the name is not bound yet when the call runs (a NameError).
    value = probe(TF + "probe(gate(x))\ndef gate(x):\n    return tf.nn.relu(x)\n")
    assert no_evidence(value)


def test_guarded_helper_has_no_evidence():
    value = probe(TF + "def safe(p):\n    return p + 1e-7\nprobe(safe(tf.nn.softmax(z)))\n")
    assert value.zero is None  # the parameter is unknown; the result is not evidence


def test_helper_with_several_returns_joins_them():
    value = probe(TF + """
        def act(x, kind):
            if kind:
                return tf.exp(x)
            return tf.nn.relu(x)
        probe(act(x, 1))
        """)
    assert value.zero is not None


def test_nested_helper():
    value = probe(TF + """
        def outer(x):
            def inner(y):
                return tf.nn.relu(y)
            probe(inner(x))
        """)
    assert value.zero is not None


def test_lambda_and_function_alias():
    via_lambda, via_alias = probes(TF + """
        act = lambda t: tf.nn.relu(t)
        probe(act(x))
        gate = tf.nn.relu
        probe(gate(x))
        """)
    assert via_lambda.zero is not None
    assert via_alias.zero is not None


def test_method_called_through_self():
    value = probe(TF + """
        class Model:
            def activation(self, x):
                return tf.nn.relu(x)
            def call(self, x):
                probe(self.activation(x))
        """)
    assert value.zero is not None


def test_method_defined_after_its_caller():
    value = probe(TF + """
        class Model:
            def call(self, x):
                probe(self.activation(x))
            def activation(self, x):
                return tf.nn.softmax(x)
        """)
    assert value.zero is not None


def test_keras_layer_assigned_in_init_and_called_in_call():
    value = probe(TF + """
        from tensorflow.keras.layers import Dense
        class Block(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.d = Dense(4, activation='relu')
            def call(self, x):
                h = self.d(x)
                probe(h)
        """)
    assert value.zero is not None
    assert value.zero.name == "h"
    assert value.nonnegative


def test_keras_layer_without_activation_is_linear():
    value = probe(TF + """
        class Block(tf.keras.layers.Layer):
            def __init__(self):
                self.d = tf.keras.layers.Dense(4)
            def call(self, x):
                probe(self.d(x))
        """)
    assert value.zero is None
    assert value.negative is not None


def test_keras_layer_with_op_activation():
    value = probe(TF + "from keras import layers\n"
                  "probe(layers.Dense(4, activation=tf.nn.relu)(x))\n")
    assert value.zero is not None


def test_keras_layer_with_softplus_activation_is_not_negative():
    value = probe(TF + "from keras import layers\n"
                  "probe(layers.Dense(4, activation='softplus')(x))\n")
    assert value.negative is None and value.nonnegative


def test_keras_layer_with_positional_activation():
    value = probe(TF + "from keras import layers\n"
                  "d = layers.Dense(4, 'softplus')\nprobe(d(x))\n")
    assert value.negative is None and value.nonnegative


def test_keras_layer_created_in_build():
    value = probe(TF + """
        from tensorflow.keras.layers import Dense
        class Block(tf.keras.layers.Layer):
            def __init__(self):
                self.d = None
            def build(self, shape):
                self.d = Dense(4, activation='relu')
            def call(self, x):
                probe(self.d(x))
        """)
    assert value.zero is not None


# -- reductions, products, masks -------------------------------------------------------------
def test_sum_of_squared_difference_has_zero_evidence():
    value = probe(TF + "probe(tf.reduce_sum(tf.square(a - b)))\n")
    assert value.zero is not None
    assert "difference" in value.zero.what
    assert value.nonnegative


def test_elementwise_squared_difference_has_no_zero_evidence():
    value = probe(TF + "probe(tf.square(a - b))\n")
    assert value.zero is None
    assert value.nonnegative


def test_norm_of_difference_has_zero_evidence():
    value = probe(TF + "probe(tf.norm(a - b))\n")
    assert value.zero is not None


def test_count_of_mask_has_discrete_zero_evidence():
    value = probe(TF + "probe(tf.reduce_sum(tf.cast(y > 0, tf.float32)))\n")
    assert value.zero is not None
    assert value.zero.discrete
    assert "count" in value.tags


def test_mask_itself_has_discrete_zero_evidence():
    value = probe(TF + "probe(tf.cast(tf.greater(y, 0), tf.float32))\n")
    assert value.zero is not None and value.zero.discrete


# Proven counts: whole numbers, never negative, so 0 or at least 1 (NAN101's safe clamp).
@pytest.mark.parametrize("expr", [
    "tf.reduce_sum(tf.cast(y > 0, tf.float32))",
    "tf.reduce_sum(tf.cast(tf.not_equal(y, -1), tf.float32), axis=1)",
    "K.sum(K.cast(K.equal(y, 1), 'float32'))",
    "tf.reduce_sum(tf.one_hot(y, 10), axis=0)",
    "tf.reduce_sum(tf.one_hot(y, 10, on_value=1.0, off_value=0.0))",
    "tf.cast(tf.math.count_nonzero(x), tf.float32)",
    "tf.reduce_sum(tf.cast(tf.nn.relu(x), tf.int32))",
    "tf.reduce_sum(tf.cast(y > 0, tf.float32) * tf.cast(z > 0, tf.float32))",
    "tf.reduce_sum(tf.gather(tf.cast(y > 0, tf.float32), i))",
    "tf.reduce_max(tf.cast(y > 0, tf.float32), axis=1) + 2",
    "tf.maximum(tf.reduce_sum(tf.cast(y > 0, tf.float32)), 1.0)",
    "tf.reduce_sum(tf.concat([tf.cast(y > 0, tf.float32), tf.ones_like(x)], 0))",
    "tf.reduce_sum(tf.where(c, tf.cast(y > 0, tf.float32), tf.zeros_like(y)))",
    "tf.reduce_sum(tf.keras.layers.Flatten()(tf.cast(y > 0, tf.float32)))",
    "tf.reduce_sum(tf.cast(tf.cast(y > 0, tf.uint8), tf.float32))",
])
def test_proven_counts(expr):
    assert probe(TF + f"probe({expr})\n").is_count


@pytest.mark.parametrize("expr", [
    # a fraction, a mean of a mask, a masked sum of continuous values
    "tf.reduce_sum(tf.cast(y > 0, tf.float32)) / tf.cast(tf.size(y), tf.float32)",
    "tf.reduce_mean(tf.cast(y > 0, tf.float32))",
    "tf.reduce_sum(tf.exp(-d) * tf.cast(y > 0, tf.float32), axis=1)",
    "tf.reduce_sum(tf.cast(y > 0, tf.float32) * 0.5)",
    # masks by name only, or values of unknown sign
    "tf.reduce_sum(tf.cast(labels, tf.float32))",
    "tf.reduce_sum(tf.cast(labels, tf.int32))",
    "tf.reduce_sum(tf.cast(y > 0, tf.float32) - tf.eye(3))",
    # a one-hot row that is not 0/1, a rescaling dropout, a scaling cast
    "tf.reduce_sum(tf.one_hot(y, 10, 0.9, 0.01))",
    "tf.reduce_sum(tf.nn.dropout(tf.cast(y > 0, tf.float32), 0.5))",
    "tf.reduce_sum(tf.keras.layers.Dropout(0.5)(tf.cast(y > 0, tf.float32)))",
    "tf.reduce_sum(tf.image.convert_image_dtype(tf.cast(y > 0, tf.uint8), tf.float32))",
])
def test_values_not_proven_counts(expr):
    assert not probe(TF + f"probe({expr})\n").is_count


def test_call_sites_prove_a_count_only_for_a_function_nobody_else_can_call():
    """A module function (or a method) may be imported and called with anything: the
    counts its callers here pass prove nothing. A nested function's callers are all here."""
    module_function, nested = probes(TF + """
        def normalize(total, count):
            probe(count)
            return total / count

        def masked_mean(values, labels):
            return normalize(tf.reduce_sum(values), tf.reduce_sum(tf.cast(labels > 0, tf.float32)))

        def outer(values, labels):
            def inner(count):
                probe(count)
                return values / count
            return inner(tf.reduce_sum(tf.cast(labels > 0, tf.float32)))
        """)
    assert module_function.zero is not None and not module_function.is_count
    assert nested.zero is not None and nested.is_count


@pytest.mark.parametrize("call", ["scores(x)", "Scores(x)"])
def test_a_call_that_leaves_out_a_zero_default_keeps_its_evidence(call):
    """A call site that passes nothing for `floor=0.0` gives it its default: still 0 with
    evidence, for a function's calls as for a class's constructions."""
    source = textwrap.dedent(f"""
        import tensorflow as tf

        def scores(x, floor=0.0):
            return x * tf.math.log(floor)

        class Scores:
            def __init__(self, x, floor=0.0):
                self.bias = x * tf.math.log(floor)

        def build(x):
            return {call}
        """)
    line = 5 if call.islower() else 9
    found = [f for f in lint_source(source, "example.py", options_for(["NAN102"]))
             if f.line == line]
    assert found and "0 by default, wherever a caller leaves it out" in found[0].message


def test_call_sites_prove_no_count_in_a_config_entry_of_a_module_function():
    [entry] = probes(TF + """
        def normalize(total, cfg):
            probe(cfg["count"])
            return total / cfg["count"]

        def masked_mean(values, labels):
            cfg = {"count": tf.reduce_sum(tf.cast(labels > 0, tf.float32))}
            return normalize(tf.reduce_sum(values), cfg)
        """)
    assert entry.zero is not None and not entry.is_count


def test_a_mask_named_parameter_is_not_a_proven_count():
    source = TF + "def f(loss, mask, sample_weight):\n    probe(tf.reduce_sum(mask))\n" \
        "    probe(tf.reduce_sum(sample_weight))\n"
    for value in probes(source):
        assert value.zero is not None and value.zero.convention
        assert not value.is_count


def test_sum_of_relu_keeps_evidence_but_sum_of_softmax_does_not():
    relu, softmax = probes(TF + "probe(tf.reduce_mean(tf.nn.relu(x)))\n"
                           "probe(tf.reduce_sum(tf.nn.softmax(z), axis=-1))\n")
    assert relu.zero is not None
    assert softmax.zero is None  # an underflow of one element does not survive the sum


def test_matmul_has_negative_evidence():
    value = probe(TF + "probe(tf.matmul(x, w))\n")
    assert value.negative is not None
    assert value.zero is None


def test_matmul_of_squares_has_no_negative_evidence():
    value = probe(TF + "probe(tf.matmul(tf.square(x), tf.square(w)))\n")
    assert value.negative is None
    assert value.nonnegative


def test_a_nested_literal_of_numbers_has_their_range():
    matrix, mixed, named = probes(TF + "import numpy as np\n"
                                  "probe(tf.constant([[0.4, 0.2], [0.3, 0.7]]))\n"
                                  "probe(np.array([[1.0, -2.0], (3, 4)]))\n"
                                  "probe(tf.constant([[0.4, w], [0.3, 0.7]]))\n")
    assert (matrix.lo, matrix.hi) == (0.2, 0.7) and matrix.nonnegative
    assert (mixed.lo, mixed.hi) == (-2.0, 4.0)
    assert named.lo == float("-inf")  # not all numbers: unknown


def test_matmul_by_a_fixed_non_negative_matrix_keeps_the_sign_of_its_input():
    # A change of basis with non-negative entries (RGB to XYZ): non-negative in,
    # non-negative out; of data of unknown sign, no evidence of a negative.
    value = probe(TF + "probe(tf.matmul(x, tf.constant([[0.4, 0.2], [0.3, 0.7]])))\n")
    assert value.negative is None


def test_a_log_of_a_value_at_most_1_is_at_most_0():
    softmax, relu, scaled = probes(TF + "probe(tf.math.log(tf.nn.softmax(z)))\n"
                                   "probe(tf.math.log(tf.nn.relu(z)))\n"
                                   "probe(tf.math.log(tf.nn.sigmoid(z)) / 0.7)\n")
    assert softmax.hi == 0.0 and softmax.known
    assert relu.hi == float("inf")
    assert scaled.hi <= 0.0  # a temperature keeps the sign: exp of it is at most 1


def test_subscript_of_a_tensor_keeps_evidence():
    value = probe(TF + "p = tf.nn.softmax(z)\nprobe(p[:, 0])\n")
    assert value.zero is not None


def test_conditional_expression_joins_branches():
    value = probe(TF + "p = tf.nn.softmax(z) if training else 1.0\nprobe(p)\n")
    assert value.zero is not None


# -- termination -----------------------------------------------------------------------------
@pytest.mark.parametrize("source", [
    pytest.param("def g(x):\n    if x:\n        return g(x - 1)\n    return tf.nn.relu(x)\n"
                 "probe(g(x))\n", id="self-recursive"),
    pytest.param("def g(x):\n    return g(x)\nprobe(g(x))\n", id="only-recursive"),
    pytest.param("def g(x):\n    return h(x)\ndef h(x):\n    return g(x) + 1e-7\n"
                 "probe(g(x))\n", id="mutually-recursive"),
    pytest.param("class M:\n    def f(self, x):\n        return self.f(x)\n"
                 "    def call(self, x):\n        probe(self.f(x))\n", id="recursive-method"),
    pytest.param("p = p + 1\nprobe(p)\n", id="self-referential-assignment"),
])
def test_recursion_terminates(source):
    with time_limit(20):
        value = probe(TF + source)
    assert value is not None


def test_recursive_helper_still_reports_its_base_case():
    with time_limit(20):
        value = probe(TF + "def g(x):\n    if x:\n        return g(x - 1)\n"
                      "    return tf.nn.relu(x)\nprobe(g(x))\n")
    assert value.zero is not None


def test_long_assignment_chain_terminates():
    lines = ["p0 = tf.nn.relu(x)"] + [f"p{i} = p{i - 1} * 2.0" for i in range(1, 400)]
    with time_limit(20):
        value = probe(TF + "\n".join(lines) + "\nprobe(p399)\n")
    assert value is not None


# -- rendering of the evidence ---------------------------------------------------------------
def messages(source, code):
    return [f.message for f in lint_source(normalized(source), "example.py",
                                           options_for([code])) if f.code == code]


def test_message_names_variable_and_producer_line():
    found = messages("import tensorflow as tf\np = tf.nn.softmax(z)\nl = tf.math.log(p)\n",
                     "NAN102")
    assert len(found) == 1
    assert "`p` is the output of `tf.nn.softmax` (line 2)" in found[0]
    assert "underflows to exactly 0" in found[0]


def test_message_points_into_the_helper():
    found = messages(TF + "def gate(x):\n    return tf.nn.relu(x)\n"
                     "h = gate(x)\nl = tf.math.log(h)\n", "NAN102")
    assert len(found) == 1
    assert "`h` is the output of `tf.nn.relu` (line 4)" in found[0]


def test_message_quotes_the_layer():
    found = messages(TF + """
        from tensorflow.keras.layers import Dense
        class Block(tf.keras.layers.Layer):
            def __init__(self):
                self.d = Dense(4, activation='relu')
            def call(self, x):
                h = self.d(x)
                return tf.math.log(h)
        """, "NAN102")
    assert len(found) == 1
    assert "`h` is the output of `Dense(4, activation='relu')` (line 6)" in found[0]


def test_message_for_an_unnamed_value():
    found = messages("import tensorflow as tf\nl = tf.math.log(1 - tf.sigmoid(z))\n",
                     "NAN102")
    assert len(found) == 1
    assert "it is `1 - tf.sigmoid(z)` (line 2)" in found[0]


def test_message_for_a_count():
    found = messages("import tensorflow as tf\nc = tf.reduce_sum(tf.cast(y > 0, tf.float32))\n"
                     "r = t / c\n", "NAN101")
    assert len(found) == 1
    assert "`c` is the count `tf.reduce_sum(tf.cast(y > 0, tf.float32))` (line 2)" in found[0]


# -- exponentials: sums, shifts and bounded exponents (NAN103, NAN104) ------------------------
def test_sum_of_exp_plus_epsilon_is_still_a_sum_of_exp():
    value = probe(TF + "probe(tf.reduce_sum(tf.exp(z)) + 1e-8)\n")
    assert {"sum_exp", "sum_exp_unbounded"} <= value.tags
    assert isinstance(value.node, cst.Call)  # the reduce_sum, for the rules to look into


def test_hand_written_softmax_with_epsilon_in_the_denominator():
    value = probe(TF + "probe(tf.exp(z) / (tf.reduce_sum(tf.exp(z)) + 1e-8))\n")
    assert "handwritten_softmax" in value.tags


def test_max_with_its_infinities_replaced_still_shifts():
    value = probe(TF + """
        m = tf.reduce_max(z, axis=-1, keepdims=True)
        m = tf.where(tf.math.is_finite(m), m, 0.0)
        probe(tf.exp(z - m))
    """)
    assert "exp_unbounded" not in value.tags


@pytest.mark.parametrize("select, low, low_open, nonzero", [
    ("tf.where(d > 0., d, tf.ones_like(d))", 0.0, True, True),
    ("tf.where(0. < d, d, 1.)", 0.0, True, True),  # read the other way round
    ("tf.where(d <= 0., 1., d)", 0.0, True, True),  # the other branch: where `d > 0`
    ("tf.where(d >= 1e-3, d, 1e-3)", 1e-3, False, True),
    ("tf.where(tf.equal(d, 0.), tf.ones_like(d), d)", -math.inf, False, True),
    ("np.where(d != 0., d, np.inf)", -math.inf, False, True),
    ("tf.where(tf.not_equal(r, 0.), r, 1.)", 0.0, True, True),  # r >= 0, and not 0
    ("K.switch(d > 0., d, -d)", -math.inf, False, False),  # `-d` is not narrowed
    ("tf.where(y > 0., d, 1.)", -math.inf, False, False),  # tests something else
])
def test_a_select_narrows_the_branch_its_condition_compares(select, low, low_open, nonzero):
    value = probe(TF + "import numpy as np\n\n\ndef f(d, v, y):\n"
                  "    r = tf.reduce_sum(tf.nn.relu(v))\n"
                  f"    probe({select})\n")
    assert (value.lo, value.lo_open) == (low, low_open)
    assert ("nonzero" in value.tags) is nonzero
    if nonzero:
        assert value.zero is None


@pytest.mark.parametrize("expression, zero, negative", [
    # exp(0) = 1: 0 where the exponent is 0, below 0 on the side where it is negative
    ("tf.exp(tf.reduce_sum(x, 1) - tf.reduce_sum(y, 1)) - 1.0", True, True),
    ("tf.exp(tf.nn.relu(x)) - 1.0", True, False),  # never below 1
    ("1.0 - tf.exp(tf.nn.relu(x))", True, True),  # below 0 where the exponent is positive
    ("tf.exp(x) - 1.0", False, False),  # nothing shows that x reaches 0
    ("tf.exp(tf.nn.relu(x)) - 2.0", False, False),
])
def test_exp_less_one_passes_through_zero_where_its_exponent_can_be_zero(expression, zero,
                                                                         negative):
    value = probe(TF + f"probe({expression})\n")
    assert (value.zero is not None and value.zero.producer == "through_zero") is zero
    assert (value.negative is not None and value.negative.producer == "below_zero") is negative


def test_gaussian_exponent_is_bounded_above():
    value = probe(TF + "probe(-(x ** 2) / (2.0 * sigma ** 2))\n")
    assert value.hi == 0.0
    gaussian = probe(TF + "probe(tf.exp(-tf.square(x) / (2.0 * s ** 2)))\n")
    assert "exp_unbounded" not in gaussian.tags


# -- numbers: the constant evaluator -----------------------------------------------------------
def numbers(source):
    """``self.analysis.number(arg)`` for the first argument of every `probe(...)` call."""
    seen = []

    class Recorder(Rule):
        code = "NAN999"
        name = "number-recorder"
        severity = "info"

        def visit_Call(self, node):
            if isinstance(node.func, cst.Name) and node.func.value == "probe":
                seen.append(self.analysis.number(node.args[0].value))

    options = LintOptions(rules=[Recorder], check_all_files=True)
    findings = lint_source(normalized(source), "numbers.py", options)
    assert not findings, [f.message for f in findings]
    assert len(seen) == 1, f"expected one probe(...), got {len(seen)}"
    return seen[0]


@pytest.mark.parametrize("source, expected, via", [
    ("probe(0.5)\n", 0.5, ""),
    ("probe(-2e-3)\n", -0.002, ""),
    ("C = 4\nprobe(2.0 / (C * 10))\n", 0.05, ""),
    ("LR = 0.1\nBASE = LR * 2\ndef f():\n    probe(BASE)\n", 0.2, ""),
    ("def f(lr=0.3):\n    probe(lr)\n", 0.3, "the default of the parameter `lr`"),
    ("class M:\n    def f(self, lr=RATE):\n        probe(lr)\nRATE = 0.7\n", 0.7,
     "the default of the parameter `lr`"),
    ("import argparse\np = argparse.ArgumentParser()\n"
     "p.add_argument('-l', '--learning-rate', type=float, default=0.25)\n"
     "args = p.parse_args()\nprobe(args.learning_rate)\n", 0.25, "the default of `--learning-rate`"),
    ("import argparse\np = argparse.ArgumentParser()\n"
     "p.add_argument('--lr', dest='rate', default=1.5)\nprobe(p.parse_args().rate)\n", 1.5,
     "the default of `--lr`"),
    ("from absl import flags\nflags.DEFINE_float('lr', 0.01, 'learning rate')\n"
     "FLAGS = flags.FLAGS\nprobe(FLAGS.lr)\n", 0.01, "the default of the flag `lr`"),
    ("import tensorflow as tf\ntf.app.flags.DEFINE_float('lr', default=0.02, help='')\n"
     "probe(tf.app.flags.FLAGS.lr)\n", 0.02, "the default of the flag `lr`"),
    ("config = {'lr': 0.4, 'steps': 10}\nprobe(config['lr'])\n", 0.4, ""),
    ("config = dict(lr=0.6)\nprobe(config['lr'])\n", 0.6, ""),
    ("import tensorflow as tf\n"
     "probe(tf.keras.optimizers.schedules.ExponentialDecay(0.5, 1000, 0.96))\n", 0.5,
     "the initial value of the schedule `ExponentialDecay`"),
    ("import tensorflow as tf\nLR = 0.5\n"
     "probe(tf.compat.v1.train.exponential_decay(LR, step, 100, 0.9))\n", 0.5,
     "the initial value of the schedule `exponential_decay`"),
    ("import tensorflow as tf\nprobe(tf.constant(float(3)))\n", 3.0, ""),
])
def test_number_follows_constants(source, expected, via):
    number = numbers(source)
    assert number is not None
    assert number.value == pytest.approx(expected)
    assert number.via == via


@pytest.mark.parametrize("source", [
    "def f(lr):\n    probe(lr)\n",
    "probe(x.lr)\n",
    "import argparse\np = argparse.ArgumentParser()\np.add_argument('--lr', type=float)\n"
    "probe(p.parse_args().lr)\n",
    "flags.DEFINE_float('lr', 0.1, '')\nprobe(FLAGS.lr)\n",  # `flags` is not imported
    "config = {'lr': 0.4}\nprobe(config['steps'])\n",
    "probe(1 / 0)\n",
    "import tensorflow as tf\nprobe(tf.nn.relu(0.5))\n",
    "probe(10 ** 400.0)\n",
])
def test_number_is_unknown_without_a_constant(source):
    assert numbers(source) is None


# -- following values backwards: bindings, places, results, calls of an op ---------------------
def asked(source, question):
    """``question(analysis, node)`` at the first `probe(...)` call of ``source``."""
    seen = []

    class Recorder(Rule):
        code = "NAN999"
        name = "question-recorder"
        severity = "info"

        def visit_Call(self, node):
            if isinstance(node.func, cst.Name) and node.func.value == "probe":
                seen.append(question(self.analysis, node.args[0].value))

    options = LintOptions(rules=[Recorder], check_all_files=True)
    assert not lint_source(normalized(source), "asked.py", options)
    assert len(seen) == 1
    return seen[0]


@pytest.mark.parametrize("source, kind, position", [
    ("(x, y), (xt, yt) = load()\nprobe(yt)\n", "unpack", (1, 1)),
    ("a, b = load()\nprobe(a)\n", "unpack", (0,)),
    ("a, b = 1, load()\nprobe(b)\n", "assign", ()),
    ("for a, b in pairs:\n    probe(a)\n", "element", (0,)),
])
def test_binding_of_an_unpacked_name(source, kind, position):
    def question(analysis, expr):
        binding, _ = analysis.binding(expr.value)
        return binding.kind, binding.position
    assert asked(source, question) == (kind, position)


def test_binding_resolves_at_the_place_of_an_earlier_binding():
    source = "x = load()\nx = x.reshape(-1)\nprobe(x)\n"

    def question(analysis, expr):
        binding, place = analysis.binding(expr.value)
        earlier, _ = analysis.binding("x", place)
        return analysis.module.code_for_node(binding.value), \
            analysis.module.code_for_node(earlier.value)
    assert asked(source, question) == ("x.reshape(-1)", "load()")


def test_results_of_functions_and_lambdas():
    source = ("def f(p):\n    if p:\n        return p / 2\n    return None\n"
              "g = lambda q: q + 1\nprobe((f, g, lambda r: r))\n")

    def question(analysis, expr):
        code = analysis.module.code_for_node
        return [[code(result) for result, _ in analysis.results(e.value, analysis.here())]
                for e in expr.elements]
    assert asked(source, question) == [["p / 2", "None"], ["q + 1"], ["r"]]


def test_calls_of_an_op_anywhere_in_the_module():
    source = TF + ("def build():\n    return tf.keras.layers.BatchNormalization()\n"
                   "probe(tf.keras.layers.Rescaling(1 / 255))\n")
    count = asked(source, lambda analysis, expr: len(analysis.calls_of("normalization_layer")))
    assert count == 2


def test_lookup_finds_the_latest_binding_before_each_statement():
    """Binary search over the binding indices answers what a scan from the start would."""
    import random

    from nanlint.analysis.scopes import build_scope

    rng = random.Random(7)
    lines = [f"{rng.choice('abc')} = {i}" if rng.random() < 0.7 else f"print({i})"
             for i in range(400)]
    module = cst.parse_module("\n".join(lines) + "\n")
    scope = build_scope(module, None)
    for name in "abcd":
        bindings = scope.bindings.get(name, [])
        for index in range(-1, 402):
            earlier = [b for b in bindings if b.index < index]
            assert scope.lookup(name, index) is (earlier[-1] if earlier else None)


# -- the cheap questions: may_hold, may_be_huge ---------------------------------------------
def at_probe(source, question, settings=None):
    """``question(analysis, value of the argument)`` at the one `probe(...)` of ``source``."""
    [answer] = probes(source, settings, question)
    return answer


def float16_question(analysis, value):
    return value.dtype, analysis.may_hold("float16")


@pytest.mark.parametrize("source, dtype", [
    (TF + "h = tf.cast(x, tf.float16)\nprobe(h)\n", "float16"),
    (TF + "h = tf.cast(x, tf.half)\nprobe(h)\n", "half"),
    (TF + "h = tf.zeros([3], dtype='float16')\nprobe(h)\n", "float16"),
])
def test_a_float16_value_is_spelled_in_its_module(source, dtype):
    # Rules skip the float16 questions in a module that cannot hold float16 (a text search):
    # sound only while every float16 dtype comes from such a spelling.
    assert at_probe(source, float16_question) == (dtype, True)


def test_a_module_that_never_spells_float16_holds_none():
    assert at_probe(TF + "h = tf.cast(x, tf.float32)\nprobe(h)\n", float16_question) == (
        "float32", False)


def huge_question(analysis, value):
    return value.huge is not None, analysis.may_be_huge()


@pytest.mark.parametrize("name, patterns", [
    ("rel_codes", None),
    ("box_deltas", None),  # `*_deltas`
    ("tw_raw", frozenset({"t[wh]_*"})),  # a character class: its literal part is `_`
])
def test_huge_evidence_comes_with_its_name_in_the_module(name, patterns):
    settings = Settings(delta_parameters=patterns) if patterns else None
    source = TF + f"def decode({name}):\n    probe({name})\n"
    assert at_probe(source, huge_question, settings) == (True, True)


def test_a_module_without_a_delta_name_holds_nothing_huge():
    assert at_probe(TF + "def decode(codes):\n    probe(codes)\n", huge_question) == (
        False, False)


@pytest.mark.parametrize("call, axis", [
    ("tf.reduce_sum(x, axis=1)", "1"),
    ("tf.reduce_sum(x, 1)", "1"),
    ("tf.compat.v1.reduce_sum(x, reduction_indices=[1])", "[1]"),
    ("tf.compat.v1.nn.softmax(z, dim=-1)", "-1"),
    ("keras.ops.sum(x, keepdims=True, axis=-1)", "-1"),
    ("np.sum(x, axis=None)", "None"),
    ("tf.reduce_sum(x)", None),
    ("tf.reduce_sum(x, keepdims=True)", None),
    ("tf.reduce_sum(*xs)", None),
])
def test_axis_argument(call, axis):
    """One question for every spelling of a reduction's or softmax's axis."""
    found = Analysis.axis(cst.parse_expression(call))
    assert (cst.Module([]).code_for_node(found) if found is not None else None) == axis


# -- call sites and op calls skip the module's calls where the text shows there are none --
def sites_question(analysis, value):
    return value.zero is not None, analysis.sites._calls_by_name is not None


@pytest.mark.parametrize("calls, evidence", [
    ("", False),  # spelled once, where it is defined: the module's calls are not indexed
    ("scale(tf.nn.relu(x))\n", True),
    ("out = tf.map_fn(scale, tf.nn.relu(x))\n", True),  # mapped over a tensor
])
def test_a_parameter_joins_its_call_sites_only_where_the_function_is_spelled_again(
        calls, evidence):
    source = TF + "def scale(n):\n    probe(n)\n\n" + calls
    assert at_probe(source, sites_question) == (evidence, bool(calls))


def lambda_layer_question(analysis, value):
    return len(analysis.calls_of("lambda_layer")), analysis.sites._op_calls is not None


def test_an_op_called_under_another_name_is_still_found():
    source = TF + "from keras.layers import Lambda as Wrap\nlayer = Wrap(lambda v: v)\n" \
        "probe(layer)\n"
    assert at_probe(source, lambda_layer_question) == (1, True)


def test_a_module_that_never_spells_an_op_does_not_resolve_its_calls_to_find_it():
    source = TF + "layer = tf.keras.layers.Dense(3)\nprobe(layer)\n"
    assert at_probe(source, lambda_layer_question) == (0, False)


def test_a_module_that_spells_no_assertion_is_not_indexed_for_one():
    """A name with evidence asks whether an assertion guards it; the module index that
    answers is built only where the module spells an assertion's name."""
    def indexed(analysis, value):
        return value.zero is not None, analysis.resolver.module_indexed()

    plain = TF + """
    def f(z):
        p = tf.nn.softmax(z)
        return probe(p)
    """
    assert probes(plain, question=indexed) == [(True, False)]
    asserted = TF + """
    def f(z):
        p = tf.nn.softmax(z)
        tf.debugging.assert_positive(p)
        return probe(p)
    """
    assert probes(asserted, question=indexed) == [(False, True)]


def test_a_lattice_record_is_replaced_field_by_field():
    """``lattice.replace``: a copy with the changed fields, the original untouched; a field
    the record does not have is an error, as with ``dataclasses.replace``."""
    from nanlint.analysis.lattice import Value, replace

    base = Value(lo=0.0, tags=frozenset({"softmax"}))
    copy = replace(base, hi=1.0)
    assert (copy.lo, copy.hi, copy.tags) == (0.0, 1.0, frozenset({"softmax"}))
    assert base.hi == math.inf and copy == Value(lo=0.0, hi=1.0, tags=frozenset({"softmax"}))
    with pytest.raises(TypeError):
        replace(base, high=1.0)


def test_a_value_asked_from_another_statement_is_what_it_is_where_it_is():
    """A rule at `d = reduce_std(x)` asks about `y / d` further down (is the std a
    denominator?): `d` is unbound where the rule stands, and bound where it is read. Asked
    from there, it must not lose its evidence for the rules that read it in place."""
    from nanlint.config import Config
    from nanlint.engine import lint_source

    source = TF + "def k(x, y):\n    d = tf.math.reduce_std(x)\n    return y / d\n"
    found = lint_source(source, "k.py", Config(preview=True).options_for(None))
    assert [(f.code, f.line) for f in found] == [("NAN101", source.count("\n"))]
