"""Self-driving-car nanodegree TensorFlow lab: -reduce_sum(labels * tf.log(prediction)) with
prediction = tf.nn.softmax(logits); log(0) gave an empty loss plot and accuracy stuck at
0.1 for several students. The moderators' fix: tf.nn.softmax_cross_entropy_with_logits.

project: udacity/CarND-TensorFlow-Lab
source: https://github.com/udacity/sdc-issue-reports/issues/894
file: lab.ipynb (problem 2 cell)
"""
import tensorflow as tf

features = tf.placeholder(tf.float32)
labels = tf.placeholder(tf.float32)
# (the lab leaves the variables to the student; shapes from the lab's asserts)
weights = tf.Variable(tf.truncated_normal((784, 10)))
biases = tf.Variable(tf.zeros(10))

logits = tf.matmul(features, weights) + biases
prediction = tf.nn.softmax(logits)

cross_entropy = -tf.reduce_sum(labels * tf.log(prediction), axis=1)  # error: NAN103
loss = tf.reduce_mean(cross_entropy)
loss_fixed = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))  # ok: NAN103
