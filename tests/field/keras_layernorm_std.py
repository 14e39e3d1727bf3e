"""Keras 1's BatchNormalization in mode 1 (per-sample normalization) divided by K.std(x),
the square root of the variance. A zero or constant input has variance 0 and the square
root's gradient there is infinite. The fix added K.var and computes
K.sqrt(K.var(x) + epsilon) instead.

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/2960
fixed: https://github.com/keras-team/keras/pull/2961
file: keras/layers/normalization.py (BatchNormalization.call, mode 1)
"""
from keras import backend as K
from keras.engine import Layer


class SampleNorm(Layer):
    def call(self, x, mask=None):
        if self.mode != 1:
            return x
        mu = K.mean(x, axis=-1, keepdims=True)
        sigma = K.std(x, axis=-1, keepdims=True)  # error: NAN201 -- std as a zero source: K.std is sqrt(variance), 0 for a constant row
        return self.beta + self.gamma * ((x - mu) / (sigma + self.epsilon))


class SampleNormFromVariance(Layer):
    def call(self, x, mask=None):
        if self.mode != 1:
            return x
        mu = K.mean(x, axis=-1, keepdims=True)
        sigma = K.sqrt(K.var(x, axis=-1, keepdims=True) + self.epsilon)  # ok: NAN201
        return self.beta + self.gamma * ((x - mu) / (sigma + self.epsilon))
