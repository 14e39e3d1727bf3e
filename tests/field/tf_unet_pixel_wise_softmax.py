"""U-Net: the hand-written per-pixel softmax exp(output_map) / tile(reduce_sum(exp)) has no
max shift; once a logit passes ~88 exp overflows and inf/inf = NaN (the dice loss went NaN).
Upstream now subtracts the per-pixel max before tf.exp.

project: jakeret/tf_unet
source: https://github.com/jakeret/tf_unet/issues/28
file: tf_unet/layers.py (pixel_wise_softmax_2, later pixel_wise_softmax)
"""
import tensorflow as tf


def pixel_wise_softmax_2(output_map):
    exponential_map = tf.exp(output_map)
    sum_exp = tf.reduce_sum(exponential_map, 3, keep_dims=True)
    tensor_sum_exp = tf.tile(sum_exp, tf.stack([1, 1, 1, tf.shape(output_map)[3]]))
    return tf.div(exponential_map, tensor_sum_exp)  # error: NAN104


def pixel_wise_softmax(output_map):
    with tf.name_scope("pixel_wise_softmax"):
        max_axis = tf.reduce_max(output_map, axis=3, keepdims=True)
        exponential_map = tf.exp(output_map - max_axis)
        normalize = tf.reduce_sum(exponential_map, axis=3, keepdims=True)
        return exponential_map / normalize  # ok: NAN103


def dice_cost(logits, y, n_class):
    prediction = pixel_wise_softmax_2(logits)
    eps = 1e-5
    intersection = tf.reduce_sum(prediction * y)
    union = eps + tf.reduce_sum(prediction) + tf.reduce_sum(y)
    return -(2 * intersection / union)
