"""A book's MNIST example calls tf.clip_by_value on the softmax output and drops the
result, so the log that follows still sees the unclipped probabilities, which can be
exactly 0, and the cross-entropy goes NaN. The softmax is built in the constructor and
read in another method. The fix keeps the clipped tensor by assigning it back.

project: one-leaf/tensorflow
source: https://github.com/one-leaf/tensorflow/issues/6
file: book/deeplearning/code/06-6.py (network.get_loss3)
"""
import tensorflow as tf


class DigitClassifier():
    def __init__(self):
        self.rate = 0.01
        self.images = tf.placeholder(tf.float32, [None, 784], name='images')
        self.onehot = tf.placeholder(tf.float32, [None, 10], name='onehot')
        self.kernel = tf.Variable(tf.random_uniform([784, 10], -1, 1), name="kernel")
        self.offset = tf.Variable(tf.zeros([10]), name="offset")
        self.scores = tf.add(tf.matmul(self.images, self.kernel), self.offset)
        self.probs = tf.nn.softmax(self.scores, name='probs')

    def clipped_but_discarded_loss(self):
        tf.clip_by_value(self.probs, 1e-15, 1.0)  # the clipped tensor is never used
        xent = tf.reduce_mean(-tf.reduce_sum(self.onehot*tf.log(self.probs), reduction_indices=1))  # error: NAN103 -- softmax attribute set in another method
        train_op = tf.train.GradientDescentOptimizer(self.rate).minimize(xent)
        return xent, train_op

    def clipped_loss(self):
        self.probs = tf.clip_by_value(self.probs, 1e-15, 1.0)
        return tf.reduce_mean(-tf.reduce_sum(self.onehot*tf.log(self.probs), reduction_indices=1))  # ok: NAN103
