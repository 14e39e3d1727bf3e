"""NAN101: a masked mean over a batch without a single positive label is 0 / 0."""
import tensorflow as tf


def masked_mean_loss(per_example, labels):
    mask = tf.cast(labels > 0, tf.float32)
    count = tf.reduce_sum(mask)
    return tf.reduce_sum(per_example * mask) / tf.maximum(count, 1)  # fixed: NAN101


def run():
    weights = tf.Variable([0.5, 0.2])
    labels = tf.constant([0, 0])  # a batch with no positive label
    with tf.GradientTape() as tape:
        loss = masked_mean_loss(tf.square(weights), labels)
    return {"loss": loss, "gradient": tape.gradient(loss, weights)}
