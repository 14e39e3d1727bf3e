"""A user's mean-average-precision metric divides by the number of relevant items in the
top k, tf.reduce_sum(ordered_pred), which is 0 for a row without hits: the metric is NaN
on the training set. The thread's fix adds "a buffer" to the denominator (its value is
cut off in the stored thread; the fixed form below uses 1e-7).

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/5078
"""
import tensorflow as tf


def mean_avg_prec_tf(y_true, y_pred):
    dims = tf.shape(y_true)
    n = dims[0]
    k = dims[1]
    _, top_idx = tf.nn.top_k(y_pred, k)
    y_true = tf.to_float(y_true)
    top_idx = tf.to_float(top_idx)
    label_idx = tf.concat(1, [y_true, top_idx])
    label_idx = tf.reshape(label_idx, [n, 2, k])

    def avg_prec(label_idx):
        label = label_idx[0]
        idx = label_idx[1]
        idx = tf.to_int32(idx)
        ordered_pred = tf.gather(label, idx)
        prec = ordered_pred * tf.cumsum(ordered_pred)
        prec /= tf.to_float(tf.range(1, k + 1))
        prec = tf.reduce_sum(prec) / tf.reduce_sum(ordered_pred)  # error: NAN101 -- mask count: label tensor summed inside a tf.map_fn body
        return prec

    precs = tf.map_fn(avg_prec, label_idx)
    return tf.reduce_mean(precs)


def avg_prec_fixed(ordered_pred, prec):
    return tf.reduce_sum(prec) / (tf.reduce_sum(ordered_pred) + 1e-7)  # ok: NAN101
