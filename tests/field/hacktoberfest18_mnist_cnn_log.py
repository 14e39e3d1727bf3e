"""An MNIST softmax-regression notebook, exported as a script, writes the cross-entropy as
-reduce_sum(labels * tf.log(probs)) over a tf.nn.softmax output and trains it with plain
gradient descent at 0.5. A softmax entry of exactly 0 makes the loss inf, then NaN. The
thread proposes tf.log(probs + 1e-8) or clipping the probabilities.

project: yshshrm/Data-Structures-And-Algorithms-Hacktoberfest18
source: https://github.com/yshshrm/Data-Structures-And-Algorithms-Hacktoberfest18/issues/1698
file: python/algorithms/Classification Algorithms/MNIST Digit cassification using CNN.py
"""
import tensorflow as tf

session = tf.InteractiveSession()
pixels = tf.placeholder(tf.float32, shape=[None, 784])
digits = tf.placeholder(tf.float32, shape=[None, 10])
weights = tf.Variable(tf.zeros([784, 10], tf.float32))
bias = tf.Variable(tf.zeros([10], tf.float32))
session.run(tf.initialize_all_variables())
probs = tf.nn.softmax(tf.matmul(pixels, weights) + bias)
per_image = -tf.reduce_sum(digits * tf.log(probs), reduction_indices=[1])  # error: NAN103
step = tf.train.GradientDescentOptimizer(0.5).minimize(tf.reduce_mean(per_image))
