"""Where a value comes from, across functions, methods and branches.

Same probe convention as test_values: the first argument of ``probe(...)`` is recorded at
its place in the real traversal.
"""

import textwrap

import pytest

from test_values import TF, no_evidence, probe, probes, time_limit


def keras3(body):
    return "import keras\nfrom keras import layers, ops\n" + textwrap.dedent(body)


# -- function results with the caller's arguments --------------------------------------------
def test_higher_order_activation_argument_is_applied():
    value = probe(TF + """
        def make_layer(h, act=tf.identity):
            return act(tf.nn.softmax(h))
        probe(make_layer(x, act=tf.nn.relu))
        """)
    assert value.zero is not None and value.zero.producer == "relu"


def test_result_is_computed_per_call_site():
    first, second = probes(TF + """
        def shifted(v, floor):
            return tf.maximum(v, floor)
        probe(shifted(tf.nn.relu(x), 1e-6))
        probe(shifted(tf.nn.relu(x), 0.0))
        """)
    assert first.positive and first.zero is None
    assert second.zero is not None


def test_positional_keyword_and_default_arguments_bind():
    value, default = probes(TF + """
        def scale(x, eps=1e-3, act=tf.exp):
            return act(x) + eps
        probe(scale(z, 0.0, tf.nn.relu))
        probe(scale(z))
        """)
    assert value.zero is not None
    assert default.positive and no_evidence(default)


def test_function_passed_as_argument_and_lambda():
    relu, sigmoid = probes(TF + """
        def apply(fn, x):
            return fn(x)
        probe(apply(tf.nn.relu, x))
        probe(apply(lambda v: tf.nn.sigmoid(v), x))
        """)
    assert relu.zero is not None and relu.zero.producer == "relu"
    assert sigmoid.zero is not None and "probability" in sigmoid.tags


def test_activation_string_passed_to_a_layer_helper():
    relu, softplus = probes(keras3("""
        def block(x, activation=None):
            return layers.Dense(8, activation=activation)(x)
        probe(block(x, activation="relu"))
        probe(block(x, activation="softplus"))
        """))
    assert relu.zero is not None
    assert softplus.nonnegative and no_evidence(softplus)


def test_method_called_through_self_gets_its_arguments():
    value = probe(TF + """
        class M:
            def act(self, x, fn):
                return fn(x)
            def call(self, x):
                probe(self.act(x, tf.nn.relu))
        """)
    assert value.zero is not None


def test_method_called_through_its_class_passes_self():
    # `Ops.act(obj, x, fn)` binds `obj` to `self`: `fn` is the relu, not `x`
    through_self, through_class = probes(TF + """
        class Ops:
            def act(self, x, fn):
                return fn(x)
            def call(self, x):
                probe(self.act(x, tf.nn.relu))
        probe(Ops.act(None, x, tf.nn.relu))
        """)
    assert through_class.zero is not None and through_class.zero.producer == "relu"
    assert through_self.zero is not None


def test_class_method_called_through_its_class_does_not_pass_cls():
    value = probe(TF + """
        class Ops:
            @classmethod
            def ratio(cls, a, b):
                probe(b)
        r = Ops.ratio(x, tf.nn.relu(x))
        """)
    assert value.zero is not None and value.zero.producer == "relu"


def test_parameter_of_a_method_called_through_its_class():
    value = probe(TF + """
        class Ops:
            def ratio(self, a, b):
                probe(b)
        r = Ops.ratio(None, x, tf.nn.relu(x))
        """)
    assert value.zero is not None and value.zero.producer == "relu"


# -- parameters from their call sites --------------------------------------------------------
def test_parameter_is_the_join_of_its_call_sites():
    value = probe(TF + """
        def _log_rate(rate):
            probe(rate)
        a = _log_rate(tf.exp(x))
        b = _log_rate(tf.nn.relu(x))
        """)
    assert value.zero is not None and value.zero.name == "rate"
    assert value.zero.producer == "relu"
    assert value.nonnegative


