"""Two beginner programs that differ from the usual ones in the optimizer: raw pixels under
plain SGD, and sale prices in dollars (about 2e5) under Adam."""
import numpy as np
from tensorflow import keras

(x_train, y_train), _ = keras.datasets.mnist.load_data()
x_flat = x_train.reshape(60000, 784).astype("float32")
model = keras.Sequential([keras.layers.Dense(128, activation="sigmoid", input_shape=(784,)),
                          keras.layers.Dense(10, activation="softmax")])
model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1),
              loss="sparse_categorical_crossentropy")
model.fit(x_flat, y_train, epochs=5)

prices = np.random.uniform(50000, 400000, size=(1000, 3)).astype("float32")
targets = prices.sum(axis=1) / 3.0
regressor = keras.Sequential([keras.layers.Dense(16, activation="tanh", input_shape=(3,)),
                              keras.layers.Dense(1)])
regressor.compile(optimizer="adam", loss="mse")
regressor.fit(prices, targets, epochs=20)
