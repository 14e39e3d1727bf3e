"""Relation-extraction CNN: -reduce_sum(y_ * tf.log(self.y_conv)) with self.y_conv a
tf.nn.softmax output: log(0) once a class probability underflows, loss NaN. Suggested fix:
tf.log(self.y_conv + 1e-8) or a clip.

project: hadyelsahar/CNN-RelationExtraction
source: https://github.com/hadyelsahar/CNN-RelationExtraction/issues/8
file: CNN.py (CNN.__init__)
"""
import tensorflow as tf


class CNN(object):
    def __init__(self, h_fc1_drop, W_fc2, b_fc2, n_classes):
        self.y_ = tf.placeholder("float", [None, n_classes])
        self.y_conv = tf.nn.softmax(tf.matmul(h_fc1_drop, W_fc2) + b_fc2)

        cross_entropy = -tf.reduce_sum(self.y_ * tf.log(self.y_conv))  # error: NAN103

        self.train_step = tf.train.AdamOptimizer(1e-3).minimize(cross_entropy)
        self.correct_prediction = tf.equal(tf.argmax(self.y_conv, 1), tf.argmax(self.y_, 1))
