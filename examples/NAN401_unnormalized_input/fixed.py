"""NAN401, as its documentation says: scale the features to about [0, 1] before training;
the loss converges."""
import os
import tempfile

import numpy as np
import tensorflow as tf

EXPECT = "loss-above"
BOUND = 10.0


def train(path, targets):
    features = np.load(path)
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.01), loss="mse")
    history = model.fit(features / 1000.0, targets, epochs=5, verbose=0)  # fixed: NAN401
    return history.history["loss"]


def run():
    tf.keras.utils.set_random_seed(0)
    raw = np.random.default_rng(0).uniform(0, 1000, size=(64, 4)).astype("float32")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "features.npy")
        np.save(path, raw)
        return {"loss": train(path, raw.sum(axis=1, keepdims=True) / 1000)}