def test_parameter_of_a_function_called_only_with_positive_values():
    value = probe(TF + """
        def _log_rate(rate):
            probe(rate)
        a = _log_rate(tf.exp(x))
        b = _log_rate(tf.nn.softplus(x) + 1e-6)
        """)
    assert value.positive and no_evidence(value)


def test_parameter_of_a_function_nobody_calls_is_unknown():
    value = probe(TF + """
        def log_of_anything(value):
            probe(value)
        """)
    assert not value.known and no_evidence(value)


def test_default_joins_when_a_call_site_omits_the_argument():
    value = probe(TF + """
        def _f(x, scale=tf.nn.relu(w)):
            probe(scale)
        _f(1.0, tf.exp(z))
        _f(2.0)
        """)
    assert value.zero is not None


def test_recursive_parameters_terminate():
    with time_limit(10):
        value = probe(TF + """
            def _a(x):
                return _b(x * 2.0)
            def _b(y):
                probe(y)
                return _a(y - 1.0)
            _a(tf.nn.relu(z))
            """)
    assert value is not None


# -- attributes across methods ---------------------------------------------------------------
def test_attribute_set_in_any_method_is_seen_by_all():
    value = probe(TF + """
        class Model:
            def build(self):
                self.output = tf.nn.sigmoid(h)
            def loss(self):
                probe(self.output)
        """)
    assert value.zero is not None and "sigmoid" in value.tags


def test_several_attribute_assignments_join():
    value = probe(TF + """
        class Scale:
            def __init__(self, raw):
                self.scale = tf.exp(raw)
            def reset(self, raw):
                self.scale = tf.nn.relu(raw)
            def log_scale(self):
                probe(self.scale)
        """)
    assert value.zero is not None and value.zero.producer == "relu"


# -- branches join ---------------------------------------------------------------------------
def test_if_else_joins_both_arms():
    value = probe(TF + """
        if c:
            p = tf.nn.softmax(z)
        else:
            p = tf.exp(z)
        probe(p)
        """)
    assert value.zero is not None and value.zero.producer == "softmax"
    assert value.nonnegative


def test_if_elif_else_joins_every_arm():
    value = probe(TF + """
        if a:
            p = tf.exp(z)
        elif b:
            p = tf.nn.relu(z)
        else:
            p = tf.ones_like(z)
        probe(p)
        """)
    assert value.zero is not None and value.zero.producer == "relu"


def test_if_without_else_keeps_the_earlier_assignment():
    value = probe(TF + """
        r = tf.nn.relu(z)
        if c:
            r = r + 1.0
        probe(r)
        """)
    assert value.zero is not None


def test_guarded_in_both_arms_has_no_evidence():
    value = probe(TF + """
        r = tf.nn.relu(z)
        if c:
            r = r + 1.0
        else:
            r = r + 2.0
        probe(r)
        """)
    assert value.positive and no_evidence(value)


def test_an_arm_that_returns_does_not_reach_past_the_if():
    value = probe(TF + """
        def f(z, c):
            if c:
                h = tf.nn.relu(z)
                return h
            else:
                h = tf.exp(z)
            probe(h)
        """)
    assert value.positive and no_evidence(value)


def test_use_inside_an_arm_sees_that_arm_only():
    value = probe(TF + """
        if c:
            h = tf.nn.relu(z)
        else:
            h = tf.exp(z)
            probe(h)
        """)
    assert value.positive and no_evidence(value)


def test_a_later_assignment_after_the_if_wins():
    value = probe(TF + """
        if c:
            h = tf.nn.relu(z)
        h = tf.exp(z)
        probe(h)
        """)
    assert value.positive and no_evidence(value)


def test_nested_branches_join():
    value = probe(TF + """
        if a:
            if b:
                h = tf.exp(z)
            else:
                h = tf.nn.relu(z)
        else:
            h = tf.ones_like(z)
        probe(h)
        """)
    assert value.zero is not None and value.zero.producer == "relu"


