"""MNIST book code: tf.clip_by_value(self.pred, 1e-15, 1.0) is called but its result is
thrown away, so the following tf.log(self.pred) still takes the log of a softmax that can
be 0 (self.pred is set in __init__); the loss becomes NaN. Fix: assign the clipped value.

project: one-leaf/tensorflow
source: https://github.com/one-leaf/tensorflow/issues/6
file: book/deeplearning/code/06-6.py (network.get_loss3)
"""
import tensorflow as tf


class network():
    def __init__(self):
        self.learning_rate = 0.01
        self.x = tf.placeholder(tf.float32, [None, 784], name='x')
        self.y = tf.placeholder(tf.float32, [None, 10], name='y')
        self.w = tf.Variable(tf.random_uniform([784, 10], -1, 1), name="weights")
        self.b = tf.Variable(tf.zeros([10]), name="bias")
        self.full_connect_layer = tf.add(tf.matmul(self.x, self.w), self.b)
        self.pred = tf.nn.softmax(self.full_connect_layer, name='y_pred')

    def get_loss3(self):
        tf.clip_by_value(self.pred, 1e-15, 1.0)
        cross_entropy = tf.reduce_mean(-tf.reduce_sum(self.y*tf.log(self.pred), reduction_indices=1))  # error: NAN103 -- softmax attribute set in another method
        optimizer = tf.train.GradientDescentOptimizer(self.learning_rate).minimize(cross_entropy)
        return cross_entropy, optimizer

    def get_loss_fixed(self):
        self.pred = tf.clip_by_value(self.pred, 1e-15, 1.0)
        return tf.reduce_mean(-tf.reduce_sum(self.y*tf.log(self.pred), reduction_indices=1))  # ok: NAN103
