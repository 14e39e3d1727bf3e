"""A Keras metric computes Pearson's r as the centered cross sum over
sqrt(sum(dx^2) * sum(dy^2)). In a batch where the predictions (or the targets) are all the
same, the centered sum of squares is 0 and the metric is 0/0 = NaN. A pull request adds a
smoothing term to the denominator.

project: WenYanger/Keras_Metrics
source: https://github.com/WenYanger/Keras_Metrics/pull/1
file: PearsonCorr.py (pearson_r)
"""
from keras import backend as K


def correlation(y_true, y_pred):
    dt = y_true - K.mean(y_true, axis=0)
    dp = y_pred - K.mean(y_pred, axis=0)
    cross = K.sum(dt * dp)
    spread_t = K.sum(dt * dt)
    spread_p = K.sum(dp * dp)
    scale = K.sqrt(spread_t * spread_p)
    r = cross / scale  # error: NAN101 -- squares and roots in other spellings: x * x as a square (centered sum under sqrt)
    return K.mean(r)
