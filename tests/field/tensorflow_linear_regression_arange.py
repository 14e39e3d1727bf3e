"""The getting-started linear regression, run on np.arange(100) instead of uniform random
inputs: gradient descent at 0.5 on the mean squared error has curvature 2*E[x^2], about
6600, so every step overshoots and the weight and bias end up NaN. The maintainer's answer:
divide the data by 100 or use a rate near 1e-4.

project: tensorflow/tensorflow
source: https://github.com/tensorflow/tensorflow/issues/3148
"""
import numpy as np
import tensorflow as tf

xs = np.arange(100).astype(np.float32)
ys = 0.1 * xs + 0.3

weight = tf.Variable(tf.random_uniform([1], -1.0, 1.0))
bias = tf.Variable(tf.zeros([1]))
guess = weight * xs + bias

mse = tf.reduce_mean(tf.square(guess - ys))
sgd = tf.train.GradientDescentOptimizer(0.5)
fit = sgd.minimize(mse)

session = tf.Session()
session.run(tf.initialize_all_variables())
for _ in range(201):
    session.run(fit)  # error: NAN301 (on the training step: 0.5 x 2 x E[x^2] = 0.5 x 6567, far above 2)
