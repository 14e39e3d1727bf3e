"""NAN103: a hand-written cross-entropy over a softmax is inf once the model is confident."""
import tensorflow as tf


def cross_entropy(labels, logits):
    return -tf.reduce_sum(labels * tf.nn.log_softmax(logits), axis=-1)  # fixed: NAN103


def run():
    logits = tf.Variable([[1000.0, 0.0]])  # confident, and wrong
    labels = tf.constant([[0.0, 1.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(cross_entropy(labels, logits))
    return {"loss": loss, "gradient": tape.gradient(loss, logits)}
