"""A CNN for relation extraction builds its cross-entropy by hand, taking tf.log of the
probabilities that tf.nn.softmax produced and kept on the model object. When one class
probability underflows to 0 the log is -inf and the loss NaN. The thread suggests adding
1e-8 inside the log or clipping the probabilities.

project: hadyelsahar/CNN-RelationExtraction
source: https://github.com/hadyelsahar/CNN-RelationExtraction/issues/8
file: CNN.py (CNN.__init__)
"""
import tensorflow as tf


class RelationClassifier(object):
    def __init__(self, features, out_weights, out_bias, relation_count):
        self.gold = tf.placeholder("float", [None, relation_count])
        self.class_scores = tf.nn.softmax(tf.matmul(features, out_weights) + out_bias)

        xent = -tf.reduce_sum(self.gold * tf.log(self.class_scores))  # error: NAN103

        self.step = tf.train.AdamOptimizer(1e-3).minimize(xent)
        self.hits = tf.equal(tf.argmax(self.class_scores, 1), tf.argmax(self.gold, 1))
