"""NAN402, as its documentation says: a normalization layer early in the stack keeps the
scale in check; the same training converges."""
import numpy as np
import tensorflow as tf

EXPECT = "loss-above"
BOUND = 1.0


def build():
    model = tf.keras.Sequential([  # fixed: NAN402
        tf.keras.Input(shape=(16,)),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.LayerNormalization(),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    return model


def run():
    tf.keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 16)).astype("float32") * 4
    y = rng.normal(size=(64, 1)).astype("float32")
    history = build().fit(x, y, epochs=20, batch_size=16, verbose=0)
    return {"loss": history.history["loss"]}
