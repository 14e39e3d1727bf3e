"""A colour-space conversion clamps its input to [0, 1] and raises it to the power 1/2.4
with tf.pow. A fractional power has an infinite derivative at exactly 0, so any clamped
pixel sends an inf gradient back and the next step is NaN. The thread's workaround clamps
to 1e-5 from below instead of 0.

project: tensorflow/tensorflow
source: https://github.com/tensorflow/tensorflow/issues/2295
"""
import tensorflow as tf


def encode_gamma(linear):
    linear = tf.minimum(tf.maximum(linear, 0.0), 1.0)
    exponent = tf.constant(1.0/2.4, tf.float32)
    linear = tf.pow(linear, exponent)  # miss: NAN201 -- reach unknown: no objective or convention in the file (suspects ranks it first)
    return linear


def encode_gamma_floor(linear):
    linear = tf.minimum(tf.maximum(linear, 1e-5), 1.0)
    exponent = tf.constant(1.0/2.4, tf.float32)
    return tf.pow(linear, exponent)  # ok: NAN201
