"""Semi-hard triplet loss divides by num_positives = reduce_sum(mask_positives), the
number of positive pairs in the batch; a batch with no two samples of one class gives 0/0
= NaN (reported with a step-by-step analysis, not fixed upstream).

project: tensorflow/addons
source: https://github.com/tensorflow/addons/issues/2447
file: tensorflow_addons/losses/triplet.py (triplet_semihard_loss)
"""
import tensorflow as tf


def triplet_semihard_loss(y_true, y_pred, margin=1.0):
    labels = tf.convert_to_tensor(y_true, name="labels")
    embeddings = tf.convert_to_tensor(y_pred, name="embeddings")
    lshape = tf.shape(labels)
    labels = tf.reshape(labels, [lshape[0], 1])
    pdist_matrix = pairwise_distance(embeddings, squared=True)
    adjacency = tf.math.equal(labels, tf.transpose(labels))
    adjacency_not = tf.math.logical_not(adjacency)
    batch_size = tf.size(labels)
    # (elided in this fixture: pdist_matrix_tile, mask and mask_final, the semi-hard mining)
    negatives_outside = tf.reshape(
        _masked_minimum(pdist_matrix_tile, mask), [batch_size, batch_size]
    )
    negatives_outside = tf.transpose(negatives_outside)
    negatives_inside = tf.tile(
        _masked_maximum(pdist_matrix, adjacency_not), [1, batch_size]
    )
    semi_hard_negatives = tf.where(mask_final, negatives_outside, negatives_inside)
    loss_mat = tf.math.add(margin, pdist_matrix - semi_hard_negatives)

    mask_positives = tf.cast(adjacency, dtype=tf.dtypes.float32) - tf.linalg.diag(
        tf.ones([batch_size])
    )
    num_positives = tf.math.reduce_sum(mask_positives)

    triplet_loss = tf.math.truediv(  # error: NAN101 -- mask count: lost through cast(mask) - diag(ones)
        tf.math.reduce_sum(
            tf.math.maximum(tf.math.multiply(loss_mat, mask_positives), 0.0)
        ),
        num_positives,
    )
    return triplet_loss


def triplet_loss_guarded(loss_mat, mask_positives):
    num_positives = tf.math.reduce_sum(mask_positives)
    return tf.math.divide_no_nan(  # ok: NAN101
        tf.math.reduce_sum(tf.math.maximum(loss_mat * mask_positives, 0.0)), num_positives
    )
