"""TF2 linear regression with a GradientTape on x = np.arange(100) (never scaled), SGD 0.001:
lr * 2 * E[x^2] = 0.001 * 2 * 3283 = 6.6 > 2, it diverges."""
import numpy as np
import tensorflow as tf

x = np.arange(100, dtype=np.float32)
y = 2 * x + 1 + np.random.randn(100).astype(np.float32)

w = tf.Variable(0.0)
b = tf.Variable(0.0)
optimizer = tf.keras.optimizers.SGD(learning_rate=0.001)

for epoch in range(100):
    with tf.GradientTape() as tape:
        y_pred = w * x + b
        loss = tf.reduce_mean(tf.square(y - y_pred))
    grads = tape.gradient(loss, [w, b])
    optimizer.apply_gradients(zip(grads, [w, b]))
    print(epoch, loss.numpy())
