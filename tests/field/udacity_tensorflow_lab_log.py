"""In a self-driving-car course's TensorFlow lab the cross-entropy is
-reduce_sum(labels * tf.log(softmax(logits))): a probability that reaches 0 makes the log
-inf, and several students got an empty loss plot with accuracy stuck at 0.1. The
moderators pointed to tf.nn.softmax_cross_entropy_with_logits.

project: udacity/CarND-TensorFlow-Lab
source: https://github.com/udacity/sdc-issue-reports/issues/894
file: lab.ipynb (problem 2 cell)
"""
import tensorflow as tf

images = tf.placeholder(tf.float32)
onehot = tf.placeholder(tf.float32)
# (the students write the variables themselves; the shapes follow the lab's checks)
kernel = tf.Variable(tf.truncated_normal((784, 10)))
offset = tf.Variable(tf.zeros(10))

scores = tf.matmul(images, kernel) + offset
probs = tf.nn.softmax(scores)

per_example = -tf.reduce_sum(onehot * tf.log(probs), axis=1)  # error: NAN103
mean_loss = tf.reduce_mean(per_example)
mean_loss_stable = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=onehot, logits=scores))  # ok: NAN103
