"""Keras wraps each loss so that it can be masked and sample-weighted. The masked scores were
divided by K.mean(mask), which is 0 once every timestep of a batch is masked out, and the
weighted scores by the share of non-zero sample weights, which is 0 when a small batch has
only zero weights; either way the loss is NaN. The issue points at both divisions. The mask
division was fixed by adding K.epsilon(); the weights division is written here from the
issue's description of it.

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/3270
fixed: https://github.com/keras-team/keras/pull/11643
file: keras/engine/training_utils.py (weighted_masked_objective)
"""
from keras import backend as K


def masked_and_weighted(loss_fn):
    def wrapped(y_true, y_pred, weights, mask=None):
        scores = loss_fn(y_true, y_pred)
        if mask is not None:
            mask = K.cast(mask, K.floatx())
            scores *= mask
            scores /= K.mean(mask)  # error: NAN101 -- mask count: K.mean of a mask parameter
        extra_axes = list(range(K.ndim(weights), K.ndim(scores)))
        scores = K.mean(scores, axis=extra_axes) * weights
        scores /= K.mean(K.cast(K.not_equal(weights, 0), K.floatx()))  # error: NAN101
        return K.mean(scores)
    return wrapped


def masked_with_epsilon(loss_fn):
    def wrapped(y_true, y_pred, weights, mask=None):
        scores = loss_fn(y_true, y_pred)
        if mask is not None:
            mask = K.cast(mask, K.floatx())
            scores *= mask
            scores /= K.mean(mask) + K.epsilon()  # ok: NAN101
        return K.mean(scores)
    return wrapped
