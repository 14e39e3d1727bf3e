"""NAN303, as its documentation says: normalize the hidden activations instead of clipping
them; the gradient reaches the layer below."""
import tensorflow as tf

EXPECT = "zero-gradients"  # bad.py's gradients are exactly 0, fixed.py's are not


NORMALIZE = tf.keras.layers.LayerNormalization()


def hidden(x, w):
    h = tf.matmul(x, w)
    return NORMALIZE(h)  # fixed: NAN303


def run():
    w = tf.Variable([[3.0, -2.0, 1.0], [1.0, -4.0, 2.0]])
    x = tf.constant([[2.0, 1.0]])  # h = [7, -8, 4]: all far outside [-1, 1]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(hidden(x, w) - [[0.5, -0.5, 0.0]]))
    return {"loss": loss, "gradients": [tape.gradient(loss, w)]}
