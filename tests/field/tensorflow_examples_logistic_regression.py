"""Logistic regression tutorial: -sum(y * tf.log(pred)) with pred = tf.nn.softmax(...):
a softmax output that underflows to 0 makes the loss inf/NaN. Upstream now clips pred to
[1e-10, 1].

project: aymericdamien/TensorFlow-Examples
source: https://github.com/aymericdamien/TensorFlow-Examples/issues/383
file: examples/2_BasicModels/logistic_regression.py
"""
import tensorflow as tf

learning_rate = 0.01
x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.float32, [None, 10])
W = tf.Variable(tf.zeros([784, 10]))
b = tf.Variable(tf.zeros([10]))
pred = tf.nn.softmax(tf.matmul(x, W) + b)

cost = tf.reduce_mean(-tf.reduce_sum(y*tf.log(pred), reduction_indices=1))  # error: NAN103
cost_fixed = tf.reduce_mean(-tf.reduce_sum(y*tf.log(tf.clip_by_value(pred,1e-10,1.0)), reduction_indices=1))  # ok: NAN103
optimizer = tf.train.GradientDescentOptimizer(learning_rate).minimize(cost)
