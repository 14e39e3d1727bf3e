"""The functions nanlint treats as safe (../shared/nan-causes.md) really are: at their
singular point, under the TensorFlow the test extra installs, value and gradient are finite.

If one of these fails after a TensorFlow upgrade, the rule that trusts that function must
be narrowed (see the optable's guarded ops), not this test skipped.
"""

import numpy as np
import pytest

import tensorflow as tf  # the test extra installs tensorflow-cpu

keras = tf.keras

ZERO2 = [[0.0, 0.0]]
CONFIDENT = [[1000.0, 0.0]]


def _cross_entropy(x):
    return tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0]], logits=x)


GUARDED = [
    # (name, function of the variable, the singular point)
    ("tf.nn.l2_normalize", lambda x: tf.nn.l2_normalize(x, axis=-1), ZERO2),
    ("tf.keras.losses.cosine_similarity of relu",
     lambda x: keras.losses.cosine_similarity(tf.nn.relu(x), tf.nn.relu(x)), ZERO2),
    ("tf.math.divide_no_nan", lambda x: tf.math.divide_no_nan(1.0, x), [0.0]),
    ("tf.math.xlogy", lambda x: tf.math.xlogy(x, x), [0.0]),
    ("tf.math.xdivy", lambda x: tf.math.xdivy(x, x), [0.0]),
    ("tf.nn.softmax_cross_entropy_with_logits", _cross_entropy, CONFIDENT),
    ("tf.nn.sparse_softmax_cross_entropy_with_logits",
     lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1], logits=x),
     CONFIDENT),
    ("tf.nn.sigmoid_cross_entropy_with_logits",
     lambda x: tf.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0], logits=x),
     [-1000.0, 1000.0]),
    ("tf.nn.log_softmax", lambda x: tf.nn.log_softmax(x), CONFIDENT),
    ("tf.math.reduce_logsumexp", lambda x: tf.math.reduce_logsumexp(x, axis=-1), CONFIDENT),
    ("tf.math.log_sigmoid", lambda x: tf.math.log_sigmoid(x), [-1000.0, 1000.0]),
    ("tf.math.softplus", lambda x: tf.math.softplus(x), [-1000.0, 1000.0]),
    ("keras categorical_crossentropy from_logits",
     lambda x: keras.losses.categorical_crossentropy([[0.0, 1.0]], x, from_logits=True),
     CONFIDENT),
    ("keras binary_crossentropy from_logits",
     lambda x: keras.losses.binary_crossentropy([[1.0, 0.0]], x, from_logits=True),
     [[-1000.0, 1000.0]]),
    ("keras binary_crossentropy of probabilities 0 and 1 (clipped by epsilon)",
     lambda x: keras.losses.binary_crossentropy([[1.0, 0.0]], x), [[0.0, 1.0]]),
    ("keras categorical_crossentropy of a probability 0 (clipped by epsilon)",
     lambda x: keras.losses.categorical_crossentropy([[0.0, 1.0]], x), [[1.0, 0.0]]),
    ("tf.where guarding tf.sqrt (TF's gradient guards it)",
     lambda x: tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x)), [0.0, 1.0]),
    ("tf.where guarding tf.math.rsqrt",
     lambda x: tf.where(x > 0, tf.math.rsqrt(x), tf.zeros_like(x)), [0.0, 1.0]),
    ("the double where around log",
     lambda x: tf.where(x > 0, tf.math.log(tf.where(x > 0, x, tf.ones_like(x))), 0.0),
     [0.0, 1.0]),
    ("tf.sqrt(x + 1e-7)", lambda x: tf.sqrt(x + 1e-7), [0.0]),
    ("tf.exp(0.5 * v) for sqrt(exp(v))", lambda v: tf.exp(0.5 * v), [-200.0]),
    ("(a + eps) / (b + eps)", lambda x: (x + 1e-5) / (x + 1e-5), [0.0]),
]


def _value_and_gradient(function, point):
    x = tf.Variable(point, dtype=tf.float32)
    with tf.GradientTape() as tape:
        value = tf.reduce_sum(function(x))
    gradient = tape.gradient(value, x)
    assert gradient is not None, "no gradient flows"
    return value.numpy(), gradient.numpy()


@pytest.mark.parametrize("name, function, point", GUARDED, ids=[g[0] for g in GUARDED])
def test_guarded_function_is_finite_at_its_singular_point(name, function, point):
    value, gradient = _value_and_gradient(function, point)
    assert np.isfinite(value) and np.all(np.isfinite(gradient)), (name, value, gradient)


# The unguarded forms next to them really fail: the table above is not vacuous.
UNGUARDED = [
    ("hand-written softmax cross-entropy",
     lambda x: -tf.reduce_sum([[0.0, 1.0]] * tf.math.log(tf.nn.softmax(x))), CONFIDENT),  # nanlint: ignore[NAN103]
    ("tf.where around log", lambda x: tf.where(x > 0, tf.math.log(x), 0.0), [0.0, 1.0]),
    ("tf.norm of zero", lambda x: tf.norm(x), ZERO2),
    ("divide_no_nan by a tiny value", lambda x: tf.math.divide_no_nan(1.0, x), [1e-20]),
]


@pytest.mark.parametrize("name, function, point", UNGUARDED, ids=[u[0] for u in UNGUARDED])
def test_unguarded_form_is_not_finite(name, function, point):
    value, gradient = _value_and_gradient(function, point)
    assert not (np.isfinite(value) and np.all(np.isfinite(gradient))), (name, value, gradient)
