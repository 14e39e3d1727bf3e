"""The TF 'Basic regression: predict fuel efficiency' tutorial: a Normalization layer,
Adam(learning_rate=0.1) for the linear models, Adam(0.001) for the DNN."""
import numpy as np
import pandas as pd
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

url = "http://archive.ics.uci.edu/ml/machine-learning-databases/auto-mpg/auto-mpg.data"
column_names = ["MPG", "Cylinders", "Displacement", "Horsepower", "Weight",
                "Acceleration", "Model Year", "Origin"]
raw_dataset = pd.read_csv(url, names=column_names, na_values="?", comment="\t", sep=" ",
                          skipinitialspace=True)
dataset = raw_dataset.copy().dropna()
train_dataset = dataset.sample(frac=0.8, random_state=0)
test_dataset = dataset.drop(train_dataset.index)
train_features = train_dataset.copy()
test_features = test_dataset.copy()
train_labels = train_features.pop("MPG")
test_labels = test_features.pop("MPG")

normalizer = tf.keras.layers.Normalization(axis=-1)
normalizer.adapt(np.array(train_features))

horsepower = np.array(train_features["Horsepower"])
horsepower_normalizer = layers.Normalization(input_shape=[1, ], axis=None)
horsepower_normalizer.adapt(horsepower)
horsepower_model = tf.keras.Sequential([horsepower_normalizer, layers.Dense(units=1)])
horsepower_model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.1),
                         loss="mean_absolute_error")
history = horsepower_model.fit(train_features["Horsepower"], train_labels, epochs=100,
                               verbose=0, validation_split=0.2)

linear_model = tf.keras.Sequential([normalizer, layers.Dense(units=1)])
linear_model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.1),
                     loss="mean_absolute_error")
history = linear_model.fit(train_features, train_labels, epochs=100, verbose=0,
                           validation_split=0.2)


def build_and_compile_model(norm):
    model = keras.Sequential([
        norm,
        layers.Dense(64, activation="relu"),
        layers.Dense(64, activation="relu"),
        layers.Dense(1),
    ])
    model.compile(loss="mean_absolute_error", optimizer=tf.keras.optimizers.Adam(0.001))
    return model


dnn_model = build_and_compile_model(normalizer)
history = dnn_model.fit(train_features, train_labels, validation_split=0.2, verbose=0,
                        epochs=100)
