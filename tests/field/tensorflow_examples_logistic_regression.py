"""A logistic-regression example on MNIST writes the cross-entropy as
-sum(y * tf.log(p)) with p the softmax of the logits: a class probability that underflows
to 0 gives log(0) = -inf and the cost becomes inf or NaN. The example now clips p into
[1e-10, 1] before the log.

project: aymericdamien/TensorFlow-Examples
source: https://github.com/aymericdamien/TensorFlow-Examples/issues/383
file: examples/2_BasicModels/logistic_regression.py
"""
import tensorflow as tf

rate = 0.01
images = tf.placeholder(tf.float32, [None, 784])
onehot = tf.placeholder(tf.float32, [None, 10])
kernel = tf.Variable(tf.zeros([784, 10]))
offset = tf.Variable(tf.zeros([10]))
probs = tf.nn.softmax(tf.matmul(images, kernel) + offset)

xent = tf.reduce_mean(-tf.reduce_sum(onehot*tf.log(probs), reduction_indices=1))  # error: NAN103
xent_clipped = tf.reduce_mean(-tf.reduce_sum(onehot*tf.log(tf.clip_by_value(probs,1e-10,1.0)), reduction_indices=1))  # ok: NAN103
minimize = tf.train.GradientDescentOptimizer(rate).minimize(xent)
