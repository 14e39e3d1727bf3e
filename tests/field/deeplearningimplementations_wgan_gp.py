"""A TF1 WGAN-GP computes the critic's gradient norm as tf.sqrt of the summed squares of
tf.gradients. Where that gradient is zero the norm is sqrt(0), whose derivative is infinite,
so the penalty's gradient is NaN and TensorBoard stops with "Nan in summary histogram". Two
users in the thread confirm the repair: put 1e-8 under the square root.

project: tdeboissiere/DeepLearningImplementations
source: https://github.com/tdeboissiere/DeepLearningImplementations/issues/68
file: WGAN-GP/src/model/train_wgan_GP.py (train_model)
"""
import tensorflow as tf

FLAGS = tf.app.flags.FLAGS


def build_critic_step(real, generator, critic, z):
    fake = generator(z)
    real_score = tf.reduce_mean(critic(real))  # the first call creates the critic's variables
    wasserstein = tf.reduce_mean(critic(fake, reuse=True)) - real_score

    mix = tf.random_uniform(shape=[FLAGS.batch_size, 1, 1, 1], minval=0., maxval=1.)
    blended = real + mix * (fake - real)
    critic_grad = tf.gradients(critic(blended, reuse=True), [blended])[0]
    channel_axis = [1] if FLAGS.data_format == "NCHW" else [-1]
    grad_norm = tf.sqrt(tf.reduce_sum(tf.square(critic_grad), reduction_indices=channel_axis))  # error: NAN201 -- gradient as zero source: tf.gradients output
    critic_loss = wasserstein + 10 * tf.reduce_mean((grad_norm - 1.) ** 2)

    opt = tf.train.AdamOptimizer(learning_rate=1E-4, name='critic_opt', beta1=0.5, beta2=0.9)
    pairs = opt.compute_gradients(critic_loss, var_list=critic.get_trainable_variables(),
                                  colocate_gradients_with_ops=True)
    return opt.apply_gradients(pairs, name='critic_minimize')


def grad_norm_repaired(critic_grad, channel_axis):
    return tf.sqrt(1e-8 + tf.reduce_sum(tf.square(critic_grad), reduction_indices=channel_axis))  # ok: NAN201
