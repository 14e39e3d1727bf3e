"""The keras-io WGAN-GP example measures the critic's gradient norm as tf.sqrt of the summed
squared gradients. Where the critic's gradient vanishes that sum is 0, the square root has
an infinite derivative there, and the penalty's gradient turns NaN.

project: keras-team/keras-io
source: https://github.com/keras-team/keras-io/issues/910
fixed: https://github.com/keras-team/keras-io/pull/2364
file: examples/generative/wgan_gp.py (WGAN.gradient_penalty, WGAN.train_step)
"""
import keras
import tensorflow as tf


class CriticTrainer(keras.Model):
    def __init__(self, critic, generator, noise_dim, critic_steps=3, penalty_weight=10.0):
        super().__init__()
        self.critic = critic
        self.generator = generator
        self.noise_dim = noise_dim
        self.critic_steps = critic_steps
        self.penalty_weight = penalty_weight

    def penalty(self, n, real, fake):
        t = tf.random.normal([n, 1, 1, 1], 0.0, 1.0)
        between = real + t * (fake - real)
        with tf.GradientTape() as inner:
            inner.watch(between)
            score = self.critic(between, training=True)
        g = inner.gradient(score, [between])[0]
        slope = tf.sqrt(tf.reduce_sum(tf.square(g), axis=[1, 2, 3]))  # error: NAN201 -- gradient as zero source: tape.gradient output
        return tf.reduce_mean((slope - 1.0) ** 2)

    def penalty_with_epsilon(self, n, real, fake):
        t = tf.random.normal([n, 1, 1, 1], 0.0, 1.0)
        between = real + t * (fake - real)
        with tf.GradientTape() as inner:
            inner.watch(between)
            score = self.critic(between, training=True)
        g = inner.gradient(score, [between])[0]
        slope = tf.sqrt(
            tf.reduce_sum(tf.square(g), axis=[1, 2, 3]) + keras.backend.epsilon()  # ok: NAN201
        )
        return tf.reduce_mean((slope - 1.0) ** 2)

    def train_step(self, batch):
        real = batch[0] if isinstance(batch, tuple) else batch
        n = tf.shape(real)[0]
        for _ in range(self.critic_steps):
            noise = tf.random.normal(shape=(n, self.noise_dim))
            with tf.GradientTape() as outer:
                fake = self.generator(noise, training=True)
                wasserstein = self.d_loss_fn(real_img=self.critic(real, training=True),
                                             fake_img=self.critic(fake, training=True))
                critic_loss = wasserstein + self.penalty_weight * self.penalty(n, real, fake)
            weights = self.critic.trainable_variables
            self.d_optimizer.apply_gradients(zip(outer.gradient(critic_loss, weights), weights))
        return {"d_loss": critic_loss}
