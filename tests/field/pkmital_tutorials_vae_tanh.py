"""In a variational autoencoder tutorial the decoder ends in tanh, whose output can be
negative, and the reconstruction term takes tf.log of that output plus 1e-10: any negative
pixel makes the cost NaN. The reporter suggested a sigmoid output instead, and upstream
adopted it.

project: pkmital/tensorflow_tutorials
source: https://github.com/pkmital/tensorflow_tutorials/issues/23
file: python/11_variational_autoencoder.py (VAE)
"""
import tensorflow as tf


def vae_cost(pixels, last_hidden, out_kernel, out_bias, mean, log_std):
    recon = tf.nn.tanh(tf.matmul(last_hidden, out_kernel) + out_bias)
    neg_log_likelihood = -tf.reduce_sum(
        pixels * tf.log(recon + 1e-10) +  # error: NAN102
        (1 - pixels) * tf.log(1 - recon + 1e-10), 1)
    kl = -0.5 * tf.reduce_sum(
        1.0 + 2.0 * log_std - tf.square(mean) - tf.exp(2.0 * log_std), 1)
    cost = tf.reduce_mean(neg_log_likelihood + kl)
    return {'cost': cost, 'x': pixels, 'y': recon}


def vae_cost_sigmoid(pixels, last_hidden, out_kernel, out_bias):
    recon = tf.nn.sigmoid(tf.matmul(last_hidden, out_kernel) + out_bias)
    return -tf.reduce_sum(pixels * tf.log(recon + 1e-10), 1)  # ok: NAN102
