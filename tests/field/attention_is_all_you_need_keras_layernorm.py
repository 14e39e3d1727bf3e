"""Transformer in Keras: LayerNormalization divides by K.std(x), i.e. sqrt(var(x)); for a
constant or all-zero row (padding positions of a masked embedding) the variance is 0 and
the gradient of the sqrt is inf: every loss and metric turns NaN during training.

project: lsdefine/attention-is-all-you-need-keras
source: https://github.com/lsdefine/attention-is-all-you-need-keras/issues/13
file: transformer.py (LayerNormalization.call)
"""
from keras import backend as K
from keras.initializers import Ones, Zeros
from keras.layers import Layer


class LayerNormalization(Layer):
    def __init__(self, eps=1e-6, **kwargs):
        self.eps = eps
        super(LayerNormalization, self).__init__(**kwargs)

    def build(self, input_shape):
        self.gamma = self.add_weight(name='gamma', shape=input_shape[-1:],
                                     initializer=Ones(), trainable=True)
        self.beta = self.add_weight(name='beta', shape=input_shape[-1:],
                                    initializer=Zeros(), trainable=True)
        super(LayerNormalization, self).build(input_shape)

    def call(self, x):
        mean = K.mean(x, axis=-1, keepdims=True)
        std = K.std(x, axis=-1, keepdims=True)  # error: NAN201 -- std as a zero source: K.std is sqrt(variance), 0 for a constant row
        return self.gamma * (x - mean) / (std + self.eps) + self.beta
