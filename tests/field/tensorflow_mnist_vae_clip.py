"""An MNIST VAE clips its decoder output into [1e-8, 1 - 1e-8] before the Bernoulli log
likelihood, but 1 - 1e-8 rounds to exactly 1.0 in float32: once the sigmoid saturates,
tf.log(1 - y) is log(0) = -inf and the loss turns NaN after an epoch. The thread
recommends tf.nn.sigmoid_cross_entropy_with_logits on the logits instead.

project: hwalsuklee/tensorflow-mnist-VAE
source: https://github.com/hwalsuklee/tensorflow-mnist-VAE/issues/4
file: vae.py (autoencoder)
"""
import tensorflow as tf


def decode(code, hidden, n_pixels, keep, reuse=False):
    with tf.variable_scope("decoder", reuse=reuse):
        kernel = tf.get_variable('kernel_out', [code.get_shape()[1], n_pixels])
        offset = tf.get_variable('offset_out', [n_pixels])
        probs = tf.sigmoid(tf.matmul(code, kernel) + offset)
    return probs


def vae(noisy, clean, n_pixels, n_code, hidden, keep, mean, std):
    code = mean + std * tf.random_normal(tf.shape(mean), 0, 1, dtype=tf.float32)
    probs = decode(code, hidden, n_pixels, keep)
    probs = tf.clip_by_value(probs, 1e-8, 1 - 1e-8)  # error: NAN105
    log_lik = tf.reduce_sum(clean * tf.log(probs) + (1 - clean) * tf.log(1 - probs), 1)
    kl = 0.5 * tf.reduce_sum(tf.square(mean) + tf.square(std) - tf.log(1e-8 + tf.square(std)) - 1, 1)
    log_lik = tf.reduce_mean(log_lik)
    kl = tf.reduce_mean(kl)
    loss = kl - log_lik
    return probs, code, loss, -log_lik, kl
