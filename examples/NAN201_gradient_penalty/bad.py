"""NAN201: the WGAN-GP gradient penalty takes the root of a sum of squared gradients, which
are exactly 0 where the critic's relu units are dead: the penalty's gradient is NaN."""
import tensorflow as tf


def critic(images, kernel):
    return tf.reduce_sum(tf.nn.relu(tf.matmul(images, kernel)), axis=-1)


def gradient_penalty(interpolated, kernel):
    with tf.GradientTape() as tape:
        tape.watch(interpolated)
        scores = critic(interpolated, kernel)
    grads = tape.gradient(scores, interpolated)
    slopes = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1]))  # error: NAN201
    return tf.reduce_mean((slopes - 1.0) ** 2)


def run():
    kernel = tf.Variable([[-1.0, 0.5], [-1.0, -2.0]])  # every unit dead for positive inputs
    interpolated = tf.constant([[1.0, 2.0], [0.5, 0.5]])
    with tf.GradientTape() as tape:
        penalty = gradient_penalty(interpolated, kernel)
    return {"penalty": penalty, "gradient": tape.gradient(penalty, kernel)}
