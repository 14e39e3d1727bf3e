"""Getting-started linear regression with x_data = np.arange(100) instead of rand(100):
SGD at 0.5 on the mean squared error diverges (curvature 2*E[x^2] ~ 6600) and W, b become
NaN. The maintainer: scale the data (/ 100) or lower the rate to 1e-4.

project: tensorflow/tensorflow
source: https://github.com/tensorflow/tensorflow/issues/3148
"""
import numpy as np
import tensorflow as tf

x_data = np.arange(100).astype(np.float32)
y_data = x_data * 0.1 + 0.3

W = tf.Variable(tf.random_uniform([1], -1.0, 1.0))
b = tf.Variable(tf.zeros([1]))
y = W * x_data + b

loss = tf.reduce_mean(tf.square(y - y_data))
optimizer = tf.train.GradientDescentOptimizer(0.5)  # miss: NAN301 -- learning rate vs data and loss scale: np.arange(100) inputs
train = optimizer.minimize(loss)

sess = tf.Session()
sess.run(tf.initialize_all_variables())
for step in range(201):
    sess.run(train)
