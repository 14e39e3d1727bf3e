"""A video super-resolution net normalizes its non-local affinities by hand: it takes
tf.exp of the query-key products and divides by their sum. Nothing subtracts the row
maximum first, so products above a few hundred overflow to inf during training and inf/inf
is NaN. The tf.nn.softmax call, disabled upstream to save memory, does not overflow.

project: psychopa4/PFNL
source: https://github.com/psychopa4/PFNL/issues/9
file: nets.py (NonLocalBlock)
"""
import tensorflow as tf


def nonlocal_weights(features, query, key, mode=0):
    affinity = tf.matmul(query, key, transpose_b=True)
    if mode <= 1:
        # the library softmax was switched off here
        affinity = tf.exp(affinity)
        weights = affinity/tf.reduce_sum(affinity,axis=-1,keepdims=True)  # error: NAN104
    return weights


def nonlocal_weights_library(features, query, key):
    affinity = tf.matmul(query, key, transpose_b=True)
    return tf.nn.softmax(affinity, -1)
