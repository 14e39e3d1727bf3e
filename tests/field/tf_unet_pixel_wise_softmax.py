"""A U-Net computes its per-pixel softmax by hand, exp of the logits over the tiled sum of
those exps, without subtracting the maximum first. As soon as a logit passes about 88 the
exp is inf and inf/inf is NaN; users saw the dice loss go NaN. Upstream now shifts the
logits by their per-pixel maximum before tf.exp.

project: jakeret/tf_unet
source: https://github.com/jakeret/tf_unet/issues/28
file: tf_unet/layers.py (pixel_wise_softmax_2, later pixel_wise_softmax)
"""
import tensorflow as tf


def per_pixel_softmax_unshifted(logits):
    exps = tf.exp(logits)
    totals = tf.reduce_sum(exps, 3, keep_dims=True)
    totals = tf.tile(totals, tf.stack([1, 1, 1, tf.shape(logits)[3]]))
    return tf.div(exps, totals)  # error: NAN104


def per_pixel_softmax(logits):
    with tf.name_scope("per_pixel_softmax"):
        peak = tf.reduce_max(logits, axis=3, keepdims=True)
        exps = tf.exp(logits - peak)
        return exps / tf.reduce_sum(exps, axis=3, keepdims=True)  # ok: NAN103


def soft_dice_loss(logits, target, n_class):
    probs = per_pixel_softmax_unshifted(logits)
    smooth = 1e-5
    overlap = tf.reduce_sum(probs * target)
    total = smooth + tf.reduce_sum(probs) + tf.reduce_sum(target)
    return -(2 * overlap / total)
