"""A tutorial fits a line with the TensorFlow getting-started code, changing nothing but
the data, five raw values near 50. Plain gradient descent at 0.01 on the squared error
summed over the batch overshoots more every step, and the printed weight, bias and loss all
turn to nan; a rate near 1e-6, or normalized inputs, trains.

project: llSourcell/linear_regression_live
source: https://github.com/llSourcell/linear_regression_live/issues/4
"""
import tensorflow as tf

slope = tf.Variable([0.3], dtype=tf.float32)
intercept = tf.Variable([-0.3], dtype=tf.float32)
inputs = tf.placeholder(tf.float32)
fitted = slope * inputs + intercept
targets = tf.placeholder(tf.float32)

total_error = tf.reduce_sum(tf.square(fitted - targets))
descent = tf.train.GradientDescentOptimizer(0.01)
step = descent.minimize(total_error)

feed_inputs = [32, 53, 61, 47, 59]
feed_targets = [31, 68, 62, 71, 87]
session = tf.Session()
session.run(tf.global_variables_initializer())
for _ in range(1000):
    session.run(step, {inputs: feed_inputs, targets: feed_targets})  # error: NAN301 (on the training step: rate 0.01 x batch 5 x 2 x E[x^2] is about 265, far above 2; raw literal data, summed error)
