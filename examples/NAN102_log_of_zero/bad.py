"""NAN102: the log of a relu output is -inf for an inactive unit."""
import tensorflow as tf


def log_activation_penalty(x, w):
    h = tf.nn.relu(tf.matmul(x, w))
    return -tf.reduce_mean(tf.math.log(h))  # error: NAN102


def run():
    w = tf.Variable([[1.0], [2.0]])
    x = tf.constant([[1.0, -1.0]])  # 1 - 2 < 0: the relu is inactive
    with tf.GradientTape() as tape:
        loss = log_activation_penalty(x, w)
    return {"loss": loss, "gradient": tape.gradient(loss, w)}
