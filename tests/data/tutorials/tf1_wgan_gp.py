"""A TF1 WGAN-GP (the 'improved training of WGANs' code form): weights from
tf.random_normal_initializer(stddev=0.02) via helpers, a latent z placeholder fed with
np.random.normal, a latent variable for interpolation, Adam(1e-4, 0.5, 0.9)."""
import numpy as np
import tensorflow as tf

BATCH_SIZE = 64
Z_DIM = 128
LAMBDA = 10


def linear(name, x, n_in, n_out):
    with tf.variable_scope(name):
        w = tf.get_variable("w", [n_in, n_out],
                            initializer=tf.random_normal_initializer(stddev=0.02))
        b = tf.get_variable("b", [n_out], initializer=tf.constant_initializer(0.0))
        return tf.matmul(x, w) + b


def generator(z):
    h = tf.nn.relu(linear("g1", z, Z_DIM, 512))
    h = tf.nn.relu(linear("g2", h, 512, 512))
    return tf.nn.tanh(linear("g3", h, 512, 784))


def discriminator(x, reuse=False):
    with tf.variable_scope("disc", reuse=reuse):
        h = tf.nn.leaky_relu(linear("d1", x, 784, 512))
        h = tf.nn.leaky_relu(linear("d2", h, 512, 512))
        return linear("d3", h, 512, 1)


real = tf.placeholder(tf.float32, [None, 784])
z = tf.placeholder(tf.float32, [None, Z_DIM])
fixed_latent = tf.Variable(tf.random_normal([BATCH_SIZE, Z_DIM]), name="fixed_latent")
fake = generator(z)
d_real = discriminator(real)
d_fake = discriminator(fake, reuse=True)
gen_cost = -tf.reduce_mean(d_fake)
disc_cost = tf.reduce_mean(d_fake) - tf.reduce_mean(d_real)
alpha = tf.random_uniform(shape=[BATCH_SIZE, 1], minval=0., maxval=1.)
interpolates = real + alpha * (fake - real)
gradients = tf.gradients(discriminator(interpolates, reuse=True), [interpolates])[0]
slopes = tf.sqrt(tf.reduce_sum(tf.square(gradients), reduction_indices=[1]))
gradient_penalty = tf.reduce_mean((slopes - 1.) ** 2)
disc_cost += LAMBDA * gradient_penalty
gen_train_op = tf.train.AdamOptimizer(1e-4, beta1=0.5, beta2=0.9).minimize(gen_cost)
disc_train_op = tf.train.AdamOptimizer(1e-4, beta1=0.5, beta2=0.9).minimize(disc_cost)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for it in range(100000):
        batch_z = np.random.normal(size=(BATCH_SIZE, Z_DIM))
        sess.run(gen_train_op, feed_dict={z: batch_z})
