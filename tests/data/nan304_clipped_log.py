"""NAN304 large-init-stddev where every hand-written log takes probabilities kept above 0
(`clip_by_value(p, 1e-9, 1.)`, `+ 1e-7`) and every exp an exponent kept below 88: large
logits saturate the softmax, and the loss stays finite. NAN304_large_init_stddev.py is the
same kind of network with an unclipped log."""
import keras
import tensorflow as tf
import tensorflow.compat.v1 as tf1
from keras import ops

n_input = 784
n_hidden = 256
n_classes = 10

# TF1: the classic multilayer perceptron, its log clipped
weights = {
    "h1": tf1.Variable(tf1.random_normal([n_input, n_hidden])),
    "out": tf1.Variable(tf1.random_normal([n_hidden, n_classes])),
}
x = tf1.placeholder(tf1.float32, [None, n_input])
y = tf1.placeholder(tf1.float32, [None, n_classes])
hidden = tf1.nn.sigmoid(tf1.matmul(x, weights["h1"]))
probs = tf1.nn.softmax(tf1.matmul(hidden, weights["out"]))
loss = -tf1.reduce_sum(y * tf1.log(tf1.clip_by_value(probs, 1e-9, 1.0)))


# TF2: a GradientTape loop, its log clipped
w1 = tf.Variable(tf.random.normal([n_input, n_hidden]))


def cross_entropy(labels, inputs):
    p = tf.nn.softmax(tf.matmul(inputs, w1))
    p = tf.clip_by_value(p, 1e-9, 1.0)
    return tf.reduce_mean(-tf.reduce_sum(labels * tf.math.log(p), axis=-1))


# Keras 3: a layer whose exp is taken of a bounded exponent
class Scorer(keras.layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(n_input, n_classes),
                                      initializer=keras.initializers.RandomNormal(stddev=1.0))

    def call(self, h):
        s = ops.tanh(ops.matmul(h, self.kernel))
        return ops.exp(s) / ops.sum(ops.exp(s), axis=-1, keepdims=True)
