"""The Keras-GAN (gan.py) form: LeakyReLU and BatchNormalization, Adam(0.0002, 0.5), noise
from np.random.normal fed to train_on_batch; a DQN agent's Q-network with three relu
layers trained on raw CartPole states (|x| < ~3) with mse and Adam(0.001)."""
import numpy as np
from keras.datasets import mnist
from keras.layers import BatchNormalization, Dense, Flatten, Input, LeakyReLU, Reshape
from keras.models import Model, Sequential
from keras.optimizers import Adam

(X_train, _), (_, _) = mnist.load_data()
X_train = X_train / 127.5 - 1.
X_train = np.expand_dims(X_train, axis=3)
optimizer = Adam(0.0002, 0.5)

discriminator = Sequential([Flatten(input_shape=(28, 28, 1)), Dense(512), LeakyReLU(alpha=0.2),
                            Dense(256), LeakyReLU(alpha=0.2), Dense(1, activation="sigmoid")])
discriminator.compile(loss="binary_crossentropy", optimizer=optimizer, metrics=["accuracy"])
generator = Sequential([Dense(256, input_dim=100), LeakyReLU(alpha=0.2),
                        BatchNormalization(momentum=0.8), Dense(784, activation="tanh"),
                        Reshape((28, 28, 1))])
z = Input(shape=(100,))
discriminator.trainable = False
combined = Model(z, discriminator(generator(z)))
combined.compile(loss="binary_crossentropy", optimizer=optimizer)
for epoch in range(30000):
    idx = np.random.randint(0, X_train.shape[0], 32)
    imgs = X_train[idx]
    noise = np.random.normal(0, 1, (32, 100))
    gen_imgs = generator.predict(noise)
    discriminator.train_on_batch(imgs, np.ones((32, 1)))
    combined.train_on_batch(noise, np.ones((32, 1)))

q_network = Sequential()
q_network.add(Dense(24, input_dim=4, activation="relu"))
q_network.add(Dense(24, activation="relu"))
q_network.add(Dense(24, activation="relu"))
q_network.add(Dense(2, activation="linear"))
q_network.compile(loss="mse", optimizer=Adam(learning_rate=0.001))
states = np.random.uniform(-2.4, 2.4, (64, 4))
q_network.fit(states, np.zeros((64, 2)), epochs=1, verbose=0)
