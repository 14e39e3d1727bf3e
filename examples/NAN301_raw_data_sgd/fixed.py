"""NAN301, as its message says: standardize the data (here x / 10, so E[x^2] = 0.33 and
0.05 * 2 * 0.33 = 0.03 < 2). The same SGD step converges and the loss stays finite."""
import numpy as np
import tensorflow as tf

EXPECT = "non-finite"


def run(steps=150):
    np.random.seed(0)
    x = np.random.uniform(-10, 10, 100).astype(np.float32) / 10.0
    y = 3.0 * x + 2.0
    w = tf.Variable(0.0)
    b = tf.Variable(0.0)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.05)
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(w * x + b - y))
        grads = tape.gradient(loss, [w, b])
        optimizer.apply_gradients(zip(grads, [w, b]))  # fixed: NAN301
        losses.append(loss)
    return {"loss": losses}
