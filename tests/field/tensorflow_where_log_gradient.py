"""Masking a log with tf.where(x >= 0, alpha * log(x), 0) protects the value only: the
gradient still flows through the log branch at the negative x, and 0 times NaN there makes
the gradient with respect to alpha NaN. The thread's fix gives the risky branch a safe
argument too, replacing x by 1 where it is not positive before the log.

project: tensorflow/tensorflow
source: https://github.com/tensorflow/tensorflow/issues/27684
"""
import numpy as np
import tensorflow as tf

samples = tf.convert_to_tensor(np.random.randn(100).astype(np.float32))
scale = tf.Variable(1, name='scale', dtype=tf.float32, trainable=True)
with tf.GradientTape(persistent=True) as tape:
    positive_only = tf.where(samples > 0, samples, tf.ones_like(samples))
    out = tf.where(samples >= 0, scale * tf.math.log(samples), tf.zeros_like(samples))  # error: NAN204 -- where guard: the unguarded branch of tf.where still takes a gradient
    out_safe = tf.where(samples > 0, scale * tf.math.log(positive_only), tf.zeros_like(samples))  # ok: NAN204
grads = tape.gradient(out, [scale])
