"""Video super-resolution, non-local block: f = tf.exp(f); f / reduce_sum(f) is a softmax
without the max shift, and exp(300+) overflows to inf during training (inf/inf = NaN).
tf.nn.softmax, commented out upstream for memory, handles it.

project: psychopa4/PFNL
source: https://github.com/psychopa4/PFNL/issues/9
file: nets.py (NonLocalBlock)
"""
import tensorflow as tf


def NonLocalBlock(x, theta, phi, nltype=0):
    f = tf.matmul(theta, phi, transpose_b=True)
    if nltype <= 1:
        # f_softmax = tf.nn.softmax(f, -1)
        f = tf.exp(f)
        f_softmax = f/tf.reduce_sum(f,axis=-1,keepdims=True)  # error: NAN104
    return f_softmax


def NonLocalBlock_softmax(x, theta, phi):
    f = tf.matmul(theta, phi, transpose_b=True)
    return tf.nn.softmax(f, -1)
