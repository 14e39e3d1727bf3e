"""A Keras Transformer's layer normalization divides by K.std over the last axis, the square
root of the variance. A row that is constant, such as an all-zero padding position of a
masked embedding, has variance 0; the square root's gradient there is infinite, and losses
and metrics become NaN as training runs.

project: lsdefine/attention-is-all-you-need-keras
source: https://github.com/lsdefine/attention-is-all-you-need-keras/issues/13
file: transformer.py (LayerNormalization.call)
"""
from keras import backend as K
from keras.initializers import Ones, Zeros
from keras.layers import Layer


class FeatureNorm(Layer):
    """Centers each row on its mean, divides by its spread, then applies a learned affine."""

    def __init__(self, eps=1e-6, **kwargs):
        self.eps = eps
        super().__init__(**kwargs)

    def build(self, input_shape):
        width = input_shape[-1:]
        self.scale = self.add_weight(name='scale', shape=width, initializer=Ones(), trainable=True)
        self.offset = self.add_weight(name='offset', shape=width, initializer=Zeros(), trainable=True)
        super().build(input_shape)

    def call(self, inputs):
        centered = inputs - K.mean(inputs, axis=-1, keepdims=True)
        spread = K.std(inputs, axis=-1, keepdims=True)  # error: NAN201 -- std as a zero source: K.std is sqrt(variance), 0 for a constant row
        return self.offset + self.scale * centered / (spread + self.eps)
