"""NAN302: clipping each gradient element to [-1, 1] bounds nothing that matters: with
1,000 weights the step is still 1,000 times the learning rate along their sum, and the
loss bounces instead of converging."""
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
        grads = [tf.clip_by_value(g, -1.0, 1.0) for g in grads]  # error: NAN302
        optimizer.apply_gradients(zip(grads, [w]))
        losses.append(loss)
    return losses


def run():
    return {"loss": train(tf.Variable(tf.fill([1000], 0.013)))}
