"""Keras training: a masked loss is divided by K.mean(mask), which is 0 when every timestep
of a batch is masked, and by the fraction of non-zero sample weights, which is 0 when all
weights of a small batch are 0: the loss is NaN. The issue names both divisions; the mask
one was fixed with + K.epsilon() (the weights line as quoted is reconstructed from the
issue's description).

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/3270
fixed: https://github.com/keras-team/keras/pull/11643
file: keras/engine/training_utils.py (weighted_masked_objective)
"""
from keras import backend as K


def weighted_masked_objective(fn):
    def weighted(y_true, y_pred, weights, mask=None):
        score_array = fn(y_true, y_pred)
        if mask is not None:
            mask = K.cast(mask, K.floatx())
            score_array *= mask
            score_array /= K.mean(mask)  # error: NAN101 -- mask count: K.mean of a mask parameter
        ndim = K.ndim(score_array)
        weight_ndim = K.ndim(weights)
        score_array = K.mean(score_array, axis=list(range(weight_ndim, ndim)))
        score_array *= weights
        score_array /= K.mean(K.cast(K.not_equal(weights, 0), K.floatx()))  # error: NAN101
        return K.mean(score_array)
    return weighted


def weighted_masked_objective_fixed(fn):
    def weighted(y_true, y_pred, weights, mask=None):
        score_array = fn(y_true, y_pred)
        if mask is not None:
            mask = K.cast(mask, K.floatx())
            score_array *= mask
            score_array /= K.mean(mask) + K.epsilon()  # ok: NAN101
        return K.mean(score_array)
    return weighted
