"""NAN402: four relu layers and nothing that bounds their scale: with SGD at 0.1 the
activations grow until the loss is NaN."""
import numpy as np
import tensorflow as tf

EXPECT = "loss-above"
BOUND = 1.0


def build():
    model = tf.keras.Sequential([  # error: NAN402
        tf.keras.Input(shape=(16,)),
        tf.keras.layers.Dense(64, activation="relu"),
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