def test_try_except_joins():
    value = probe(TF + """
        try:
            p = tf.nn.relu(z)
        except ValueError:
            p = tf.ones_like(z)
        probe(p)
        """)
    assert value.zero is not None


def test_module_name_seen_from_a_function_joins_its_branches():
    value = probe(TF + """
        if c:
            act_out = tf.exp(z)
        else:
            act_out = tf.nn.relu(z)
        def f():
            probe(act_out)
        """)
    assert value.zero is not None


@pytest.mark.parametrize("expr", [
    "tf.where(c, tf.nn.relu(x), tf.exp(x))",
    "tf.where(c, tf.exp(x), tf.nn.relu(x))",
    "tf.cond(c, lambda: tf.nn.relu(x), lambda: tf.exp(x))",
    "tf.cond(c, true_fn=lambda: tf.exp(x), false_fn=lambda: tf.nn.relu(x))",
    "K.switch(c, tf.exp(x), tf.nn.relu(x))",
    "tf.compat.v1.cond(c, relu_branch, exp_branch)",
])
def test_select_ops_join_their_branches(expr):
    value = probe(TF + f"""
        def relu_branch():
            return tf.nn.relu(x)
        def exp_branch():
            return tf.exp(x)
        probe({expr})
        """)
    assert value.zero is not None and value.zero.producer == "relu"
    assert value.nonnegative


def test_cond_of_positive_branches_is_positive():
    value = probe(TF + "probe(tf.cond(c, lambda: tf.exp(x), lambda: tf.nn.softplus(x) + 1e-6))\n")
    assert value.positive and no_evidence(value)


# -- structure ops keep evidence -------------------------------------------------------------
@pytest.mark.parametrize("expr", [
    "tf.gather(h, ids)", "tf.gather(params=h, indices=ids)", "tf.gather_nd(h, ids)",
    "tf.boolean_mask(h, m)", "tf.reshape(h, [-1])", "tf.transpose(h)",
    "tf.concat([x, h], 0)", "tf.concat(values=[h, x], axis=0)", "tf.stack([h, h])",
    "tf.tile(h, [2])", "tf.squeeze(h)", "tf.expand_dims(h, 0)", "tf.identity(h)",
    "h[:, 1:]", "tf.cast(h, tf.float64)", "K.concatenate([h, x])",
    "tf.reverse(h, [0])", "tf.slice(h, [0], [1])",
])
def test_structure_ops_keep_evidence(expr):
    value = probe(TF + f"h = tf.nn.relu(z)\nprobe({expr})\n")
    assert value.zero is not None and value.zero.producer == "relu"


@pytest.mark.parametrize("expr", [
    "ops.take(h, ids)", "ops.take_along_axis(h, ids, axis=1)", "ops.concatenate([h, x])",
    "ops.stack([h])", "ops.cast(h, 'float32')",
])
def test_keras3_structure_ops_keep_evidence(expr):
    value = probe(keras3(f"h = ops.relu(z)\nprobe({expr})\n"))
    assert value.zero is not None


def test_concat_of_positive_values_is_positive():
    value = probe(TF + "probe(tf.concat([tf.exp(a), tf.ones_like(b)], 0))\n")
    assert value.positive and no_evidence(value)


def test_gathered_softmax_is_still_a_probability():
    value = probe(TF + "p = tf.nn.softmax(z)\nprobe(tf.gather(p, ids, axis=1))\n")
    assert value.zero is not None and "probability" in value.tags


# -- signs stay sound ------------------------------------------------------------------------
@pytest.mark.parametrize("expr", [
    "tf.square(a) * tf.exp(b) + tf.abs(c) + tf.nn.sigmoid(a) + tf.sqrt(tf.abs(b))",
    "tf.nn.relu(a) * tf.nn.softmax(b)",
    "tf.matmul(tf.abs(a), tf.signal.linear_to_mel_weight_matrix(40, 129, 16000))",
    "tf.matmul(tf.nn.softmax(a), tf.one_hot(ids, 10), transpose_b=True)",
    "tf.einsum('ij,jk->ik', tf.square(a), tf.nn.softmax(b))",
    "tf.tensordot(tf.exp(a), tf.ones([4, 4]), axes=1)",
    "tf.random.uniform(shape, 0.0, 1.0)",
    "tf.random.uniform(shape)",
    "tf.ones([3]) * tf.exp(a)",
])
def test_non_negative_stays_non_negative(expr):
    value = probe(TF + f"probe({expr})\n")
    assert value.nonnegative
    assert value.negative is None


