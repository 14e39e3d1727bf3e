"""The TensorFlow port of DISTS pools with an L2 norm: tf.sqrt of a conv2d over the squared
relu features. On dead regions that convolution is 0, the square root's gradient is
infinite, and a CNN trained with DISTS as its loss went NaN. The reporter proposed
tf.sqrt(tf.maximum(conv, 1e-5)), and upstream acknowledged it.

project: dingkeyan93/DISTS
source: https://github.com/dingkeyan93/DISTS/issues/1
file: DISTS_tensorflow/DISTS_tf.py (DISTS.pool_layer)
"""
import tensorflow.compat.v1 as tf

L2_PAD = [[0, 0], [1, 0], [1, 0], [0, 0]]


class PerceptualDistance():
    def relu_conv(self, features, layer):
        with tf.variable_scope(layer) as _:
            kernel = self.get_conv_filter(layer)
            out = tf.nn.bias_add(tf.nn.conv2d(features, kernel, strides=1, padding="SAME"), self.get_bias(layer))
            return tf.nn.relu(out)

    def l2_pool(self, features, layer):
        with tf.variable_scope(layer) as _:
            window = tf.squeeze(tf.constant(self.parameters['L2' + layer], name="filter"), 3)
            energy = tf.nn.conv2d(features**2, window, strides=2, padding=L2_PAD)
            return tf.sqrt(energy)  # miss: NAN201 -- reach unknown: no objective or convention in the file; a fixed window over squares is not negative (suspects ranks it first)

    def l2_pool_clamped(self, features, layer):
        window = tf.squeeze(tf.constant(self.parameters['L2' + layer], name="filter"), 3)
        energy = tf.nn.conv2d(features**2, window, strides=2, padding=L2_PAD)
        return tf.sqrt(tf.maximum(energy, 1e-5))  # ok: NAN201

    def stage_one(self, image):
        self.c11 = self.relu_conv(image, "conv1_1")
        self.c12 = self.relu_conv(self.c11, "conv1_2")
        self.p1 = self.l2_pool(self.c12, layer="pool_1")
        return [image, self.c12, self.p1]
