"""The numeric claims behind the value lattice's identities hold under TensorFlow.

Each identity (nanlint/analysis/arithmetic.py, evaluator.py, producers.py) says that a
form reaches a bad point whatever its names; here each claim meets float32, together with
the guard the rules accept. If one fails after a TensorFlow upgrade, the identity must be
narrowed, not this test skipped.
"""

import warnings

import numpy as np
import pytest

from nanlint.analysis.lattice import EXP_LIMITS, exp_limits
from nanlint.engine import lint_source
from nanlint.fixing import SAFETIES, fix_source
from conftest import options_for

tf = pytest.importorskip("tensorflow")  # the test extra installs tensorflow-cpu

ROWS = np.random.default_rng(0).normal(size=(64, 128)).astype(np.float32)


def _gram_distances(x):
    sq = tf.reduce_sum(tf.square(x), axis=1, keepdims=True)
    return sq - 2.0 * tf.matmul(x, x, transpose_b=True) + tf.transpose(sq)


def test_gram_expansion_is_negative_on_its_diagonal_beyond_an_epsilon():
    diagonal = tf.linalg.diag_part(_gram_distances(tf.constant(ROWS))).numpy()
    assert diagonal.min() < -1e-5  # 128 standard normal features: about -1e-4
    unit = tf.math.l2_normalize(tf.constant(ROWS), axis=1)
    unit_diagonal = tf.linalg.diag_part(_gram_distances(unit)).numpy()
    assert (unit_diagonal + 1e-7 < 0).any()  # `d + eps` does not guard it
    assert np.isnan(tf.sqrt(_gram_distances(unit)).numpy()).any()


def test_gram_expansion_guarded_by_maximum_has_finite_gradients():
    x = tf.Variable(ROWS[:8])
    with tf.GradientTape() as tape:
        bare = tf.reduce_sum(tf.sqrt(_gram_distances(x)))
    assert not np.isfinite(tape.gradient(bare, x).numpy()).all()
    with tf.GradientTape() as tape:
        guarded = tf.reduce_sum(tf.sqrt(tf.maximum(_gram_distances(x), 0.0) + 1e-12))
    assert np.isfinite(tape.gradient(guarded, x).numpy()).all()


def test_distances_from_the_gram_diagonal_are_exactly_zero_with_an_infinite_root_gradient():
    # The squared norms read off the diagonal of x @ x^T: the distances' diagonal is exactly 0.
    x = tf.Variable(ROWS[:8])
    with tf.GradientTape(persistent=True) as tape:
        dot = tf.matmul(x, x, transpose_b=True)
        sq = tf.linalg.diag_part(dot)
        d = sq[:, None] - 2.0 * dot + sq[None, :]
        bare = tf.reduce_sum(tf.sqrt(d))
        guarded = tf.reduce_sum(tf.sqrt(tf.maximum(d, 0.0) + 1e-16))
    assert (tf.linalg.diag_part(d).numpy() == 0).all()
    assert np.allclose(sq.numpy(), np.sum(ROWS[:8] ** 2, axis=1), rtol=1e-5)
    assert not np.isfinite(tape.gradient(bare, x).numpy()).all()
    assert np.isfinite(tape.gradient(guarded, x).numpy()).all()


def test_a_constant_column_has_a_zero_spread_in_numpy_and_tensorflow():
    data = np.array([[3.0, 1.0], [3.0, 2.0], [3.0, 5.0]], np.float32)
    assert np.std(data, axis=0)[0] == 0 and data.std(0)[0] == 0 and np.var(data, 0)[0] == 0
    assert tf.math.reduce_std(data, axis=0).numpy()[0] == 0
    with np.errstate(all="ignore"):
        assert np.isnan(((data - data.mean(0)) / data.std(0))[:, 0]).all()
        assert np.isfinite((data - data.mean(0)) / (data.std(0) + 1e-7)).all()


def test_a_statistic_that_skips_nan_is_nan_for_a_slice_that_is_all_nan():
    data = np.array([[np.nan, np.nan], [1.0, 2.0]], np.float32)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for skip in (np.nanmean, np.nanmedian):
            assert np.isnan(skip(data, axis=1)[0]) and skip(data, axis=1)[1] == 1.5
        assert np.isnan(np.nanquantile(data, 0.5, axis=1)[0])
        assert np.isnan(np.nanpercentile(data, 50, axis=1)[0])
        assert np.nansum(data, axis=1)[0] == 0  # a sum of nothing: no hazard
    mean = tf.experimental.numpy.nanmean(tf.constant(data), axis=1).numpy()
    assert np.isnan(mean[0]) and mean[1] == 1.5


