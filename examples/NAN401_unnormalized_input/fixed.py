"""NAN401, as its documentation says: scale the features to about [0, 1] before training;
the loss converges."""
import numpy as np
import tensorflow as tf

EXPECT = "loss-above"
BOUND = 10.0


def train(targets):
    np.random.seed(0)
    features = np.random.uniform(0, 1000, size=(64, 4)).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.01), loss="mse")
    history = model.fit(features / 1000.0, targets, epochs=5, verbose=0)  # fixed: NAN401
    return history.history["loss"]


def run():
    tf.keras.utils.set_random_seed(0)
    raw = np.random.default_rng(0).uniform(0, 1000, size=(64, 4)).astype("float32")
    return {"loss": train(raw.sum(axis=1, keepdims=True) / 1000)}
