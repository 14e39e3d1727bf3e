"""NAN304: weights drawn with the default stddev 1.0 multiply each layer's scale by ~28 on
784 inputs: the logits are in the thousands, the hand-written softmax saturates to 0 and
the log of it is -inf: the first loss is inf. (Clipped to [1e-30, 1], the log stops at -69:
huge, but finite; nanlint does not report that form.)"""
import tensorflow as tf


def mlp_loss(x, labels):
    w1 = tf.Variable(tf.random.normal([784, 256], seed=1))  # error: NAN304
    w2 = tf.Variable(tf.random.normal([256, 10], seed=2))
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
    p = tf.nn.softmax(logits)
    return -tf.reduce_mean(tf.reduce_sum(tf.one_hot(labels, 10) * tf.math.log(p), axis=1))


def run():
    tf.random.set_seed(0)
    x = tf.random.uniform([8, 784], seed=3)
    labels = tf.range(8) % 10
    return {"loss": [mlp_loss(x, labels)]}
