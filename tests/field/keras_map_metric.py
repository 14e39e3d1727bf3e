"""A user's mean-average-precision metric divides each row's summed precision by the number
of relevant items among the top k, a tf.reduce_sum over the labels put in ranked order. A
row with no hits makes that count 0, and the metric reads NaN on the training set. The
thread's fix adds "a buffer" to the denominator; the stored thread cuts off its value, so
the fixed form below uses 1e-7.

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/5078
"""
import tensorflow as tf


def map_at_k(y_true, y_pred):
    shape = tf.shape(y_true)
    rows, k = shape[0], shape[1]
    _, ranking = tf.nn.top_k(y_pred, k)
    stacked = tf.concat(1, [tf.to_float(y_true), tf.to_float(ranking)])
    stacked = tf.reshape(stacked, [rows, 2, k])

    def row_precision(pair):
        relevance, order = pair[0], tf.to_int32(pair[1])
        hits_in_order = tf.gather(relevance, order)
        at_rank = hits_in_order * tf.cumsum(hits_in_order) / tf.to_float(tf.range(1, k + 1))
        ap = tf.reduce_sum(at_rank) / tf.reduce_sum(hits_in_order)  # error: NAN101 -- mask count: label tensor summed inside a tf.map_fn body
        return ap

    return tf.reduce_mean(tf.map_fn(row_precision, stacked))


def row_precision_buffered(hits_in_order, at_rank):
    return tf.reduce_sum(at_rank) / (tf.reduce_sum(hits_in_order) + 1e-7)  # ok: NAN101