@pytest.mark.parametrize("expr", [
    "tf.matmul(tf.tanh(a), w)",
    "tf.einsum('ij,jk->ik', tf.tanh(a), b)",
])
def test_a_sign_source_still_gives_negative_evidence(expr):
    value = probe(TF + f"probe({expr})\n")
    assert value.negative is not None


def test_mesh_tensorflows_einsum_reads_its_operands_from_a_list():
    value = probe(TF + "import mesh_tensorflow as mtf\n"
                  "probe(mtf.einsum([tf.nn.softmax(a), tf.exp(b)], output_shape=dims))\n")
    assert value.nonnegative
    assert value.zero is not None  # the softmax's underflow


def test_einsum_of_operands_it_cannot_see_has_no_sign_evidence():
    value = probe(TF + "probe(tf.einsum('ij,jk->ik', *map(tf.exp, operands)))\n")
    assert value.negative is None

def test_uniform_with_a_negative_minimum_is_not_non_negative():
    value = probe(TF + "probe(tf.random.uniform(shape, -1.0, 1.0))\n")
    assert not value.nonnegative


@pytest.mark.parametrize("guard", [
    "count + tf.cast(tf.equal(count, 0.0), tf.float32) * 1e-7",
    "count + tf.cast(count <= 0.0, tf.float32)",
    "count + 1e-7 * tf.cast(tf.math.less_equal(count, 0), tf.float32)",
    "tf.where(count > 0.0, count, 1.0)",
    "tf.where(tf.greater(count, 0), count, tf.ones_like(count))",
])
def test_a_mask_of_the_zeros_guards(guard):
    value = probe(TF + "count = tf.reduce_sum(tf.cast(y > 0, tf.float32))\n"
                  f"probe({guard})\n")
    assert value.zero is None


def test_augmented_mask_guard():
    value = probe(TF + """
        den = K.sum(K.square(a - b))
        den += K.cast(K.equal(den, 0), K.floatx())
        probe(den)
        """)
    assert value.zero is None


def test_a_mask_of_another_value_is_no_guard():
    value = probe(TF + """
        count = tf.reduce_sum(tf.cast(y > 0, tf.float32))
        norm = tf.norm(a - b)
        probe(norm + tf.cast(tf.equal(count, 0.0), tf.float32) * 1e-7)
        """)
    assert value.zero is not None


def test_message_names_the_op_passed_as_an_argument(lint):
    source = TF + textwrap.dedent("""\
        def make_layer(h, act=tf.identity):
            return act(tf.nn.softmax(h))
        out = make_layer(x, act=tf.nn.relu)
        y = tf.math.log(out)
        """)
    [finding] = lint(source, ["NAN102"])
    assert finding.line == 6
    assert "`out` is the output of `tf.nn.relu` passed as `act` (line 4)" in finding.message


def test_activation_stored_in_an_attribute():
    value = probe(TF + """
        class Block(tf.keras.layers.Layer):
            def __init__(self):
                self.act = tf.nn.relu
            def call(self, x):
                probe(self.act(x))
        """)
    assert value.zero is not None and value.zero.producer == "relu"


def test_attribute_assigned_different_functions_is_unknown():
    value = probe(TF + """
        class Block(tf.keras.layers.Layer):
            def __init__(self):
                self.act = tf.nn.relu
            def reset(self):
                self.act = tf.exp
            def call(self, x):
                probe(self.act(x))
        """)
    assert no_evidence(value)


