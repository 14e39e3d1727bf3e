"""A TF2 WGAN-GP on MNIST as the Keras example writes it: images scaled to [-1, 1], latent
noise from tf.random.normal, Adam(2e-4, beta_1=0.5, beta_2=0.9), the gradient penalty."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

BATCH_SIZE = 512
noise_dim = 128

(train_images, train_labels), (_, _) = tf.keras.datasets.fashion_mnist.load_data()
train_images = train_images.reshape(train_images.shape[0], 28, 28, 1).astype("float32")
train_images = (train_images - 127.5) / 127.5


def get_discriminator_model():
    img_input = layers.Input(shape=(28, 28, 1))
    x = layers.ZeroPadding2D((2, 2))(img_input)
    x = layers.Conv2D(64, (5, 5), strides=(2, 2), padding="same")(x)
    x = layers.LeakyReLU(0.2)(x)
    x = layers.Conv2D(128, (5, 5), strides=(2, 2), padding="same")(x)
    x = layers.LeakyReLU(0.2)(x)
    x = layers.Dropout(0.3)(x)
    x = layers.Flatten()(x)
    x = layers.Dense(1)(x)
    return tf.keras.models.Model(img_input, x, name="discriminator")


def get_generator_model():
    noise = layers.Input(shape=(noise_dim,))
    x = layers.Dense(4 * 4 * 256, use_bias=False)(noise)
    x = layers.BatchNormalization()(x)
    x = layers.LeakyReLU(0.2)(x)
    x = layers.Reshape((4, 4, 256))(x)
    x = layers.UpSampling2D((2, 2))(x)
    x = layers.Conv2D(128, (3, 3), padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("tanh")(x)
    return tf.keras.models.Model(noise, x, name="generator")


d_model = get_discriminator_model()
g_model = get_generator_model()
generator_optimizer = tf.keras.optimizers.Adam(learning_rate=0.0002, beta_1=0.5, beta_2=0.9)
discriminator_optimizer = tf.keras.optimizers.Adam(learning_rate=0.0002, beta_1=0.5,
                                                   beta_2=0.9)


def gradient_penalty(batch_size, real_images, fake_images):
    alpha = tf.random.normal([batch_size, 1, 1, 1], 0.0, 1.0)
    diff = fake_images - real_images
    interpolated = real_images + alpha * diff
    with tf.GradientTape() as gp_tape:
        gp_tape.watch(interpolated)
        pred = d_model(interpolated, training=True)
    grads = gp_tape.gradient(pred, [interpolated])[0]
    norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1, 2, 3]))
    gp = tf.reduce_mean((norm - 1.0) ** 2)
    return gp


@tf.function
def train_step(real_images):
    batch_size = tf.shape(real_images)[0]
    random_latent_vectors = tf.random.normal(shape=(batch_size, noise_dim))
    with tf.GradientTape() as tape:
        fake_images = g_model(random_latent_vectors, training=True)
        fake_logits = d_model(fake_images, training=True)
        real_logits = d_model(real_images, training=True)
        d_cost = tf.reduce_mean(fake_logits) - tf.reduce_mean(real_logits)
        d_loss = d_cost + gradient_penalty(batch_size, real_images, fake_images) * 10.0
    d_gradient = tape.gradient(d_loss, d_model.trainable_variables)
    discriminator_optimizer.apply_gradients(zip(d_gradient, d_model.trainable_variables))
    with tf.GradientTape() as tape:
        generated_images = g_model(random_latent_vectors, training=True)
        gen_img_logits = d_model(generated_images, training=True)
        g_loss = -tf.reduce_mean(gen_img_logits)
    gen_gradient = tape.gradient(g_loss, g_model.trainable_variables)
    generator_optimizer.apply_gradients(zip(gen_gradient, g_model.trainable_variables))
    return d_loss, g_loss


dataset = tf.data.Dataset.from_tensor_slices(train_images).shuffle(60000).batch(BATCH_SIZE)
for epoch in range(20):
    for image_batch in dataset:
        train_step(image_batch)