def test_an_exp_replaced_where_its_input_is_large_is_still_nan_there():
    x = tf.constant([-1.0, 100.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        elu = tf.where(x > 0, x, tf.math.expm1(x))
        mask = tf.cast(x > 50.0, tf.float32)
        masked = mask * x + (1.0 - mask) * tf.exp(x)
        clipped = tf.where(x > 0, x, tf.math.expm1(tf.minimum(x, 0.0)))
    assert np.isfinite(elu.numpy()).all()  # the value is right: `where` picks `x`
    assert np.isnan(tape.gradient(elu, x).numpy()[1])  # 0 * inf in the gradient
    assert np.isnan(masked.numpy()[1])  # 0 * inf in the value
    assert np.isfinite(tape.gradient(clipped, x).numpy()).all()  # the fix: clip the input


def test_the_fix_of_a_root_of_a_hand_computed_variance_clips_inside_the_root():
    # A constant column of 0.7: E[x²] - E[x]² rounds below 0 in float32. NAN101's fix
    # clips inside the root; a maximum around the root keeps the NaN (max(NaN, 0) is NaN).
    source = """import tensorflow as tf


def standardized(x):
    mean = tf.reduce_mean(x, 0)
    variance = tf.reduce_mean(tf.square(x), 0) - tf.square(mean)
    return (x - mean) / tf.sqrt(variance)
"""
    fixed = fix_source(source, "norm.py", options_for(), SAFETIES["unsafe"])
    assert "tf.sqrt(tf.maximum(variance, 0.0)) + 1e-7" in fixed.text
    x = tf.constant(np.full((64, 3), 0.7, np.float32))
    before, after = {}, {}
    exec(compile(source, "before.py", "exec"), before)
    exec(compile(fixed.text, "after.py", "exec"), after)
    assert np.isnan(before["standardized"](x).numpy()).all()
    assert np.isfinite(after["standardized"](x).numpy()).all()
    variance = tf.reduce_mean(tf.square(x), 0) - tf.square(tf.reduce_mean(x, 0))
    assert np.isnan((tf.maximum(tf.sqrt(variance), 0.0) + 1e-7).numpy()).all()


def test_a_one_hot_summed_over_its_rows_is_0_for_an_absent_class_and_over_its_classes_1():
    one_hot = tf.one_hot([0, 0, 2], 3)
    per_class = tf.reduce_sum(one_hot, axis=0).numpy()
    assert per_class[1] == 0 and (tf.reduce_sum(one_hot, axis=-1).numpy() == 1).all()
    assert np.isnan((tf.zeros(3) / tf.reduce_sum(one_hot, axis=0)).numpy()[1])
    assert np.isfinite((tf.zeros(3) / tf.maximum(tf.reduce_sum(one_hot, 0), 1.0)).numpy()).all()


def test_a_ratio_of_its_own_total_is_nan_for_an_all_zero_row():
    rows = tf.constant([[0.0, 0.0, 0.0], [1.0, 3.0, 0.0]])
    for total in (tf.reduce_sum(rows, 1, keepdims=True), tf.reduce_max(rows, 1, keepdims=True),
                  tf.norm(rows, axis=1, keepdims=True)):
        ratio = (rows / total).numpy()
        assert np.isnan(ratio[0]).all() and np.isfinite(ratio[1]).all()
        assert np.isfinite((rows / (total + 1e-8)).numpy()).all()
    p = tf.nn.softmax(tf.constant([[-1e4, 0.0, 1e4]]))  # a softmax row sums to 1
    assert np.isfinite((p / tf.reduce_sum(p, 1, keepdims=True)).numpy()).all()


def test_cosine_of_normalized_rows_passes_one_and_acos_is_nan():
    unit = tf.math.l2_normalize(tf.constant(ROWS), axis=1)
    cosine = tf.reduce_sum(unit * unit, axis=1)
    assert cosine.numpy().max() > 1.0
    assert np.isnan(tf.math.acos(cosine).numpy()).any()
    assert np.isnan(tf.sqrt(1.0 - tf.square(cosine)).numpy()).any()  # `1 - cos²` < 0
    clipped = tf.clip_by_value(cosine, -1.0 + 1e-7, 1.0 - 1e-7)
    assert np.isfinite(tf.math.acos(clipped).numpy()).all()


def test_one_minus_a_square_of_a_correlation_or_a_tanh_reaches_zero_or_passes_it():
    # `1 - x²` is written for an x in [-1, 1]: a correlation of exactly related vectors and
    # a saturated tanh reach ±1, where it is 0 (or below it, by rounding) in float32.
    x = tf.constant(ROWS[0])
    y = 3.0 * x + 1.0
    dx, dy = x - tf.reduce_mean(x), y - tf.reduce_mean(y)
    r = tf.reduce_sum(dx * dy) / tf.sqrt(tf.reduce_sum(dx * dx) * tf.reduce_sum(dy * dy))
    assert (1.0 - r ** 2).numpy() <= 0.0
    assert not np.isfinite(tf.sqrt(64.0 / (1.0 - r ** 2)).numpy())
    w = tf.Variable([10.0])
    with tf.GradientTape() as tape:
        sine = tf.sqrt(1.0 - tf.square(tf.tanh(w)))
    assert sine.numpy()[0] == 0.0
    assert not np.isfinite(tape.gradient(sine, w).numpy()).all()


def test_acos_of_a_clip_to_one_has_an_infinite_gradient_and_the_narrower_clip_not():
    # Beyond the bound the clip passes no gradient; at the bound (a cosine of a vector with
    # itself that rounds to exactly 1) it passes acos's infinite one.
    c = tf.Variable([1.0, 0.3])
    with tf.GradientTape(persistent=True) as tape:
        bare = tf.reduce_sum(tf.math.acos(tf.clip_by_value(c, -1.0, 1.0)))
        safe = tf.reduce_sum(tf.math.acos(tf.clip_by_value(c, -1.0 + 1e-7, 1.0 - 1e-7)))
    assert not np.isfinite(tape.gradient(bare, c).numpy()).all()
    assert np.isfinite(tape.gradient(safe, c).numpy()).all()


def test_tanh_saturates_to_exactly_one():
    u = tf.Variable([9.5, -12.0, 0.5])
    assert tf.tanh(9.5).numpy() == 1.0 and tf.tanh(-12.0).numpy() == -1.0
    with tf.GradientTape(persistent=True) as tape:
        a = tf.tanh(u)
        log_jacobian = tf.math.log(1.0 - a ** 2)
        angle = tf.reduce_sum(tf.asin(a))
    assert np.isinf(log_jacobian.numpy()[:2]).all()
    assert np.isfinite(tf.math.log(1.0 - a ** 2 + 1e-6).numpy()).all()
    assert not np.isfinite(tape.gradient(angle, u).numpy()).all()


def test_atanh_of_a_tanh_and_acosh_of_one_plus_a_distance_reach_their_domain_edge():
    # What these ops are given reaches the edge of their domain by what it is: a tanh
    # saturates to 1, and 1 + a squared distance is 1 where the points coincide.
    u = tf.Variable([12.0, 0.5])
    a, b = tf.Variable([[0.3, 0.4]]), tf.Variable([[0.3, 0.4]])
    with tf.GradientTape(persistent=True) as tape:
        back = tf.math.atanh(tf.tanh(u))
        distance = tf.math.acosh(1.0 + 2.0 * tf.reduce_sum(tf.square(a - b), -1))
    assert np.isinf(back.numpy()[0]) and np.isfinite(back.numpy()[1])
    assert distance.numpy()[0] == 0.0
    assert not np.isfinite(tape.gradient(distance, a).numpy()).all()


def test_a_select_that_tests_its_branch_keeps_it_from_zero_and_a_strict_test_only_just():
    d = tf.constant([0.0, 2.0, -3.0, 1e-37])  # the last: tiny, but above 0
    ones = tf.ones_like(d)
    assert np.all(tf.where(tf.equal(d, 0.0), ones, d).numpy() != 0)
    assert np.isfinite((1.0 / tf.where(tf.not_equal(d, 0.0), d, np.inf)).numpy()[:3]).all()
    assert np.all(tf.where(d > 0.0, d, ones).numpy() > 0)
    # Kept above 0 by a test only: just above it, the quotient still overflows.
    assert np.isinf((1e3 / tf.where(d > 0.0, d, ones)).numpy()[3])
    assert np.isfinite((1e3 / tf.where(d > 1e-6, d, ones)).numpy()).all()


def test_exp_less_one_passes_through_zero_where_its_exponent_is_zero():
    x = tf.constant([0.0, -0.5, 0.5])
    log_gap = tf.math.log(tf.exp(x) - 1.0).numpy()
    assert np.isneginf(log_gap[0]) and np.isnan(log_gap[1]) and np.isfinite(log_gap[2])
    assert np.isnan(tf.math.log(1.0 - tf.exp(x)).numpy()[2])
    assert np.isnan(tf.sqrt(1.0 - tf.exp(tf.nn.relu(x))).numpy()[2])
    clipped = tf.math.log(tf.maximum(tf.exp(x) - 1.0, 1e-7)).numpy()
    assert np.isfinite(clipped).all()


def test_moving_average_of_squares_stays_zero_where_the_gradient_was():
    g = tf.constant([0.0, 0.5])  # a dead unit and a live one
    m, v = tf.zeros_like(g), tf.zeros_like(g)
    for _ in range(3):
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * tf.square(g)
    assert v.numpy()[0] == 0.0
    assert np.isnan((m / tf.sqrt(v)).numpy()[0])
    assert np.isfinite((m / (tf.sqrt(v) + 1e-8)).numpy()).all()


def test_variance_of_moments_is_zero_for_a_constant_column():
    x = tf.constant([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
    mean, variance = tf.nn.moments(x, axes=[0])
    assert variance.numpy()[1] == 0.0
    assert np.isnan(((x - mean) / tf.sqrt(variance)).numpy()).any()


def test_a_hand_computed_variance_rounds_below_0_in_float32_and_in_float64():
    # E[x²] - E[x]² of a large mean and a small spread: the cancellation is a fact of
    # floating point, so the identity holds for numpy's float64 arrays as for tensors.
    rng = np.random.default_rng(0)
    x = 1000.0 + 0.01 * rng.standard_normal((64, 16))
    x32 = tf.constant(x.astype(np.float32))
    v32 = tf.reduce_mean(tf.square(x32), 0) - tf.square(tf.reduce_mean(x32, 0))
    assert (v32.numpy() < 0).any() and np.isnan(tf.sqrt(v32).numpy()).any()
    wide = 1e8 + 0.1 * rng.standard_normal((64, 16))
    v64 = (wide ** 2).mean(0) - wide.mean(0) ** 2
    assert v64.dtype == np.float64 and (v64 < 0).any()
    with np.errstate(invalid="ignore"):
        assert np.isnan(np.sqrt(v64)).any()


def test_the_rounding_of_a_hand_computed_variance_grows_with_the_values_averaged():
    # The figures the message of a variance plus an epsilon quotes: E[x²] - E[x]² of a
    # constant input, whose exact value is 0.
    seven = tf.fill([4096], 7.7)
    small = tf.reduce_mean(seven * seven) - tf.square(tf.reduce_mean(seven))
    assert -2e-4 < float(small) < -5e-5
    hundred = tf.fill([262144, 16], 100.0)
    columns = tf.reduce_mean(tf.square(hundred), 0) - tf.square(tf.reduce_mean(hundred, 0))
    assert float(tf.reduce_min(columns)) < -1.0  # -9.4: an epsilon of 1e-3 does not cover it


def test_a_negative_power_of_a_count_is_inf_where_the_count_is_0():
    # A row of an adjacency matrix with no edge: its degree is 0, and degree ** -0.5 is
    # inf in the value itself (no gradient needed); clamped at 1 it is finite.
    adjacency = tf.constant([[0.0, 1.0], [0.0, 0.0]])
    degree = tf.reduce_sum(tf.cast(adjacency > 0, tf.float32), axis=1)
    assert np.isinf(tf.pow(degree, -0.5).numpy()).any()
    assert np.isinf((degree ** -1).numpy()).any()
    assert np.isinf(np.power(degree.numpy(), -0.5)).any()
    assert np.isfinite(tf.pow(tf.maximum(degree, 1.0), -0.5).numpy()).all()
    # the result checked and fixed: finite wherever it was inf
    scale = tf.pow(degree, -0.5)
    fixed = tf.where(tf.math.is_inf(scale), tf.zeros_like(scale), scale)
    assert np.isfinite(fixed.numpy()).all()


def test_a_select_that_picks_a_quotient_only_where_its_denominator_is_not_0_is_finite():
    # A trust ratio r = |w| / |g| replaced by tf.where(|g| > 0, r, 1): the select keeps
    # 1.0 where the gradient is all zero, so the value is finite; picked the other way
    # round it keeps the NaN.
    w = tf.constant([3.0, 4.0])
    g = tf.zeros([2])
    ratio = tf.norm(w) / tf.norm(g)
    assert np.isinf(ratio.numpy())
    assert tf.where(tf.norm(g) > 0, ratio, 1.0).numpy() == 1.0
    assert np.isinf(tf.where(tf.equal(tf.norm(g), 0.0), ratio, 1.0).numpy())
    # a quotient picked where its count is 0 is inf in the value itself
    count = tf.reduce_sum(tf.cast(tf.constant([-1.0, -2.0]) > 0, tf.float32))
    assert not np.isfinite(tf.where(tf.equal(count, 0.0), tf.reduce_sum(w) / count, 0.0))


def test_a_test_of_a_magnitude_guards_as_the_test_of_its_value_does():
    # `abs(d) > 0` is `d != 0`: a cond on it runs the division only where d is not 0 (a
    # finite gradient), a where computes it everywhere (0 * inf = NaN in the gradient).
    d = tf.Variable([0.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        selected = tf.where(tf.abs(d) > 0, 1.0 / d, 0.0)
        squared = tf.where(tf.square(d) > 1e-12, 1.0 / d, 0.0)
        branched = tf.cond(tf.abs(d[0]) > 0, lambda: 1.0 / d[0], lambda: 0.0 * d[0])
    assert np.isfinite(selected.numpy()).all() and np.isfinite(squared.numpy()).all()
    assert np.isnan(tape.gradient(selected, d).numpy()[0])
    assert np.isnan(tape.gradient(squared, d).numpy()[0])
    assert np.isfinite(tape.gradient(branched, d).numpy()).all()


def test_a_counter_increased_before_it_divides_is_not_0_but_a_size_can_be():
    # A counter that starts at 0 is 0 until increased, and at least a positive increment
    # after it, trainable or not; increased by a tensor's size it stays 0 for an empty one.
    batch = tf.ones([4, 3])
    count = tf.Variable(0.0, trainable=False)
    total = tf.Variable(0.0, trainable=False)
    assert np.isnan((total / count).numpy())
    count.assign_add(tf.cast(tf.size(tf.zeros([0, 3])), tf.float32))
    assert np.isnan((total / count).numpy())
    count.assign_add(1.0)
    total.assign_add(tf.reduce_mean(batch))
    assert (total / count).numpy() == 1.0


def test_an_optimizer_update_of_a_dead_units_gradient_is_0_over_0():
    # A unit whose relu is dead for the batch: its weights' gradient is exactly 0, so the
    # moving average of squares an update keeps stays 0 and m / sqrt(v) is 0 / 0. An
    # assignment returns the value it assigns.
    w = tf.Variable([[1.0, -1.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.relu(tf.matmul(tf.ones([4, 1]), w)))
    grad = tape.gradient(loss, w)
    assert float(grad[0, 1]) == 0.0
    v = tf.Variable(tf.zeros_like(w))
    v_t = tf.compat.v1.assign(v, 0.999 * v + 0.001 * tf.square(grad))
    assert np.array_equal(np.asarray(v_t), (0.001 * tf.square(grad)).numpy())
    assert np.array_equal(np.asarray(tf.Variable(tf.zeros_like(w)).assign(v_t)), np.asarray(v_t))
    m_t = 0.1 * grad
    assert np.isnan((m_t / tf.sqrt(v_t)).numpy()[0, 1])
    assert np.isfinite((m_t / (tf.sqrt(v_t) + 1e-7)).numpy()).all()


def test_exp_of_a_difference_of_log_probabilities_overflows_and_the_clip_does_not():
    # The old policy gave the action a probability of e^-100: the ratio is inf, and where
    # both probabilities are 0 (log -inf) the difference is NaN.
    log_p = tf.nn.log_softmax(tf.constant([[0.0, 0.0]]))[:, 1]
    old_log_p = tf.nn.log_softmax(tf.constant([[0.0, -100.0]]))[:, 1]
    assert float(old_log_p[0]) < -99.0
    assert np.isinf(tf.exp(log_p - old_log_p).numpy()).all()
    assert np.isfinite(tf.exp(tf.clip_by_value(log_p - old_log_p, -20.0, 20.0)).numpy()).all()
    never = tf.math.log(tf.constant(0.0))
    assert np.isnan((never - never).numpy())
    assert float(tf.exp(log_p)[0]) <= 1.0  # one log-probability: a probability


def test_a_categorical_cross_entropy_of_probabilities_is_nan_for_an_all_zero_row():
    # Keras divides the prediction by its row's sum before the log: a row masked to all
    # zeros is 0 / 0 (the sparse form and the one from logits do not divide).
    import keras

    labels, predictions = tf.constant([[0.0, 1.0], [1.0, 0.0]]), tf.constant([[0.3, 0.7],
                                                                            [0.0, 0.0]])
    loss = keras.losses.categorical_crossentropy(labels, predictions).numpy()
    assert np.isfinite(loss[0]) and np.isnan(loss[1])
    assert np.isfinite(keras.losses.categorical_crossentropy(
        labels, predictions, from_logits=True).numpy()).all()


def test_hand_written_softplus_and_masked_softmax_overflow_and_the_fused_forms_do_not():
    z = tf.constant([[100.0, 1.0, -3.0]])
    mask = tf.constant([[1.0, 1.0, 0.0]])
    assert np.isinf(tf.math.log(1.0 + tf.exp(z)).numpy()).any()
    assert np.isfinite(tf.math.softplus(z).numpy()).all()
    e = tf.exp(z) * mask
    assert np.isnan((e / tf.reduce_sum(e, axis=-1, keepdims=True)).numpy()).any()
    shifted = tf.exp(z - tf.reduce_max(z, axis=-1, keepdims=True)) * mask
    safe = shifted / (tf.reduce_sum(shifted, axis=-1, keepdims=True) + 1e-9)
    assert np.isfinite(safe.numpy()).all()


def test_log1p_of_exp_overflows_as_the_hand_written_softplus_does_and_equals_softplus():
    z = tf.constant([100.0, 1.0, -3.0, -20.0])
    with tf.GradientTape() as tape:
        tape.watch(z)
        by_hand = tf.math.log1p(tf.exp(z))
    assert np.isinf(by_hand.numpy()[0]) and np.isnan(tape.gradient(by_hand, z).numpy()[0])
    fused = tf.math.softplus(z).numpy()  # what the fix writes: finite, the same elsewhere
    assert np.isfinite(fused).all()
    np.testing.assert_allclose(fused[1:], by_hand.numpy()[1:], rtol=1e-6)
    stable = tf.maximum(z, 0.0) + tf.math.log1p(tf.exp(-tf.abs(z)))  # quiet: exp of <= 0
    np.testing.assert_allclose(stable.numpy(), fused, rtol=1e-6)


def test_a_hand_written_softplus_is_exactly_zero_below_minus_17_and_the_fused_one_is_not():
    z = tf.constant([-16.0, -16.7, -20.0, -80.0])
    by_hand = tf.math.log(1.0 + tf.exp(z)).numpy()
    assert by_hand[0] > 0 and (by_hand[1:] == 0).all()  # 1 + exp(z) rounds to 1
    fused = tf.math.softplus(z).numpy()
    assert (fused > 0).all()
    assert np.isinf((1.0 / tf.math.log(1.0 + tf.exp(z))).numpy()[1:]).all()
    assert np.isfinite((1.0 / (tf.math.log(1.0 + tf.exp(z)) + 1e-3)).numpy()).all()
    assert np.isfinite((1.0 / fused)).all()


def test_a_softmax_times_labels_is_not_negative_and_times_weights_can_be():
    scores = tf.constant(ROWS[:8, :16] * 30.0)
    attention = tf.nn.softmax(scores)
    labels = tf.one_hot(np.arange(16) % 4, 4)
    assert (tf.matmul(attention, labels).numpy() >= 0).all()
    values = tf.constant(ROWS[16:32, :5])
    averaged = tf.matmul(attention, values).numpy()  # each row averages the rows of values
    assert (averaged >= values.numpy().min(0) - 1e-6).all()
    assert (averaged <= values.numpy().max(0) + 1e-6).all()
    assert (averaged < 0).any()  # signed values give a signed average
    assert np.isnan(tf.math.log(averaged).numpy()).any()


def test_the_mean_of_an_empty_selection_is_nan_and_its_sum_is_zero():
    x = tf.constant([1.0, 2.0, 3.0])
    none = tf.constant([False, False, False])
    assert np.isnan(tf.reduce_mean(tf.boolean_mask(x, none)).numpy())
    assert np.isnan(tf.reduce_mean(tf.gather(x, tf.reshape(tf.where(none), [-1]))).numpy())
    assert tf.reduce_sum(tf.boolean_mask(x, none)).numpy() == 0.0
    some = tf.constant([True, False, False])
    assert tf.reduce_mean(tf.boolean_mask(x, some)).numpy() == 1.0


def test_an_exp_the_select_keeps_out_of_its_overflow_still_has_a_nan_gradient():
    """A where that takes the exp only for small arguments (a hand-written ELU, a softplus
    that switches to x) keeps inf out of the value, not out of the gradient; the double
    where (the exp of a where of its own) has a finite one."""
    x = tf.constant([-1.0, 0.5, 100.0])
    forms = {
        "elu": lambda v: tf.where(v > 0, v, tf.exp(v) - 1.0),
        "softplus": lambda v: tf.where(v > 20.0, v, tf.math.log1p(tf.exp(v))),
        "fixed": lambda v: tf.where(v > 0, v, tf.exp(tf.where(v > 0, tf.ones_like(v), v))
                                    - 1.0),
    }
    for name, form in forms.items():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = form(x)
        gradient = tape.gradient(y, x).numpy()
        assert np.isfinite(y.numpy()).all(), name
        assert np.isnan(gradient[2]) == (name != "fixed"), name
        assert np.isfinite(gradient[:2]).all(), name


def test_a_hand_written_cosh_overflows_for_large_arguments_of_either_sign():
    x = tf.constant([-100.0, 0.0, 100.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        logcosh = tf.math.log((tf.exp(x) + tf.exp(-x)) / 2.0)
    assert np.isinf(logcosh.numpy()[[0, 2]]).all() and logcosh.numpy()[1] == 0.0
    assert np.isnan(tape.gradient(logcosh, x).numpy()[[0, 2]]).all()  # inf / inf
    assert np.isfinite(tf.math.log(tf.math.cosh(50.0)).numpy())  # below 88 it is finite


def test_the_mean_of_an_empty_list_is_nan_and_a_graph_collection_starts_empty():
    assert np.isnan(tf.reduce_mean([]).numpy())
    kept = [v for v in [tf.constant(1.0), tf.constant(2.0)] if v.numpy() > 5.0]
    assert kept == [] and np.isnan(tf.reduce_mean(kept).numpy())
    graph = tf.Graph()
    with graph.as_default():
        regularizers = graph.get_collection(tf.compat.v1.GraphKeys.REGULARIZATION_LOSSES)
        assert regularizers == []  # nothing added: no layer has a regularizer
        with tf.compat.v1.Session(graph=graph) as session:
            mean = tf.reduce_mean([tf.reduce_mean(r) for r in regularizers])
            assert np.isnan(session.run(mean))


def test_a_leaky_critics_input_gradient_is_never_zero_and_a_relu_critics_can_be():
    """The penalty's root has a NaN gradient for the critic's weights where the input
    gradient is 0: at an input where every relu is dead (here 0, where TF's relu has
    slope 0). Leaky relu, elu and tanh keep a slope there, and the root is finite."""
    rng = np.random.default_rng(1)
    w1 = tf.Variable(rng.normal(size=(8, 16)).astype(np.float32))
    w2 = tf.Variable(rng.normal(size=(16, 1)).astype(np.float32))
    x = tf.constant(np.concatenate([rng.normal(size=(63, 8)), np.zeros((1, 8))])
                    .astype(np.float32))

    def penalty(activation):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                inner.watch(x)
                critic = tf.matmul(activation(tf.matmul(x, w1)), w2)
            g = inner.gradient(critic, x)
            norm = tf.sqrt(tf.reduce_sum(tf.square(g), axis=1))
            loss = tf.reduce_mean((norm - 1.0) ** 2)
        return norm.numpy(), [v.numpy() for v in outer.gradient(loss, [w1, w2])]

    norm, grads = penalty(tf.nn.relu)
    assert norm[-1] == 0 and all(np.isnan(grad).any() for grad in grads)
    for sloped in (lambda z: tf.nn.leaky_relu(z, 0.2), tf.nn.elu, tf.tanh):
        norm, grads = penalty(sloped)
        assert (norm > 0).all() and all(np.isfinite(grad).all() for grad in grads)


def test_a_softmax_of_logits_that_span_at_most_40_never_underflows_and_of_100_does():
    from nanlint.analysis.producers import SIGMOID_BELOW_ONE, SPAN

    n = 100_000  # one logit at the top of the span, all the others at its bottom
    for span in (SPAN, 2.0, 2.0 / 0.05):
        logits = np.full((1, n), -span / 2, np.float32)
        logits[0, 0] = span / 2
        p = tf.nn.softmax(logits).numpy()
        assert p.min() > 0 and np.isfinite(np.log(p)).all()
    logits[0, 0] = 100.0
    assert tf.nn.softmax(logits).numpy().min() == 0  # a wider span underflows
    assert tf.sigmoid(tf.constant(-SPAN)).numpy() > 0
    assert tf.sigmoid(tf.constant(-110.0)).numpy() == 0
    assert 1.0 - tf.sigmoid(tf.constant(SIGMOID_BELOW_ONE)).numpy() > 0
    assert 1.0 - tf.sigmoid(tf.constant(17.0)).numpy() == 0


def test_negative_mirrors_its_input_so_exp_of_minus_abs_stays_at_most_one():
    z = tf.constant([-1e30, -100.0, 0.0, 100.0, 1e30])
    assert (tf.negative(z).numpy() == -z.numpy()).all()
    assert tf.exp(tf.negative(tf.abs(z))).numpy().max() <= 1.0
    assert np.isinf(tf.exp(tf.negative(z)).numpy()).any()


def test_a_mask_of_where_a_row_reaches_its_maximum_sums_to_at_least_one_along_it():
    rows = np.concatenate([ROWS[:8], np.full((2, 128), 3.0, np.float32),  # ties
                           np.full((2, 128), -np.inf, np.float32),
                           np.zeros((2, 128), np.float32)])
    for compare, extreme in ((tf.equal, tf.reduce_max), (tf.greater_equal, tf.reduce_max),
                             (tf.equal, tf.reduce_min), (tf.less_equal, tf.reduce_min)):
        mask = tf.cast(compare(rows, extreme(rows, 1, keepdims=True)), tf.float32)
        assert tf.reduce_min(tf.reduce_sum(mask, 1)).numpy() >= 1
    thresholded = tf.cast(rows > 10.0, tf.float32)  # a threshold can select nothing
    assert tf.reduce_min(tf.reduce_sum(thresholded, 1)).numpy() == 0


def test_a_root_of_a_value_floored_above_zero_passes_a_test_against_zero_everywhere():
    d = tf.constant([-3.0, 0.0, 1e-30, 2.0])
    distance = tf.sqrt(tf.maximum(d, 1e-12))
    assert tf.reduce_sum(tf.cast(distance > 0.0, tf.float32)).numpy() == 4
    h = tf.nn.relu(tf.constant([-1.0, -2.0]))  # a relu's output can fail it everywhere
    assert tf.reduce_sum(tf.cast(h > 0.0, tf.float32)).numpy() == 0
    e = tf.exp(tf.constant([-200.0]))  # an exp's open bound: 0 in float32
    assert tf.reduce_sum(tf.cast(e > 0.0, tf.float32)).numpy() == 0


def test_a_vector_compared_with_itself_across_two_axes_holds_its_diagonal():
    labels = tf.constant([[3], [1], [3], [7], [1], [9]])
    for compare in (tf.equal, tf.greater_equal, tf.less_equal):
        for pairs in (compare(labels, tf.transpose(labels)),
                      compare(tf.expand_dims(labels[:, 0], 0), tf.expand_dims(labels[:, 0], 1))):
            mask = tf.cast(pairs, tf.float32)
            assert (tf.linalg.diag_part(mask).numpy() == 1).all()
            assert tf.reduce_min(tf.reduce_sum(mask, 0)).numpy() >= 1
            assert tf.reduce_min(tf.reduce_sum(mask, 1)).numpy() >= 1
    others = tf.logical_and(tf.equal(labels, tf.transpose(labels)), tf.logical_not(
        tf.eye(6, dtype=tf.bool)))  # without the diagonal, a unique label's row is empty
    assert tf.reduce_min(tf.reduce_sum(tf.cast(others, tf.float32), 1)).numpy() == 0


def test_a_gradient_of_a_saturated_softmax_is_exactly_zero_and_its_unit_is_nan():
    x = tf.constant([[200.0, 0.0], [1.0, 0.5]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.nn.softmax_cross_entropy_with_logits(labels=[[1.0, 0.0]] * 2, logits=x)
    g_x, = tape.gradient(loss, [x])
    assert (g_x.numpy()[0] == 0).all()
    unit = (g_x / tf.reduce_sum(tf.abs(g_x), 1, keepdims=True)).numpy()
    assert np.isnan(unit[0]).all() and np.isfinite(unit[1]).all()


def test_a_cond_that_tests_the_denominator_gives_a_finite_value_and_gradient_a_where_not():
    x = tf.constant([1.0, 2.0])
    for g in (tf.constant([-1.0, -2.0]), tf.constant([1.0, 3.0])):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(g)
            d = tf.reduce_sum(tf.nn.relu(g))
            by_cond = tf.cond(d > 0, lambda: x / d, lambda: tf.zeros_like(x))
            by_where = tf.where(d > 0, x / d, 0.0)
        assert np.isfinite(by_cond.numpy()).all()
        grad = tape.gradient(by_cond, g)  # None where the branch taken ignores g
        assert grad is None or np.isfinite(grad.numpy()).all()
        if float(d) == 0:
            assert np.isnan(tape.gradient(by_where, g).numpy()).any()


def test_a_norm_is_zero_only_where_every_entry_is():
    column = tf.constant([[0.0, 0.0], [0.0, 3.0], [0.0, -4.0]])  # a zero entry, a zero column
    norms = tf.norm(column, axis=0).numpy()
    assert norms[1] == 5.0 and norms[0] == 0.0
    weights = tf.random.normal([128, 1000], seed=0)
    assert tf.reduce_min(tf.norm(weights, axis=0)).numpy() > 0


def test_rows_divided_by_their_own_norm_have_self_cosines_past_one_in_both_dtypes():
    x = tf.constant(ROWS)
    for norm in (tf.norm(x, axis=1, keepdims=True),
                 tf.sqrt(tf.reduce_sum(tf.square(x), 1, keepdims=True))):
        unit = x / norm
        cosines = tf.reduce_sum(unit * unit, 1)
        assert (cosines.numpy() > 1.0).any()
        assert np.isnan(tf.math.acos(cosines).numpy()).any()
    rows = ROWS.astype(np.float64)  # numpy's default dtype rounds past 1 too
    unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):
        assert np.isnan(np.arccos(np.sum(unit * unit, axis=1))).any()


def test_normalized_rows_times_a_centroid_of_normalized_rows_stay_within_one():
    rows = tf.math.l2_normalize(ROWS, axis=-1)
    same = tf.math.l2_normalize(tf.tile(ROWS[:1], [64, 1]), axis=-1)
    for refs in (rows, same, -rows[:1]):
        centroid = tf.reduce_mean(refs, axis=0, keepdims=True)
        scores = (rows @ tf.transpose(centroid)).numpy()
        assert np.abs(scores).max() <= 1.0 + 1e-6


# Each form above, written in a loss, is what the rules report; the guarded forms are not.
FORMS = [
    ("sq = tf.reduce_sum(tf.square(x), 1, keepdims=True)\n"
     "    d = sq - 2.0 * tf.matmul(x, x, transpose_b=True) + tf.transpose(sq)\n"
     "    return tf.reduce_sum(tf.sqrt(d + 1e-7))", "NAN201"),
    ("c = tf.reduce_sum(tf.math.l2_normalize(x, 1) * tf.math.l2_normalize(y, 1), 1)\n"
     "    return tf.reduce_sum(tf.math.acos(c))", "NAN205"),
    ("a = x / tf.norm(x, axis=1, keepdims=True)\n"
     "    b = y / tf.sqrt(tf.reduce_sum(tf.square(y), 1, keepdims=True))\n"
     "    return tf.reduce_sum(tf.math.acos(tf.reduce_sum(a * b, 1)))", "NAN205"),
    ("return tf.reduce_sum(tf.math.log(1.0 - tf.tanh(x) ** 2))", "NAN102"),
    ("mean, variance = tf.nn.moments(x, axes=[0])\n"
     "    return tf.reduce_sum((x - mean) / tf.sqrt(variance))", "NAN101"),
    ("degree = tf.reduce_sum(tf.cast(x > 0, tf.float32), axis=1)\n"
     "    return tf.reduce_sum(tf.pow(degree, -0.5) * y)", "NAN101"),
    ("a, b = tf.math.l2_normalize(x, -1), tf.math.l2_normalize(y, -1)\n"
     "    p = tf.nn.softmax(tf.matmul(a, b, transpose_b=True) / 0.01)\n"
     "    return -tf.reduce_sum(tf.math.log(p))", "NAN103"),
    ("p = tf.sigmoid(tf.tanh(x) * 20.0)\n"
     "    return -tf.reduce_sum(tf.math.log(1.0 - p))", "NAN102"),
    ("return tf.reduce_sum(tf.math.log(1.0 + tf.exp(tf.negative(tf.matmul(x, y)))))",
     "NAN104"),
]
GUARDED = [
    ("sq = tf.reduce_sum(tf.square(x), 1, keepdims=True)\n"
     "    d = sq - 2.0 * tf.matmul(x, x, transpose_b=True) + tf.transpose(sq)\n"
     "    return tf.reduce_sum(tf.sqrt(tf.maximum(d, 0.0) + 1e-7))"),
    ("c = tf.reduce_sum(tf.math.l2_normalize(x, 1) * tf.math.l2_normalize(y, 1), 1)\n"
     "    return tf.reduce_sum(tf.math.acos(tf.clip_by_value(c, -1.0 + 1e-7, 1.0 - 1e-7)))"),
    ("a = x / tf.norm(x, axis=1, keepdims=True)\n"
     "    b = y / tf.norm(y, axis=1, keepdims=True)\n"
     "    c = tf.clip_by_value(tf.reduce_sum(a * b, 1), -1.0 + 1e-7, 1.0 - 1e-7)\n"
     "    return tf.reduce_sum(tf.math.acos(c))"),
    "return tf.reduce_sum(tf.math.log(1.0 - tf.tanh(x) ** 2 + 1e-6))",
    ("mean, variance = tf.nn.moments(x, axes=[0])\n"
     "    return tf.reduce_sum((x - mean) / tf.sqrt(variance + 1e-5))"),
    ("degree = tf.reduce_sum(tf.cast(x > 0, tf.float32), axis=1)\n"
     "    return tf.reduce_sum(tf.pow(tf.maximum(degree, 1.0), -0.5) * y)"),
    # cosines over a temperature of 0.1 span 20; a tanh 2; a centroid's inner products 2
    ("a, b = tf.math.l2_normalize(x, -1), tf.math.l2_normalize(y, -1)\n"
     "    p = tf.nn.softmax(tf.matmul(a, b, transpose_b=True) / 0.1)\n"
     "    return -tf.reduce_sum(tf.math.log(p))"),
    ("p = tf.sigmoid(tf.tanh(x) * 5.0)\n"
     "    return -tf.reduce_sum(tf.math.log(p) + tf.math.log(1.0 - p))"),
    # the stable softplus of -|z|: its exp is at most 1
    "return tf.reduce_sum(tf.math.log(1.0 + tf.exp(tf.negative(tf.abs(tf.matmul(x, y))))))",
    ("c = tf.reduce_mean(tf.math.l2_normalize(y, -1), axis=0, keepdims=True)\n"
     "    p = tf.nn.softmax(tf.math.l2_normalize(x, -1) @ tf.transpose(c))\n"
     "    return -tf.reduce_sum(tf.math.log(p))"),
]


def _loss(body: str) -> str:
    return f"import tensorflow as tf\n\n\ndef pair_loss(x, y):\n    {body}\n"


def _iou(pred_xy, pred_wh, true_mins, true_maxes):
    pred_mins, pred_maxes = pred_xy - pred_wh / 2.0, pred_xy + pred_wh / 2.0
    inter_wh = tf.maximum(tf.minimum(pred_maxes, true_maxes) - tf.maximum(pred_mins, true_mins),
                          0.0)
    inter = inter_wh[..., 0] * inter_wh[..., 1]
    true_wh = true_maxes - true_mins
    union = pred_wh[..., 0] * pred_wh[..., 1] + true_wh[..., 0] * true_wh[..., 1] - inter
    return union, inter / union


def test_a_union_is_at_least_the_predicted_area_so_a_zero_padded_box_gives_no_nan():
    raw = tf.constant((np.linspace(-20.0, 20.0, 81)[:, None] * [1.0, 0.5]).astype(np.float32))
    pred_wh = tf.exp(raw) * tf.constant([0.3, 0.2])
    pred_xy = tf.fill(tf.shape(raw), 0.5)
    padded = tf.zeros_like(raw)  # a box of the zero padding: no size
    union, iou = _iou(pred_xy, pred_wh, padded, padded)
    assert (union.numpy() >= (pred_wh[..., 0] * pred_wh[..., 1]).numpy()).all()
    assert (union.numpy() > 0).all() and np.isfinite(iou.numpy()).all()
    both_padded, nan = _iou(pred_xy, tf.zeros_like(raw), padded, padded)
    assert (both_padded.numpy() == 0).all() and np.isnan(nan.numpy()).all()


def test_a_box_of_corners_can_round_to_no_size_so_its_union_with_the_padding_is_0():
    """A predicted box kept as corners: a width far below the resolution of its centre
    (float32's step at 400 is about 3e-5) leaves `x2 - x1` exactly 0, and its union with a
    zero-padded box is 0 / 0 = NaN, in the value and the gradient."""
    wh = tf.Variable([[1e-5, 1e-5], [4.0, 3.0]])
    xy = tf.constant([[400.0, 300.0], [400.0, 300.0]])
    padded = tf.zeros_like(wh)
    with tf.GradientTape() as tape:
        mins, maxes = xy - wh / 2.0, xy + wh / 2.0
        area = (maxes[..., 0] - mins[..., 0]) * (maxes[..., 1] - mins[..., 1])
        inter = tf.zeros_like(area)  # no overlap with a box of no size
        union = area + padded[..., 0] * padded[..., 1] - inter
        iou = inter / union
        total = tf.reduce_sum(iou)
    assert union.numpy()[0] == 0.0 and union.numpy()[1] > 0
    assert np.isnan(iou.numpy()[0]) and not np.isnan(iou.numpy()[1])
    assert np.isnan(tape.gradient(total, wh).numpy()[0]).any()


def test_a_clip_whose_upper_bound_rounds_to_one_is_harmless_to_a_log_and_not_to_1_minus():
    p = tf.Variable([0.0, 0.5, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        clipped = tf.clip_by_value(p, 1e-15, 1 - 1e-15)  # the bound is 1.0 in float32
        logged = tf.math.log(clipped)
        complement = tf.math.log(1 - clipped)
    assert clipped.numpy()[2] == 1.0
    assert np.isfinite(logged.numpy()).all()
    assert np.isfinite(tape.gradient(logged, p).numpy()).all()
    assert np.isneginf(complement.numpy()[2])


def test_a_select_by_a_condition_and_its_negation_is_never_zero_where_both_choices_are_not():
    keep = tf.constant([True, False, True, False])
    stride = tf.constant([2.0, 3.0, 0.5, 7.0])
    selected = stride * tf.cast(keep, tf.float32) + tf.cast(tf.logical_not(keep), tf.float32)
    assert selected.numpy().tolist() == [2.0, 1.0, 0.5, 1.0]
    other = tf.constant([False, False, True, True])  # not the negation: both can be false
    both_off = stride * tf.cast(keep, tf.float32) + tf.cast(other, tf.float32)
    assert (both_off.numpy() == 0).any()


def test_a_hand_written_logsumexp_and_softmax_of_very_negative_terms_underflow_to_zero():
    z = tf.constant([[-110.0, -120.0, -130.0]])
    assert np.isneginf(tf.math.log(tf.reduce_sum(tf.exp(z), axis=1)).numpy()).all()
    assert np.isnan((tf.exp(z) / tf.reduce_sum(tf.exp(z), axis=1, keepdims=True)).numpy()).all()
    assert np.isfinite(tf.math.reduce_logsumexp(z, axis=1).numpy()).all()
    assert np.isfinite(tf.nn.softmax(z, axis=1).numpy()).all()


def test_a_trained_variable_that_starts_at_one_crosses_zero_without_landing_on_it():
    scale = tf.Variable(1.0)
    seen = []
    for _ in range(8):  # gradient descent on the loss `scale`, rate 0.3
        with tf.GradientTape() as tape:
            loss = scale * 1.0
        scale.assign_sub(0.3 * tape.gradient(loss, scale))
        seen.append(scale.numpy())
    assert min(seen) < 0 and 0.0 not in seen
    assert np.isnan(tf.math.log(scale).numpy())


def test_the_finfo_limits_the_analysis_knows_are_numpys():
    from nanlint.analysis.evaluator import _FINFO

    for bits, limits in _FINFO.items():
        info = np.finfo(getattr(np, f"float{bits}"))
        for name, number in limits.items():
            assert float(getattr(info, name)) == number, (bits, name)


def test_a_selection_of_the_non_zero_counts_and_a_lift_below_a_threshold_leave_no_zero():
    counts = tf.constant([0.0, 3.0, 0.0, 2.0])
    kept = tf.boolean_mask(counts, tf.math.not_equal(counts, 0))
    assert (kept.numpy() > 0).all()
    assert np.isfinite((tf.boolean_mask([1.0, 2.0, 3.0, 4.0], counts != 0) / kept).numpy()).all()
    empty = tf.boolean_mask(tf.zeros([3]), tf.zeros([3]) != 0)  # nothing kept: nothing to divide
    assert empty.numpy().size == 0 and (empty / tf.reduce_sum(empty)).numpy().size == 0
    tiny = tf.constant(np.finfo(np.float32).tiny)
    probs = tf.nn.softmax(tf.constant([[200.0, 0.0]]))
    assert probs.numpy()[0, 1] == 0.0
    lifted = probs + tf.cast(tf.less(probs, tiny), tf.float32) * tiny
    assert np.isfinite(tf.math.log(lifted).numpy()).all()


@pytest.mark.parametrize("body, code", FORMS)
def test_the_forms_are_reported(body, code):
    codes = {f.code for f in lint_source(_loss(body), "m.py", options_for())}
    assert code in codes


@pytest.mark.parametrize("body", GUARDED)
def test_the_guarded_forms_are_not(body):
    assert [f.code for f in lint_source(_loss(body), "m.py", options_for())] == []


def test_a_root_of_data_statistics_passes_no_gradient_to_the_weights_but_to_the_data():
    # A constant column: its variance is 0, where the root's gradient is infinite. The
    # weights' gradient never passes through it (no weight is upstream of the data); the
    # data's gradient does, once the data is watched (adversarial examples, saliency).
    data = tf.constant(np.full((16, 4), 3.0, np.float32))
    w = tf.Variable(ROWS[:4, :1])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(data)
        spread = tf.sqrt(tf.math.reduce_variance(data, axis=0))
        loss = tf.reduce_sum(tf.matmul(data, w) * tf.reduce_sum(spread))
    assert float(tf.reduce_max(spread)) == 0.0
    assert np.isfinite(tape.gradient(loss, w).numpy()).all()
    assert not np.isfinite(tape.gradient(loss, data).numpy()).all()


def test_a_sampler_never_draws_a_class_whose_log_probability_is_minus_infinity():
    # log(softmax) underflows to -inf for a far-behind logit; as the logits of a sampler it
    # is a probability of exactly 0: never drawn, and the draws are integers (no gradient).
    logits = tf.constant([[0.0, -200.0, 1.0]] * 64)
    log_prob = tf.math.log(tf.nn.softmax(logits))
    assert np.isneginf(log_prob.numpy()[:, 1]).all()
    draws = tf.random.categorical(log_prob, 500, seed=1).numpy()
    assert draws.dtype.kind == "i" and set(np.unique(draws)) == {0, 2}
    assert set(np.unique(tf.random.categorical(log_prob, 500, seed=2).numpy())) == {0, 2}


# The calls after which no gradient goes back (nanlint.analysis.sinks.without_gradient); the
# first is the control: through an identity the root's infinite gradient at 0 is NaN.
THROUGH = {
    "identity": lambda v: tf.identity(v),
    "stop_gradient": lambda v: tf.stop_gradient(v),
    "numpy_function": lambda v: tf.numpy_function(lambda a: a * 2.0, [v], tf.float32),
    "integer cast": lambda v: tf.cast(tf.cast(v, tf.int32), tf.float32),
    "boolean cast": lambda v: tf.cast(tf.cast(v, tf.bool), tf.float32),
    "round": lambda v: tf.round(v),
    "floor": lambda v: tf.floor(v),
    "sign": lambda v: tf.sign(v),
    "argmax": lambda v: tf.cast(tf.argmax(v), tf.float32),
    "equal": lambda v: tf.cast(tf.equal(v, 2.0), tf.float32),
    "categorical draws": lambda v: tf.cast(tf.random.categorical(v[None], 1), tf.float32),
}


@pytest.mark.parametrize("name", sorted(THROUGH))
def test_a_root_behind_a_call_without_gradient_leaves_the_weights_gradient_finite(name):
    w = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        root = tf.reduce_sum(tf.sqrt(0.0 * THROUGH[name](w)))  # a root at exactly 0
        loss = root + tf.reduce_sum(w)
    gradient = tape.gradient(loss, w).numpy()
    assert np.isfinite(gradient).all() == (name != "identity")


def test_py_function_passes_the_gradient_through():
    # Unlike numpy_function, tf.py_function is differentiated in eager mode: not a cut.
    w = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        doubled = tf.py_function(lambda a: a * 2.0, [w], tf.float32)
        loss = tf.reduce_sum(tf.sqrt(0.0 * doubled)) + tf.reduce_sum(w)
    assert np.isnan(tape.gradient(loss, w).numpy()).all()


def test_a_gradient_override_map_replaces_the_roots_gradient():
    graph = tf.Graph()
    with graph.as_default():
        name = "NanlintTestSafeSqrt"

        @tf.RegisterGradient(name)
        def _safe(op, grad):
            return grad * 0.5 / (op.outputs[0] + 1e-6)

        w = tf.compat.v1.Variable([1.0, 2.0, 3.0])
        with graph.gradient_override_map({"Sqrt": name}):
            overridden = tf.reduce_sum(tf.sqrt(0.0 * w))
        plain = tf.reduce_sum(tf.sqrt(0.0 * w))
        gradients = [tf.compat.v1.gradients(overridden, w)[0],
                     tf.compat.v1.gradients(plain, w)[0]]
        with tf.compat.v1.Session(graph=graph) as session:
            session.run(tf.compat.v1.global_variables_initializer())
            replaced, natural = session.run(gradients)
    assert np.isfinite(replaced).all()
    assert np.isnan(natural).all()


def test_a_cond_on_the_quotients_nan_replaces_an_empty_masks_mean_and_its_gradient():
    # The mean over an empty mask is 0 / 0; a cond that tests the quotient for NaN takes the
    # other branch, and the gradient of the branch not taken is never computed.
    values = tf.Variable([1.0, 2.0, 3.0])
    mask = tf.zeros([3])
    with tf.GradientTape() as tape:
        mean = tf.reduce_sum(values * mask) / tf.reduce_sum(mask)
        fixed = tf.cond(tf.reduce_any(tf.math.is_nan(mean)), lambda: tf.zeros_like(mean),
                        lambda: mean)
    assert np.isnan(mean.numpy()) and fixed.numpy() == 0.0
    gradient = tape.gradient(fixed, values)
    assert gradient is None or np.isfinite(gradient.numpy()).all()
    with tf.GradientTape() as tape:
        bare = tf.reduce_sum(values * mask) / tf.reduce_sum(mask)
    assert np.isnan(tape.gradient(bare, values).numpy()).all()


def test_a_clip_bound_is_held_in_the_tensors_dtype():
    """`1 - 1e-10` is 1.0 once it meets a float32 tensor: a probability clipped to it still
    reaches 1, and the log of `1 - p` is -inf; a bound float32 holds, or float64, keeps it."""
    p = tf.sigmoid(tf.constant([20.0, 100.0]))
    clipped = tf.clip_by_value(p, 1e-10, 1 - 1e-10)
    assert clipped.numpy().max() == 1.0
    assert np.isneginf(tf.math.log(1 - clipped).numpy()).any()
    held = tf.clip_by_value(p, 1e-7, 1 - 1e-7)
    assert np.isfinite(tf.math.log(1 - held).numpy()).all()
    wide = tf.clip_by_value(tf.cast(p, tf.float64), 1e-10, 1 - 1e-10)
    assert np.isfinite(tf.math.log(1 - wide).numpy()).all()


def test_an_epsilon_float32_cannot_hold_is_no_floor():
    """`1e-50` is 0 once it meets a float32 tensor: the maximum of a relu and it is 0 where
    the relu is, and its log -inf; `1e-30` is a float32 number and keeps the log finite."""
    dead = tf.nn.relu(tf.constant([-1.0, 2.0]))
    assert np.isneginf(tf.math.log(tf.maximum(dead, 1e-50)).numpy()).any()
    assert np.isfinite(tf.math.log(tf.maximum(dead, 1e-30)).numpy()).all()
    p = tf.minimum(tf.sigmoid(tf.constant([100.0])), 1 - 1e-10)
    assert np.isneginf(tf.math.log(1 - p).numpy()).all()


# -- numpy: the same facts of arrays, at float64's limits --------------------------------------
@pytest.mark.parametrize("dtype", sorted(EXP_LIMITS))
def test_the_exp_limits_messages_state(dtype):
    """exp is inf just above the limit a message states and finite at it; exactly 0 just
    below the other (numpy and TF alike), and under numpy not 0 just above it (TF flushes
    the subnormals there to 0 already)."""
    _, above, below = exp_limits(dtype)
    with np.errstate(all="ignore"):
        at = np.array([above, above + 1, below - 1, below + 1], dtype=dtype)
        for out in (np.exp(at), tf.exp(tf.constant(at)).numpy()):
            assert np.isfinite(out[0]) and np.isinf(out[1]) and out[2] == 0
        assert np.exp(at)[3] > 0


def test_numpy_hand_written_softmax_and_the_log_space_forms_the_help_writes():
    """A numpy softmax of logits 1000 apart holds an exact 0 (its log -inf, a cross-entropy
    NaN), unshifted it is inf / inf; `z - logaddexp.reduce(z)`, `logaddexp(0, z)` and
    `-logaddexp(0, -z)` give the log-softmax, softplus and log-sigmoid, finite and equal
    where the naive forms are."""
    z = np.array([[-1000.0, 0.0, 1000.0], [0.1, 0.2, 0.3]])
    with np.errstate(all="ignore"):
        shifted = np.exp(z - z.max(axis=-1, keepdims=True))
        probs = shifted / shifted.sum(axis=-1, keepdims=True)
        assert (probs[0] == 0).any() and np.isneginf(np.log(probs[0])).any()
        assert np.isnan(np.sum(np.zeros(3) * np.log(probs[0])))
        assert np.isnan(np.exp(z[0]) / np.sum(np.exp(z[0]))).any()
        naive_softplus = np.log(1.0 + np.exp(z))
        naive_log_sigmoid = np.log(1.0 / (1.0 + np.exp(-z)))
    log_softmax = z - np.logaddexp.reduce(z, axis=-1, keepdims=True)
    assert np.isfinite(log_softmax).all()
    np.testing.assert_allclose(log_softmax[1], np.log(probs[1]), rtol=1e-12)
    assert np.isinf(naive_softplus[0, 2]) and np.isfinite(np.logaddexp(0, z)).all()
    np.testing.assert_allclose(np.logaddexp(0, z[1]), naive_softplus[1], rtol=1e-12)
    assert np.isfinite(-np.logaddexp(0, -z)).all()
    np.testing.assert_allclose(-np.logaddexp(0, -z[1]), naive_log_sigmoid[1], rtol=1e-12)


def test_a_log_of_probabilities_is_at_most_0_and_a_tempered_softmax_of_it_is_finite():
    logits = tf.constant(np.concatenate([ROWS * 30.0, np.full((1, 128), 0.0, np.float32),
                                         np.linspace(-1e4, 1e4, 128, dtype=np.float32)[None]]))
    log_probs = tf.math.log(tf.nn.softmax(logits))
    finite = log_probs.numpy()[np.isfinite(log_probs.numpy())]
    assert finite.max() <= 0.0  # the log grows: of a value at most 1, at most 0
    for temperature in (0.2, 0.7, 1.5):
        scaled = tf.exp(log_probs / temperature)  # at most 1: no overflow
        row_sums = tf.reduce_sum(scaled, axis=-1)
        assert np.isfinite(scaled.numpy()).all()
        assert (row_sums.numpy() > 0).all()  # the largest probability keeps each row above 0


def test_a_clip_to_a_floor_of_zero_is_zero_below_it_as_a_maximum_with_zeros_is():
    # clip(x, 0, h) is min(max(x, 0), h), as maximum(x, zeros_like(x)) is a relu: exactly 0
    # wherever x is not positive (a log of it is -inf), and a root's gradient is infinite
    # where x is 0 (below it the clip's gradient is 0: TensorFlow selects, not multiplies)
    x = tf.Variable([-2.0, -1e-30, 0.0, 0.5, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        clipped = tf.clip_by_value(x, 0.0, 1.0)
        relu = tf.maximum(x, tf.zeros_like(x))
        roots = [tf.reduce_sum(tf.sqrt(clipped)), tf.reduce_sum(tf.sqrt(relu))]
    for value in (clipped, relu):
        assert (value.numpy()[:3] == 0).all()
        assert np.isneginf(tf.math.log(value).numpy()[:3]).all()
    for root in roots:
        assert np.isinf(tape.gradient(root, x).numpy()[2])
    # a positive value's maximum with zeros is that value: no zero
    assert (tf.maximum(tf.zeros_like(x), tf.exp(x)).numpy() > 0).all()


def test_a_distribution_made_from_a_saturated_softmax_is_nan_and_from_its_logits_not():
    # NAN103: `Categorical(probs=softmax(z))` takes the log of the probabilities.
    distributions = tf.compat.v1.distributions
    z = tf.Variable([[0.0, 200.0]])
    with tf.GradientTape(persistent=True) as tape:
        made = distributions.Categorical(probs=tf.nn.softmax(z))
        log_prob, entropy = made.log_prob([0]), made.entropy()
        stable = distributions.Categorical(logits=z)
        stable_log_prob, stable_entropy = stable.log_prob([0]), stable.entropy()
    assert np.isneginf(log_prob.numpy()).all() and np.isnan(entropy.numpy()).all()
    assert np.isnan(tape.gradient(log_prob, z).numpy()).any()
    assert stable_log_prob.numpy()[0] == pytest.approx(-200.0)
    assert np.isfinite(stable_entropy.numpy()).all()
    assert np.isfinite(tape.gradient(stable_log_prob, z).numpy()).all()


MIN_MAX = """import tensorflow as tf


def scaled(x):
    return (x - tf.reduce_min(x)) / (tf.reduce_max(x) - tf.reduce_min(x))


def shifted(x, y):
    return x / (tf.reduce_max(x) - tf.reduce_min(y))


def loss(y, p):
    return tf.reduce_mean(tf.square(y - scaled(p))) + tf.reduce_mean(shifted(p, y))
"""


def test_the_range_of_a_constant_input_is_zero_and_min_max_scaling_is_nan():
    constant = tf.fill([4, 3], 0.7)
    assert float(tf.reduce_max(constant) - tf.reduce_min(constant)) == 0.0
    assert np.isnan(((constant - tf.reduce_min(constant))
                     / (tf.reduce_max(constant) - tf.reduce_min(constant))).numpy()).all()
    found = lint_source(MIN_MAX, "scale.py", options_for(["NAN101"]))
    assert [(f.line, "the range" in f.message) for f in found] == [(5, True)]


PENALTIES = """import tensorflow as tf


def gradient_penalty(critic, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = critic(x)
    g = tape.gradient(out, x)
    per_example = tf.sqrt(tf.reduce_sum(tf.square(g), axis=-1))
    whole = tf.sqrt(tf.reduce_sum(tf.square(g)))
    return tf.reduce_mean((per_example - 1.0) ** 2) + tf.norm(g) + whole
"""


def test_an_input_gradient_is_zero_in_an_example_not_over_the_batch():
    # A relu critic dead on one example: that row's input gradient is exactly 0 (the
    # per-example root's gradient is NaN there); the batch's whole gradient is not 0.
    weights = tf.constant([[1.0, 1.0], [1.0, 1.0]])
    x = tf.constant([[-3.0, -2.0], [1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.reduce_sum(tf.nn.relu(tf.matmul(x, weights)), axis=-1)
    g = tape.gradient(out, x)
    assert float(tf.norm(g[0])) == 0.0 and float(tf.norm(g)) > 0.0
    with tf.GradientTape() as outer:
        outer.watch(g)
        per_example = tf.sqrt(tf.reduce_sum(tf.square(g), axis=-1))
    assert np.isnan(outer.gradient(per_example, g).numpy()[0]).all()
    found = lint_source(PENALTIES, "gp.py", options_for(["NAN201", "NAN202"]))
    assert [f.line for f in found] == [9]


SQUASHED = """import tensorflow as tf


def log_prob_correction(u):
    free = tf.math.log(1.0 - tf.tanh(u) ** 2)
    bounded = tf.math.log(1.0 - tf.tanh(tf.clip_by_value(u, -5.0, 5.0)) ** 2)
    return free + bounded
"""


def test_a_tanh_reaches_one_past_7_9_and_not_of_an_input_bounded_inside():
    assert float(tf.tanh(tf.constant(7.9))) < 1.0
    assert float(tf.tanh(tf.constant(7.95))) == 1.0
    assert float(tf.tanh(tf.constant(-7.95))) == -1.0
    assert np.isinf(np.log(1.0 - tf.tanh(tf.constant(8.0)).numpy() ** 2))
    assert np.isfinite(np.log(1.0 - tf.tanh(tf.constant(5.0)).numpy() ** 2))
    found = lint_source(SQUASHED, "sac.py", options_for(["NAN102"]))
    assert [f.line for f in found] == [5]


SPANS = """import numpy as np
import tensorflow as tf


def positions(n, x):
    r = tf.cast(tf.range(n), tf.float32)
    s = tf.cast(tf.range(1, n + 1), tf.float32)
    t = tf.linspace(0.0, 1.0, n)
    ranks = np.arange(n)
    ranks[0] = 1
    squashed = np.tanh(np.linspace(-2.0, 2.0, n))
    return x / r + x / s + tf.math.log(t) + x / ranks + x / (1.0 - squashed)
"""


def test_a_span_lies_between_its_ends_and_starts_at_its_start():
    from keras import ops

    for made in (tf.linspace(-2.0, 2.0, 7), tf.range(-3.0, 4.0), ops.linspace(-2.0, 2.0, 7),
                 ops.arange(-3.0, 4.0), np.linspace(-2.0, 2.0, 7), np.arange(-3.0, 4.0)):
        values = np.asarray(made)
        assert values.min() >= -3.0 and values.max() <= 4.0 and values[0] in (-2.0, -3.0)
    assert float(tf.range(5)[0]) == 0.0 and float(np.arange(5)[0]) == 0.0
    assert float(tf.linspace(0.0, 1.0, 5)[0]) == 0.0
    assert np.isinf(tf.math.log(tf.linspace(0.0, 1.0, 5)).numpy()[0])
    assert np.tanh(np.linspace(-2.0, 2.0, 1000)).max() < 0.97
    found = lint_source(SPANS, "spans.py", options_for(["NAN101", "NAN102"]))
    assert sorted((f.line, f.code) for f in found) == [(12, "NAN101"), (12, "NAN102")]
    assert all("whose first value is its start, 0" in f.message for f in found)
