"""NAN205: the angle between normalized embeddings has a NaN gradient for parallel pairs."""
import tensorflow as tf


def angle_loss(a, b):
    cosine = tf.reduce_sum(tf.math.l2_normalize(a, axis=-1) * tf.math.l2_normalize(b, axis=-1),
                           axis=-1)
    return tf.reduce_mean(tf.math.acos(cosine))  # error: NAN205


def run():
    a = tf.Variable([[3.0, 0.0, 0.0, 0.0], [1.0, 0.5, -0.25, 2.0]])
    b = tf.constant([[2.0, 0.0, 0.0, 0.0], [1.0, 0.0, 1.0, 0.0]])  # the first pair is parallel
    with tf.GradientTape() as tape:
        loss = angle_loss(a, b)
    return {"loss": loss, "gradient": tape.gradient(loss, a)}
