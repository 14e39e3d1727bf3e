"""NAN304, as its documentation says: a small stddev (or Glorot); the first loss is about
log(10), as it should be."""
import tensorflow as tf

EXPECT = "loss-above"
BOUND = 20.0


def mlp_loss(x, labels):
    w1 = tf.Variable(tf.random.truncated_normal([784, 256], stddev=0.02, seed=1))  # fixed: NAN304
    w2 = tf.Variable(tf.random.truncated_normal([256, 10], stddev=0.02, seed=2))
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
    p = tf.clip_by_value(tf.nn.softmax(logits), 1e-30, 1.0)
    return -tf.reduce_mean(tf.reduce_sum(tf.one_hot(labels, 10) * tf.math.log(p), axis=1))


def run():
    tf.random.set_seed(0)
    x = tf.random.uniform([8, 784], seed=3)
    labels = tf.range(8) % 10
    return {"loss": [mlp_loss(x, labels)]}
