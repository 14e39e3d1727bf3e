"""The TensorFlow getting-started linear regression, copied unchanged except for the data:
x_train = [32, 53, 61, 47, 59]. SGD at 0.01 on a summed squared error of raw values of
about 50 diverges: "W: [ nan] b: [ nan] loss: nan" until the rate was lowered to 1e-6
(or the data normalized).

project: llSourcell/linear_regression_live
source: https://github.com/llSourcell/linear_regression_live/issues/4
"""
import tensorflow as tf

W = tf.Variable([.3], dtype=tf.float32)
b = tf.Variable([-.3], dtype=tf.float32)
x = tf.placeholder(tf.float32)
linear_model = W * x + b
y = tf.placeholder(tf.float32)

loss = tf.reduce_sum(tf.square(linear_model - y))
optimizer = tf.train.GradientDescentOptimizer(0.01)
train = optimizer.minimize(loss)

x_train = [32, 53, 61, 47, 59]
y_train = [31, 68, 62, 71, 87]
init = tf.global_variables_initializer()
sess = tf.Session()
sess.run(init)
for i in range(1000):
    sess.run(train, {x: x_train, y: y_train})  # error: NAN301 (reported on the training step: 0.01 x 5 x 2 x E[x^2] = 265 > 2, raw literal data, summed squared error)
