"""A TensorFlow example about saving and restoring variables trains MNIST with a
cross-entropy written as -reduce_sum(labels * tf.log(probs)), probs coming from
tf.nn.softmax. When a probability reaches 0 the log is -inf and the loss inf or NaN. The
thread suggests tf.log(probs + 1e-8).

project: jxyyjm/tensorflow_test
source: https://github.com/jxyyjm/tensorflow_test/issues/3
file: src/simple_saveAndReloadModel.py (save_model_variables)
"""
import tensorflow as tf


def build_and_train_op():
    images = tf.placeholder(tf.float32, [None, 784])
    kernel = tf.Variable(tf.zeros([784, 10]))
    offset = tf.Variable(tf.zeros([10]))
    probs = tf.nn.softmax(tf.matmul(images, kernel) + offset)
    onehot = tf.placeholder('float', [None, 10])
    xent = -tf.reduce_sum(onehot * tf.log(probs))  # error: NAN103
    return tf.train.GradientDescentOptimizer(0.01).minimize(xent)


def xent_clipped(onehot, probs):
    return -tf.reduce_sum(onehot * tf.log(tf.clip_by_value(probs, 1e-8, 1.0)))  # ok: NAN103
