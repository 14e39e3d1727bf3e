"""VAE tutorial: the decoder output y = tanh(...) lies in (-1, 1) and is fed to
tf.log(y + 1e-10): a negative y gives NaN costs. The reporter's fix, taken upstream:
sigmoid instead of tanh.

project: pkmital/tensorflow_tutorials
source: https://github.com/pkmital/tensorflow_tutorials/issues/23
file: python/11_variational_autoencoder.py (VAE)
"""
import tensorflow as tf


def VAE(x, h_dec3, W_mu_dec, b_mu_dec, z_mu, z_log_sigma):
    y = tf.nn.tanh(tf.matmul(h_dec3, W_mu_dec) + b_mu_dec)
    log_px_given_z = -tf.reduce_sum(
        x * tf.log(y + 1e-10) +  # error: NAN102
        (1 - x) * tf.log(1 - y + 1e-10), 1)
    kl_div = -0.5 * tf.reduce_sum(
        1.0 + 2.0 * z_log_sigma - tf.square(z_mu) - tf.exp(2.0 * z_log_sigma),
        1)
    loss = tf.reduce_mean(log_px_given_z + kl_div)
    return {'cost': loss, 'x': x, 'y': y}


def VAE_fixed(x, h_dec3, W_mu_dec, b_mu_dec):
    y = tf.nn.sigmoid(tf.matmul(h_dec3, W_mu_dec) + b_mu_dec)
    return -tf.reduce_sum(x * tf.log(y + 1e-10), 1)  # ok: NAN102
