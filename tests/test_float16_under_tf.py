"""The facts behind `nanlint suspects`' fill values and float16 casts hold under TensorFlow.

Each `why` of a fill (nanlint/suspects.py, ``_fill_evidence``) and of a float16 cast states
a fact; here each meets TensorFlow, with the thresholds nanlint/hazard_sites.py uses. If one
fails after a TensorFlow upgrade, the claim must change, not this test be skipped.
"""

import numpy as np
import pytest

from nanlint.config import Config
from nanlint.engine import lint_source
from nanlint.hazard_sites import DTYPE_MAX, FLOAT16_MAX, FLOAT16_OVERFLOW

tf = pytest.importorskip("tensorflow")  # the test extra installs tensorflow-cpu

HALF = tf.float16


def half(values):
    return tf.constant(values, HALF)


def test_float16_rounds_to_inf_from_65520_and_a_large_fill_below_it_is_finite():
    assert DTYPE_MAX["float16"] == FLOAT16_MAX == float(np.finfo(np.float16).max)
    assert tf.cast(-1e9, HALF).numpy() == -np.inf  # "`-1e9` is -inf in float16"
    assert tf.cast(-1e5, HALF).numpy() == -np.inf
    assert tf.cast(-FLOAT16_OVERFLOW, HALF).numpy() == -np.inf
    assert np.isfinite(tf.cast(-(FLOAT16_OVERFLOW - 1), HALF).numpy())  # rounds to -65504
    assert np.isfinite(tf.cast(-1e4, HALF).numpy())  # not a fill value: not listed
    assert tf.cast(np.finfo(np.float32).min / 100, HALF).numpy() == -np.inf


def test_zero_times_the_fill_is_nan_where_the_mask_is_zero():
    mask = half([1.0, 1.0, 0.0])
    logits = half([1.0, 2.0, 3.0])
    adder = (1.0 - mask) * -1e9  # computed in float16: -1e9 is -inf, 0 * -inf is NaN
    assert np.isnan(adder.numpy()[:2]).all()
    # The entries the mask keeps are NaN (the masked one is NaN or 0, by the CPU's vector
    # instructions: a max over NaN is not the same on every machine).
    assert np.isnan(tf.nn.softmax(logits + adder).numpy()[:2]).all()
    assert np.isnan((tf.constant([0.0, 1.0]) * -np.inf).numpy()[0])  # an infinity: any dtype
    # The same adder in float32 is finite, and so is its softmax (the guarded case).
    wide = (1.0 - tf.cast(mask, tf.float32)) * -1e9
    assert np.isfinite(tf.nn.softmax(tf.cast(logits, tf.float32) + wide).numpy()).all()


def test_a_softmax_of_a_row_all_minus_inf_is_nan_and_one_minus_inf_is_not():
    # A softmax, log-softmax (x - logsumexp(x)) or exp over its sum: each gives NaN.
    for dtype in (HALF, tf.float32):
        assert np.isnan(tf.nn.softmax(tf.fill([3], tf.constant(-np.inf, dtype))).numpy()).all()
        filled = tf.constant([-np.inf] * 3, dtype)
        assert tf.reduce_logsumexp(filled).numpy() == -np.inf  # then x - lse is NaN
        assert np.isnan((filled - tf.reduce_logsumexp(filled)).numpy()).all()
        assert np.isnan((tf.exp(filled) / tf.reduce_sum(tf.exp(filled))).numpy()).all()
        row = tf.where(tf.constant([True, True, False]), tf.constant([1.0, 2.0, 3.0], dtype),
                       tf.constant(-np.inf, dtype))
        assert np.isfinite(tf.nn.softmax(row).numpy()).all()
    # A row all -1e9 is uniform in float32: -1e9 is a safe fill there.
    assert np.allclose(tf.nn.softmax(tf.fill([3], -1e9)).numpy(), 1 / 3)


def test_a_sum_with_float16s_extreme_overflows_past_rounding():
    assert np.isfinite((half(HALF.min) + half(-1.0)).numpy())  # rounds back to -65504
    assert (half(HALF.min) + half(-16.0)).numpy() == -np.inf
    assert (half(HALF.min) + half(HALF.min)).numpy() == -np.inf  # two masks added
    row = half([-20.0, -30.0, -40.0]) + HALF.min  # a row all masked, logits below -16
    assert np.isnan(tf.nn.softmax(row).numpy()).all()


