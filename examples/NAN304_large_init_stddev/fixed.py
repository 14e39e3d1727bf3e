"""NAN304, as its documentation says: a small stddev (or Glorot); the first loss is about
log(10), as it should be. (The hand-written log of the softmax stays NAN103's: it is finite
here, with logits near 0, and `tf.nn.log_softmax` would keep it so whatever they become.)"""
import tensorflow as tf


def mlp_loss(x, labels):
    w1 = tf.Variable(tf.random.truncated_normal([784, 256], stddev=0.02, seed=1))  # fixed: NAN304
    w2 = tf.Variable(tf.random.truncated_normal([256, 10], stddev=0.02, seed=2))
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
    p = tf.nn.softmax(logits)
    return -tf.reduce_mean(tf.reduce_sum(  # noqa: NAN103
        tf.one_hot(labels, 10) * tf.math.log(p), axis=1))


def run():
    tf.random.set_seed(0)
    x = tf.random.uniform([8, 784], seed=3)
    labels = tf.range(8) % 10
    return {"loss": [mlp_loss(x, labels)]}
