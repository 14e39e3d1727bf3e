"""The semi-hard triplet loss averages over the positive pairs of the batch: it divides by
the sum of a same-label mask with the diagonal taken out. A batch in which no two samples
share a label has no positive pair, so the loss is 0/0 = NaN. The report walks through
the computation step by step; upstream left it unfixed.

project: tensorflow/addons
source: https://github.com/tensorflow/addons/issues/2447
file: tensorflow_addons/losses/triplet.py (triplet_semihard_loss)
"""
import tensorflow as tf


def semihard_triplet(y_true, y_pred, margin=1.0):
    ids = tf.convert_to_tensor(y_true, name="ids")
    vectors = tf.convert_to_tensor(y_pred, name="vectors")
    ids = tf.reshape(ids, [tf.shape(ids)[0], 1])
    sq_dist = squared_distances(vectors)
    same = tf.math.equal(ids, tf.transpose(ids))
    different = tf.math.logical_not(same)
    n = tf.size(ids)
    # (left out here: the tiled distances, the semi-hard masks and their mining)
    hard_from_outside = tf.transpose(
        tf.reshape(smallest_where(tiled_dist, outside_mask), [n, n]))
    hard_from_inside = tf.tile(largest_where(sq_dist, different), [1, n])
    negatives = tf.where(semihard_mask, hard_from_outside, hard_from_inside)
    margins = tf.math.add(margin, sq_dist - negatives)

    positive_pairs = tf.cast(same, dtype=tf.dtypes.float32) - tf.linalg.diag(tf.ones([n]))
    pair_count = tf.math.reduce_sum(positive_pairs)

    return tf.math.truediv(  # error: NAN101 -- mask count: lost through cast(mask) - diag(ones)
        tf.math.reduce_sum(tf.math.maximum(tf.math.multiply(margins, positive_pairs), 0.0)),
        pair_count,
    )


def semihard_triplet_no_nan(margins, pair_mask):
    pair_count = tf.math.reduce_sum(pair_mask)
    return tf.math.divide_no_nan(  # ok: NAN101
        tf.math.reduce_sum(tf.math.maximum(margins * pair_mask, 0.0)), pair_count
    )
