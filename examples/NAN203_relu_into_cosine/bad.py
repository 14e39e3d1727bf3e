"""NAN203: a hand-written cosine of relu outputs is 0 / 0 for an all-zero relu row."""
import tensorflow as tf


def cosine(x, y, w):
    a = tf.nn.relu(tf.matmul(x, w))
    b = tf.nn.relu(tf.matmul(y, w))
    dot = tf.reduce_sum(a * b, axis=-1)
    return dot / (tf.norm(a, axis=-1) * tf.norm(b, axis=-1))  # error: NAN203


def run():
    w = tf.Variable([[-1.0, -1.0], [-1.0, -1.0]])
    x = tf.constant([[1.0, 2.0]])  # both units are negative: the relu row is all zero
    y = tf.constant([[2.0, 1.0]])
    with tf.GradientTape() as tape:
        similarity = tf.reduce_mean(cosine(x, y, w))
    return {"similarity": similarity, "gradient": tape.gradient(similarity, w)}
