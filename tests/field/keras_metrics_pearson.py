"""Pearson-correlation metric for Keras: r = r_num / sqrt(sum(xm^2) * sum(ym^2)); a batch in
which the predictions (or the targets) are constant has zero centered sum of squares and
the metric is 0/0 = NaN. A pull request adds smoothing to the denominator.

project: WenYanger/Keras_Metrics
source: https://github.com/WenYanger/Keras_Metrics/pull/1
file: PearsonCorr.py (pearson_r)
"""
from keras import backend as K


def pearson_r(y_true, y_pred):
    x = y_true
    y = y_pred
    mx = K.mean(x, axis=0)
    my = K.mean(y, axis=0)
    xm, ym = x - mx, y - my
    r_num = K.sum(xm * ym)
    x_square_sum = K.sum(xm * xm)
    y_square_sum = K.sum(ym * ym)
    r_den = K.sqrt(x_square_sum * y_square_sum)
    r = r_num / r_den  # error: NAN101 -- found since issue 16 (was a miss): squares and roots in other spellings: x * x as a square (centered sum under sqrt)
    return K.mean(r)
