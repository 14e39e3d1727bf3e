"""MNIST VAE: the decoder output is clipped to [1e-8, 1 - 1e-8], but 1 - 1e-8 is 1.0 in
float32, so tf.log(1 - y) is still log(0) = -inf once the sigmoid saturates ("loss for
epoch i+1 is NaN"). The thread's advice: tf.nn.sigmoid_cross_entropy_with_logits.

project: hwalsuklee/tensorflow-mnist-VAE
source: https://github.com/hwalsuklee/tensorflow-mnist-VAE/issues/4
file: vae.py (autoencoder)
"""
import tensorflow as tf


def bernoulli_MLP_decoder(z, n_hidden, n_output, keep_prob, reuse=False):
    with tf.variable_scope("bernoulli_MLP_decoder", reuse=reuse):
        wo = tf.get_variable('wo', [z.get_shape()[1], n_output])
        bo = tf.get_variable('bo', [n_output])
        y = tf.sigmoid(tf.matmul(z, wo) + bo)
    return y


def autoencoder(x_hat, x, dim_img, dim_z, n_hidden, keep_prob, mu, sigma):
    z = mu + sigma * tf.random_normal(tf.shape(mu), 0, 1, dtype=tf.float32)
    y = bernoulli_MLP_decoder(z, n_hidden, dim_img, keep_prob)
    y = tf.clip_by_value(y, 1e-8, 1 - 1e-8)  # error: NAN105
    marginal_likelihood = tf.reduce_sum(x * tf.log(y) + (1 - x) * tf.log(1 - y), 1)
    KL_divergence = 0.5 * tf.reduce_sum(tf.square(mu) + tf.square(sigma) - tf.log(1e-8 + tf.square(sigma)) - 1, 1)
    marginal_likelihood = tf.reduce_mean(marginal_likelihood)
    KL_divergence = tf.reduce_mean(KL_divergence)
    ELBO = marginal_likelihood - KL_divergence
    loss = -ELBO
    return y, z, loss, -marginal_likelihood, KL_divergence
