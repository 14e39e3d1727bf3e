"""Keras 1's Merge layer in mode='cos' divided the dot product of its two inputs by
sqrt(<a,a> * <b,b>). If either input is a zero vector that denominator is 0 and the output
NaN. The fix floors the denominator with K.maximum(denominator, K.epsilon()).

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/2672
fixed: https://github.com/keras-team/keras/pull/2725
file: keras/engine/topology.py (Merge.call)
"""
from keras import backend as K
from keras.engine import Layer


class CosineMerge(Layer):
    def call(self, inputs, mask=None):
        if self.mode != 'cos':
            return None
        l1, l2 = inputs[0], inputs[1]
        norms = K.sqrt(K.batch_dot(l1, l1, self.dot_axes) *
                       K.batch_dot(l2, l2, self.dot_axes))
        cosine = K.batch_dot(l1, l2, self.dot_axes) / norms  # miss: NAN101 -- unknown input: K.batch_dot(x, x) keeps x's zeros now, but l1, l2 are the layer's inputs with no producer in the file
        return K.expand_dims(cosine, 1)


class CosineMergeFloored(Layer):
    def call(self, inputs, mask=None):
        if self.mode != 'cos':
            return None
        l1, l2 = inputs[0], inputs[1]
        norms = K.maximum(K.sqrt(K.batch_dot(l1, l1, self.dot_axes) *
                                 K.batch_dot(l2, l2, self.dot_axes)), K.epsilon())
        cosine = K.batch_dot(l1, l2, self.dot_axes) / norms  # ok: NAN101
        return K.expand_dims(cosine, 1)
