"""NAN301, as its documentation says: a learning rate 200 times smaller. The fit converges
to w = 2."""
import tensorflow as tf

EXPECT = "loss-above"  # the last loss is above BOUND (or not finite) for bad.py only
BOUND = 1.0


def fit(x, y, steps=40):
    w = tf.Variable([[0.0]])
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.05)  # fixed: NAN301
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
        losses.append(loss)
    return losses


def run():
    x = tf.constant([[1.0], [2.0], [3.0]])
    return {"loss": fit(x, 2.0 * x)}
