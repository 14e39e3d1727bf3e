"""Stochastic-computing DNN: the trainable gain is initialized uniformly in [0, 16) and
divides the scale, tf.div(curr_scale, gain); a gain drawn at (or trained to) 0 gives inf and
NaN. The variable reaches the division through a dict and a function argument. The
maintainer agreed; suggested fix: minval=1e-7 or gain + 1e-7.

project: adamsolomou/SC-DNN
source: https://github.com/adamsolomou/SC-DNN/issues/1
file: src/training/sc_train_creg.py (sc_matmul, lo_matmul)
"""
import tensorflow as tf

n_hidden = 128
n_inputs = 784
n_classes = 10
X = tf.placeholder(tf.float32, [None, n_inputs], name="features")
weights = {
    'l1': tf.get_variable(name="w1", initializer=tf.random_normal([n_inputs, n_hidden])),
}
l1_matmul = {
    's_inp': tf.constant(1.0, shape=[1, n_inputs]),
    'upscale': True,
    'gain': tf.get_variable(name="G_matmul_1",
                            initializer=tf.random_uniform([n_hidden], minval=0, maxval=16))
}


def sc_matmul(x, w, s_in, upscale=False, gain=None):
    max_scale = tf.reduce_max(s_in)
    rescale_ratio = tf.div(s_in, max_scale)
    x_rescaled = tf.multiply(x, rescale_ratio)
    s = tf.reduce_sum(tf.abs(w), axis=0)
    S = tf.reshape(tf.tile(s, [tf.shape(x)[0]]),
                   shape=[tf.shape(x)[0], tf.shape(w)[1]])
    y = tf.matmul(x_rescaled, w)
    z = tf.div(y, S)
    curr_scale = tf.multiply(max_scale, S)
    if(upscale):
        z_upscaled = tf.multiply(z, gain)
        new_scale = tf.div(curr_scale, gain)  # error: NAN101 -- found since issue 16 (was a miss): value crosses a boundary: trainable variable through a dict and a call argument
    else:
        z_upscaled = z
        new_scale = curr_scale
    out_scale = new_scale[0, :]
    max_act = tf.reduce_max(z_upscaled)
    z_clipped = tf.clip_by_value(z_upscaled, -1, +1)
    return z_clipped, max_act, out_scale


l1_m, max_l1_m, s1_m = sc_matmul(X, weights['l1'], l1_matmul['s_inp'], l1_matmul['upscale'], l1_matmul['gain'])
