"""Keras forms: an optimizer built with clipvalue=0.5 for an LSTM sentiment model (the
Keras docs' example of clipping); a deep regression MLP on standardized California
housing features (StandardScaler) with three relu layers and Adam."""
import keras
import numpy as np
from keras import layers
from sklearn.datasets import fetch_california_housing
from sklearn.preprocessing import StandardScaler

(x_train, y_train), _ = keras.datasets.imdb.load_data(num_words=20000)
x_train = keras.utils.pad_sequences(x_train, maxlen=200)
lstm = keras.Sequential([layers.Embedding(20000, 128), layers.LSTM(64),
                         layers.Dense(1, activation="sigmoid")])
lstm.compile(optimizer=keras.optimizers.SGD(learning_rate=0.01, clipvalue=0.5),
             loss="binary_crossentropy", metrics=["accuracy"])
lstm.fit(x_train, y_train, batch_size=32, epochs=2)

housing = fetch_california_housing()
scaler = StandardScaler()
features = scaler.fit_transform(housing.data)
regressor = keras.Sequential([
    layers.Dense(128, activation="relu", input_shape=(8,)),
    layers.Dense(64, activation="relu"),
    layers.Dense(32, activation="relu"),
    layers.Dense(1),
])
regressor.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
regressor.fit(features, housing.target.astype(np.float32), epochs=20, validation_split=0.2)
