"""NAN301: SGD with a learning rate of 10 on a least-squares fit overshoots, and the loss
grows until it is NaN."""
import tensorflow as tf

EXPECT = "loss-above"  # the last loss is above BOUND (or not finite) for bad.py only
BOUND = 1.0


def fit(x, y, steps=40):
    w = tf.Variable([[0.0]])
    optimizer = tf.keras.optimizers.SGD(learning_rate=10.0)  # error: NAN301
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
