"""NAN105: 1e-10 vanishes next to 1 in float32, so the "epsilon" guards nothing."""
import tensorflow as tf


def negative_log_likelihood(logits):
    p = tf.sigmoid(logits)
    return -tf.math.log(1e-10 + 1 - p)  # error: NAN105


def run():
    logits = tf.Variable([20.0])  # sigmoid(20) is exactly 1.0 in float32
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(negative_log_likelihood(logits))
    return {"loss": loss}
