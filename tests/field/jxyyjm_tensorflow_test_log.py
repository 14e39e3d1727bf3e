"""MNIST save/reload example: cross_entropy = -reduce_sum(y_ * tf.log(y)) with
y = tf.nn.softmax(...): log(0) gives an inf/NaN loss. Suggested fix: tf.log(y + 1e-8).

project: jxyyjm/tensorflow_test
source: https://github.com/jxyyjm/tensorflow_test/issues/3
file: src/simple_saveAndReloadModel.py (save_model_variables)
"""
import tensorflow as tf


def save_model_variables():
    x = tf.placeholder(tf.float32, [None, 784])
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    y = tf.nn.softmax(tf.matmul(x, W) + b)
    y_ = tf.placeholder('float', [None, 10])
    cross_entropy = -tf.reduce_sum(y_ * tf.log(y))  # error: NAN103
    train_step = tf.train.GradientDescentOptimizer(0.01).minimize(cross_entropy)
    return train_step


def fixed(y_, y):
    return -tf.reduce_sum(y_ * tf.log(tf.clip_by_value(y, 1e-8, 1.0)))  # ok: NAN103
