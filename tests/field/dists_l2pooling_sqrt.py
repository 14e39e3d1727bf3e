"""DISTS (TensorFlow port): L2 pooling returns tf.sqrt(conv2d(input**2, filter)) of relu
features, which is 0 on dead regions; training a CNN with DISTS as loss gave NaN. The
reporter's fix, acknowledged upstream: tf.sqrt(tf.maximum(conv, 1e-5)).

project: dingkeyan93/DISTS
source: https://github.com/dingkeyan93/DISTS/issues/1
file: DISTS_tensorflow/DISTS_tf.py (DISTS.pool_layer)
"""
import tensorflow.compat.v1 as tf


class DISTS():
    def conv_layer(self, input, name):
        with tf.variable_scope(name) as _:
            filter = self.get_conv_filter(name)
            conv = tf.nn.conv2d(input, filter, strides=1, padding="SAME")
            bias = self.get_bias(name)
            conv = tf.nn.relu(tf.nn.bias_add(conv, bias))
            return conv

    def pool_layer(self, input, name):
        with tf.variable_scope(name) as _:
            filter = tf.squeeze(tf.constant(self.parameters['L2'+name], name="filter"), 3)
            conv = tf.nn.conv2d(input**2, filter, strides=2, padding=[[0, 0], [1, 0], [1, 0], [0, 0]])
            return tf.sqrt(conv)  # error: NAN201

    def pool_layer_fixed(self, input, name):
        filter = tf.squeeze(tf.constant(self.parameters['L2'+name], name="filter"), 3)
        conv = tf.nn.conv2d(input**2, filter, strides=2, padding=[[0, 0], [1, 0], [1, 0], [0, 0]])
        return tf.sqrt(tf.maximum(conv, 1e-5))  # ok: NAN201

    def get_features(self, img):
        self.conv1_1 = self.conv_layer(img, "conv1_1")
        self.conv1_2 = self.conv_layer(self.conv1_1, "conv1_2")
        self.pool1 = self.pool_layer(self.conv1_2, name="pool_1")
        return [img, self.conv1_2, self.pool1]
