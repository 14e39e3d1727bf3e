"""NAN202: the euclidean distance of a pair of identical embeddings has a NaN gradient."""
import tensorflow as tf


def contrastive_loss(anchor, positive, negative, margin=1.0):
    positive_distance = tf.sqrt(
        tf.reduce_sum(tf.square(anchor - positive), axis=-1) + 1e-7
    )  # fixed: NAN202
    negative_distance = tf.sqrt(tf.reduce_sum(tf.square(anchor - negative), axis=-1) + 1e-7)
    return tf.reduce_mean(positive_distance + tf.nn.relu(margin - negative_distance))


def run():
    anchor = tf.Variable([[0.3, 0.4]])
    positive = tf.constant([[0.3, 0.4]])  # a duplicate in the batch
    negative = tf.constant([[1.0, 1.0]])
    with tf.GradientTape() as tape:
        loss = contrastive_loss(anchor, positive, negative)
    return {"loss": loss, "gradient": tape.gradient(loss, anchor)}
