"""NAN204: tf.where guards the value of log(x) at x = 0, not its gradient."""
import tensorflow as tf


def log_or_zero(x):
    return tf.where(
        x > 0, tf.math.log(tf.where(x > 0, x, tf.ones_like(x))), tf.zeros_like(x)
    )  # fixed: NAN204


def run():
    x = tf.Variable([0.0, 1.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(log_or_zero(x))
    return {"loss": loss, "gradient": tape.gradient(loss, x)}
