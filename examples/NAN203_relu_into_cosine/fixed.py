"""NAN203, as its documentation says: no activation right before a cosine, and
`tf.nn.l2_normalize` (it carries an epsilon) instead of a division by the norms."""
import tensorflow as tf


def cosine(x, y, w):
    a = tf.matmul(x, w)
    b = tf.matmul(y, w)
    return tf.reduce_sum(tf.nn.l2_normalize(a, axis=-1) * tf.nn.l2_normalize(b, axis=-1),
                         axis=-1)  # fixed: NAN203


def run():
    w = tf.Variable([[-1.0, -1.0], [-1.0, -1.0]])
    x = tf.constant([[1.0, 2.0]])
    y = tf.constant([[2.0, 1.0]])
    with tf.GradientTape() as tape:
        similarity = tf.reduce_mean(cosine(x, y, w))
    return {"similarity": similarity, "gradient": tape.gradient(similarity, w)}
