"""NAN301: plain SGD with learning rate 0.05 on the mean squared error of raw data, x from
uniform(-10, 10). The curvature of the loss is about 2 * E[x^2] = 66.7, and SGD diverges
once learning rate * curvature > 2: 0.05 * 66.7 = 3.3. Each step multiplies the error by
about |1 - 3.3| = 2.3; the loss overflows to inf within ~60 steps, then turns NaN."""
import numpy as np
import tensorflow as tf

EXPECT = "non-finite"


def run(steps=150):
    np.random.seed(0)
    x = np.random.uniform(-10, 10, 100).astype(np.float32)
    y = 3.0 * x + 2.0
    w = tf.Variable(0.0)
    b = tf.Variable(0.0)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.05)
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(w * x + b - y))
        grads = tape.gradient(loss, [w, b])
        optimizer.apply_gradients(zip(grads, [w, b]))  # error: NAN301
        losses.append(loss)
    return {"loss": losses}
