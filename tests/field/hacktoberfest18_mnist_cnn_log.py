"""MNIST softmax-regression notebook (exported to .py): -reduce_sum(y_ * tf.log(y)) with
y = tf.nn.softmax(...) and SGD at 0.5; a softmax output of 0 gives an inf/NaN loss.
Suggested fix: tf.log(y + 1e-8) or a clip.

project: yshshrm/Data-Structures-And-Algorithms-Hacktoberfest18
source: https://github.com/yshshrm/Data-Structures-And-Algorithms-Hacktoberfest18/issues/1698
file: python/algorithms/Classification Algorithms/MNIST Digit cassification using CNN.py
"""
import tensorflow as tf

sess = tf.InteractiveSession()
x = tf.placeholder(tf.float32, shape=[None, 784])
y_ = tf.placeholder(tf.float32, shape=[None, 10])
W = tf.Variable(tf.zeros([784, 10], tf.float32))
b = tf.Variable(tf.zeros([10], tf.float32))
sess.run(tf.initialize_all_variables())
y = tf.nn.softmax(tf.matmul(x, W) + b)
cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))  # error: NAN103
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)
