"""NAN302, as its documentation says: clip by the global norm, which keeps the direction
of the update and bounds its length; the loss converges."""
import tensorflow as tf

EXPECT = "loss-above"
BOUND = 1.0


def train(w, steps=80):
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w) ** 4
        grads = tape.gradient(loss, [w])
        grads, _ = tf.clip_by_global_norm(grads, 1.0)  # fixed: NAN302
        optimizer.apply_gradients(zip(grads, [w]))
        losses.append(loss)
    return losses


def run():
    return {"loss": train(tf.Variable(tf.fill([1000], 0.013)))}
