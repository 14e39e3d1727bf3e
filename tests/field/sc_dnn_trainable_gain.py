"""In a stochastic-computing network each layer has a trainable gain, initialized
uniformly in [0, 16), and the layer's output scale is divided by it with tf.div. A gain
that starts at 0, or is trained there, turns the scale into inf and the outputs into NaN.
The variable reaches the division by way of a dict entry and a function argument. The
maintainer agreed with the report; the suggested fix is a positive minval (1e-7) or adding
1e-7 to the gain.

project: adamsolomou/SC-DNN
source: https://github.com/adamsolomou/SC-DNN/issues/1
file: src/training/sc_train_creg.py (sc_matmul, lo_matmul)
"""
import tensorflow as tf

units = 128
pixels = 784
classes = 10
images = tf.placeholder(tf.float32, [None, pixels], name="images")
kernels = {
    'hidden': tf.get_variable(name="k_hidden", initializer=tf.random_normal([pixels, units])),
}
hidden_cfg = {
    'scale_in': tf.constant(1.0, shape=[1, pixels]),
    'amplify': True,
    'gain': tf.get_variable(name="gain_hidden",
                            initializer=tf.random_uniform([units], minval=0, maxval=16))
}


def scaled_matmul(inp, kernel, scale_in, amplify=False, gain=None):
    top = tf.reduce_max(scale_in)
    inp = tf.multiply(inp, tf.div(scale_in, top))
    col_l1 = tf.reduce_sum(tf.abs(kernel), axis=0)
    rows = tf.shape(inp)[0]
    norms = tf.reshape(tf.tile(col_l1, [rows]), shape=[rows, tf.shape(kernel)[1]])
    out = tf.div(tf.matmul(inp, kernel), norms)
    scale = tf.multiply(top, norms)
    if amplify:
        out = tf.multiply(out, gain)
        scale = tf.div(scale, gain)  # error: NAN101 -- found now (was a miss): value crosses a boundary: trainable variable through a dict and a call argument
    peak = tf.reduce_max(out)
    return tf.clip_by_value(out, -1, +1), peak, scale[0, :]


hidden_out, hidden_peak, hidden_scale = scaled_matmul(
    images, kernels['hidden'], hidden_cfg['scale_in'], hidden_cfg['amplify'], hidden_cfg['gain'])
