"""Keras 1 Merge(mode='cos') divided by sqrt(<a,a> * <b,b>), which is 0 when either input
is a zero vector: the output is NaN. Fixed with K.maximum(denominator, K.epsilon()).

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/2672
fixed: https://github.com/keras-team/keras/pull/2725
file: keras/engine/topology.py (Merge.call)
"""
from keras import backend as K
from keras.engine import Layer


class Merge(Layer):
    def call(self, inputs, mask=None):
        if self.mode == 'cos':
            l1 = inputs[0]
            l2 = inputs[1]
            denominator = K.sqrt(K.batch_dot(l1, l1, self.dot_axes) *
                                 K.batch_dot(l2, l2, self.dot_axes))
            output = K.batch_dot(l1, l2, self.dot_axes) / denominator  # miss: NAN101 -- unknown input: K.batch_dot(x, x) keeps x's zeros now, but l1, l2 are the layer's inputs with no producer in the file
            output = K.expand_dims(output, 1)
            return output


class MergeFixed(Layer):
    def call(self, inputs, mask=None):
        if self.mode == 'cos':
            l1 = inputs[0]
            l2 = inputs[1]
            denominator = K.sqrt(K.batch_dot(l1, l1, self.dot_axes) *
                                 K.batch_dot(l2, l2, self.dot_axes))
            denominator = K.maximum(denominator, K.epsilon())
            output = K.batch_dot(l1, l2, self.dot_axes) / denominator  # ok: NAN101
            return K.expand_dims(output, 1)
