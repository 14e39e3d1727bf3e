"""WGAN-GP (TF1): slopes = sqrt(sum(square(tf.gradients(...)))) is 0 where the critic's
gradient vanishes; the gradient of the penalty is NaN ("Nan in summary histogram").
The issue's fix, confirmed by two users: 1e-8 inside the sqrt.

project: tdeboissiere/DeepLearningImplementations
source: https://github.com/tdeboissiere/DeepLearningImplementations/issues/68
file: WGAN-GP/src/model/train_wgan_GP.py (train_model)
"""
import tensorflow as tf

FLAGS = tf.app.flags.FLAGS


def train_model(X_real, G, D, noise_input):
    D_opt = tf.train.AdamOptimizer(learning_rate=1E-4, name='D_opt', beta1=0.5, beta2=0.9)
    X_fake = G(noise_input)
    D_real = D(X_real)
    D_fake = D(X_fake, reuse=True)
    D_loss = tf.reduce_mean(D_fake) - tf.reduce_mean(D_real)

    epsilon = tf.random_uniform(shape=[FLAGS.batch_size, 1, 1, 1], minval=0., maxval=1.)
    X_hat = X_real + epsilon * (X_fake - X_real)
    D_X_hat = D(X_hat, reuse=True)
    grad_D_X_hat = tf.gradients(D_X_hat, [X_hat])[0]
    if FLAGS.data_format == "NCHW":
        red_idx = [1]
    else:
        red_idx = [-1]
    slopes = tf.sqrt(tf.reduce_sum(tf.square(grad_D_X_hat), reduction_indices=red_idx))  # error: NAN201 -- found since issue 16 (was a miss): gradient as zero source: tf.gradients output
    gradient_penalty = tf.reduce_mean((slopes - 1.)**2)
    D_loss += 10 * gradient_penalty

    D_vars = D.get_trainable_variables()
    D_gradvar = D_opt.compute_gradients(D_loss, var_list=D_vars, colocate_gradients_with_ops=True)
    return D_opt.apply_gradients(D_gradvar, name='D_loss_minimize')


def slopes_fixed(grad_D_X_hat, red_idx):
    return tf.sqrt(1e-8 + tf.reduce_sum(tf.square(grad_D_X_hat), reduction_indices=red_idx))  # ok: NAN201
