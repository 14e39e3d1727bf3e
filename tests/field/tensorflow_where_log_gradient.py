"""tf.where(x >= 0, alpha * log(x), 0): the branch not taken still differentiates log at
negative x, and 0 * NaN poisons the gradient of alpha, which comes out NaN. The thread's fix
is to feed the unsafe branch a safe input as well (safe_x = tf.where(x > 0, x, 1)).

project: tensorflow/tensorflow
source: https://github.com/tensorflow/tensorflow/issues/27684
"""
import numpy as np
import tensorflow as tf

x = tf.convert_to_tensor(np.random.randn(100).astype(np.float32))
alpha = tf.Variable(1, name='asdf', dtype=tf.float32, trainable=True)
with tf.GradientTape(persistent=True) as t:
    safe_x = tf.where(x > 0, x, tf.ones_like(x))
    s = tf.where(x >= 0, alpha * tf.math.log(x), tf.zeros_like(x))  # error: NAN204 -- where guard: the unguarded branch of tf.where still takes a gradient
    s_fixed = tf.where(x > 0, alpha * tf.math.log(safe_x), tf.zeros_like(x))  # ok: NAN204
gradients = t.gradient(s, [alpha])