def test_a_statistic_cast_to_float16_is_inf_past_65504_and_a_bounded_value_is_not():
    x = tf.random.stateless_normal([4, 64], seed=(1, 2)) * 300.0
    variance = tf.reduce_mean(tf.square(x), -1)
    assert variance.numpy().min() > FLOAT16_MAX
    assert np.isinf(tf.cast(variance, HALF).numpy()).all()
    assert np.isfinite(tf.cast(tf.sigmoid(x), HALF).numpy()).all()


def test_a_test_for_minus_inf_misses_the_nan_arithmetic_makes_of_it():
    zero = tf.constant([0.0, 4.0])
    notes = 12.0 * tf.math.log(zero)  # -inf for 0 Hz: the test catches it
    assert tf.equal(notes, -np.inf).numpy()[0]
    relative = tf.math.log(zero) - tf.math.log(zero)  # -inf - -inf: NaN, not caught
    assert np.isnan(relative.numpy()[0]) and not tf.equal(relative, -np.inf).numpy()[0]


MASKED_SOFTMAX = """import tensorflow as tf


def masked_softmax(logits, mask):
    adder = (1.0 - tf.cast(mask, logits.dtype)) * -1e9
    return tf.nn.softmax(logits + adder)
"""


def test_the_first_suspect_of_a_masked_softmax_is_nan_under_float16():
    namespace = {}
    exec(compile(MASKED_SOFTMAX, "masked.py", "exec"), namespace)
    run = namespace["masked_softmax"]
    mask = tf.constant([[1, 1, 0]])
    assert np.isfinite(run(tf.constant([[1.0, 2.0, 3.0]]), mask).numpy()).all()
    assert np.isnan(run(half([[1.0, 2.0, 3.0]]), mask).numpy()[0, :2]).all()  # the kept ones
    first = max((f for f in lint_source(MASKED_SOFTMAX, "masked.py",
                                        Config().for_suspects().options_for(None))
                 if f.score is not None), key=lambda f: f.score)
    assert (first.line, first.code) == (5, "NAN104")
    assert first.why.startswith("`-1e9` is -inf in float16")


def test_one_inf_gradient_makes_every_gradient_clipped_by_global_norm_nan():
    clipped, norm = tf.clip_by_global_norm([tf.constant([np.inf, 1.0]), tf.constant([2.0])], 1.0)
    assert norm.numpy() == np.inf and all(np.isnan(g.numpy()).all() for g in clipped)
    # In float16 the sum of squares passes 65504 once the norm passes 256.
    clipped, norm = tf.clip_by_global_norm([half([300.0, 1.0])], 1.0)
    assert norm.numpy() == np.inf and np.isnan(clipped[0].numpy()).all()
    clipped, norm = tf.clip_by_global_norm([half([250.0, 1.0])], 1.0)
    assert np.isfinite(norm.numpy()) and np.isfinite(clipped[0].numpy()).all()


def test_an_epsilon_under_half_the_smallest_subnormal_is_zero_in_float16():
    from nanlint.suspects import FLOAT16_ZERO

    assert tf.cast(FLOAT16_ZERO * 0.99, HALF).numpy() == 0.0
    assert tf.cast(FLOAT16_ZERO * 1.01, HALF).numpy() > 0.0
    assert tf.cast(1e-9, HALF).numpy() == 0.0
    silent = tf.zeros([2, 4], HALF)
    gain = 1.0 / (tf.reduce_max(tf.abs(silent), axis=1) + tf.cast(1e-9, HALF))
    assert np.isinf(gain.numpy()).all()  # "kept above 0 by 1e-09 only, which is 0 in float16"


def test_a_vanishing_epsilon_ranks_as_no_guard_where_the_file_uses_float16():
    body = ("def normalize(signal):\n"
            "    gain = 1.0 / (tf.reduce_max(tf.abs(signal), axis=1) + 1e-9)\n"
            "    return signal * gain / tf.norm(signal)\n")
    plain = "import tensorflow as tf\n\n\n" + body
    mixed = ("import tensorflow as tf\n\n"
             "tf.keras.mixed_precision.set_global_policy('mixed_float16')\n\n\n" + body)

    def why(source, line):
        found = lint_source(source, "feature.py", Config().for_suspects().options_for(None))
        return next(f.why for f in found if f.line == line and f.score is not None)

    assert why(plain, 5).startswith("partly guarded: its operand is kept above 0 by 1e-09")
    assert why(mixed, 7).startswith("its operand is kept above 0 by 1e-09 only, which is 0 "
                                    "in float16, which the file uses")
