"""Gamma conversion: y is clamped to [0, 1] and raised to 1/2.4 with tf.pow; the gradient
of a fractional power at exactly 0 is inf and the next step is NaN. Workaround in the
thread: clamp to 1e-5 instead of 0.

project: tensorflow/tensorflow
source: https://github.com/tensorflow/tensorflow/issues/2295
"""
import tensorflow as tf


def to_gamma(y):
    y = tf.minimum(tf.maximum(y, 0.0), 1.0)
    gamma = tf.constant(1.0/2.4, tf.float32)
    y = tf.pow(y, gamma)  # error: NAN201
    return y


def to_gamma_workaround(y):
    y = tf.minimum(tf.maximum(y, 1e-5), 1.0)
    gamma = tf.constant(1.0/2.4, tf.float32)
    return tf.pow(y, gamma)  # ok: NAN201