def test_a_class_name_defined_twice_relates_both_classes():
    # A script that defines `class Model` twice (a guide's first and second version): the
    # attributes of either are read, and a subclass names whichever `Model` it means.
    first, second = probes(TF + """
        class Model:
            def __init__(self, w):
                self.scale = tf.nn.relu(w)
            def call(self, x):
                probe(self.scale)
        class Model:
            def call(self, x):
                probe(self.scale)
        class Child(Model):
            def __init__(self, w):
                self.scale = tf.exp(w)
        """)
    assert first.zero is not None and first.zero.producer == "relu"
    assert second.zero is None


def test_attributes_that_refer_to_each_other_terminate():
    # `self.endog = self.endog` (a subclass re-exposing a property), `self.a = self.b` and
    # `self.b = self.a`: following what a call of the attribute calls leads back to itself.
    same, crossed = probes(TF + """
        class Model:
            def __init__(self, y):
                self.endog = self.endog
                self.a = self.b
                self.b = self.a
            def fit(self, x):
                probe(self.endog(x))
                probe(self.a(x))
        """)
    assert no_evidence(same) and no_evidence(crossed)


# -- huge evidence: a regression-delta parameter (a naming convention) ---------------------
def test_delta_parameter_is_huge_by_convention_through_pieces_and_scaling():
    tw, ty, minimum, clipped = probes(TF + """
        def decode(rel_codes, scale):
            ty, tx, th, tw = tf.unstack(tf.transpose(rel_codes))
            if scale:
                tw /= scale[3]
            ty = ty * 0.1 + 5.0
            probe(tw)
            probe(-ty)
            probe(tf.minimum(tw, 4.0))
            probe(tf.clip_by_value(tf.split(rel_codes, 4)[0], -4.0, 4.0))
        """)
    for value in (tw, ty):
        assert value.huge is not None and value.huge.convention
        assert value.huge.confidence == "medium" and value.huge.name == "rel_codes"
    assert minimum.huge is None and clipped.huge is None


def test_huge_evidence_needs_the_name_and_no_caller():
    other, called, bounded = probes(TF + """
        def decode(codes, deltas, box_delta):
            probe(codes)
            probe(deltas)
            probe(tf.nn.sigmoid(box_delta) - tf.reduce_max(box_delta))
        decode(x, tf.zeros([4]), y)
        """)
    assert other.huge is None and called.huge is None and bounded.huge is None


def test_pieces_of_unstack_and_split_keep_zero_evidence():
    pieces = probes(TF + """
        import keras
        p = tf.nn.softmax(z)
        a, b = tf.split(p, 2, axis=-1)
        c, d = keras.ops.unstack(p, axis=0)
        (e, f), g = tf.unstack(p), 1.0
        probe(a)
        probe(d)
        probe(e)
        """)
    for piece in pieces:  # `(e, f), g = unstack(p), 1.0` unpacks `e, f = unstack(p)`
        assert piece.zero is not None and piece.zero.producer == "softmax"


def test_evidence_from_a_caller_names_the_call_it_came_through(lint):
    source = TF + textwrap.dedent("""\
        def block(feature):
            return tf.math.log(feature)
        def model(x):
            h = tf.nn.relu(x)
            return block(h)
        """)
    [finding] = lint(source, ["NAN102"])
    assert finding.line == 4
    assert ("`feature` in `block()` receives the output of `tf.nn.relu` (line 6) through the "
            "call on line 7, which is exactly 0") in finding.message
    assert "`h`" not in finding.message  # the caller's name means nothing inside block()


def test_the_step_between_cells_names_the_cells():
    from nanlint.engine import lint_notebook
    from test_notebooks import cells
    from conftest import options_for

    data = cells("import tensorflow as tf\ndef block(feature):\n    return tf.math.log(feature)\n",
                 "h = tf.nn.relu(x)\ny = block(h)\n")
    [finding] = lint_notebook(data, "nb.ipynb", options_for(["NAN102"]))
    assert ("`feature` in `block()` receives the output of `tf.nn.relu` (cell 3, line 1) "
            "through the call in cell 3, line 2") in finding.message
