"""A user fits an exponential signal with a two-layer network whose output is a softmax,
scored by reduce_mean(target * tf.log(output)) and trained by gradient descent at 0.5. The
reported error is NaN: the cost lacks its minus sign, so minimizing it pushes the softmax
probabilities toward 0, where their log is -inf.

project: tensorflow/tensorflow
source: https://github.com/tensorflow/tensorflow/issues/2403
"""
import tensorflow as tf

signal = tf.placeholder(tf.float32, shape=(10,))
target = tf.placeholder(tf.float32, shape=(10,))
k1 = tf.Variable(tf.truncated_normal([10, 10], stddev=.1))
c1 = tf.Variable(.1)
h = tf.nn.relu(tf.matmul(tf.reshape(signal, [1, 10]), k1) + c1)
k2 = tf.Variable(tf.truncated_normal([10, 10], stddev=.1))
c2 = tf.Variable(.1)
output = tf.nn.softmax(tf.matmul(h, k2) + c2)
score = tf.reduce_mean(target * tf.log(output))  # error: NAN103
fit = tf.train.GradientDescentOptimizer(.5).minimize(score)
