"""Keras 1 sample-wise normalization divided by K.std(x), i.e. sqrt(var(x)); for a zero
(or constant) input the variance is 0 and the gradient of the sqrt is inf. Fixed by
introducing K.var and K.sqrt(K.var(x) + epsilon).

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/2960
fixed: https://github.com/keras-team/keras/pull/2961
file: keras/layers/normalization.py (BatchNormalization.call, mode 1)
"""
from keras import backend as K
from keras.engine import Layer


class BatchNormalization(Layer):
    def call(self, x, mask=None):
        if self.mode == 1:
            m = K.mean(x, axis=-1, keepdims=True)
            std = K.std(x, axis=-1, keepdims=True)  # error: NAN201 -- std as a zero source: K.std is sqrt(variance), 0 for a constant row
            x_normed = (x - m) / (std + self.epsilon)
            return self.gamma * x_normed + self.beta


class BatchNormalizationFixed(Layer):
    def call(self, x, mask=None):
        if self.mode == 1:
            m = K.mean(x, axis=-1, keepdims=True)
            std = K.sqrt(K.var(x, axis=-1, keepdims=True) + self.epsilon)  # ok: NAN201
            x_normed = (x - m) / (std + self.epsilon)
            return self.gamma * x_normed + self.beta
