"""NAN401 fixed: the data is divided by its range before it reaches the model, so the float16
the layers cast it to holds it, and the output is finite."""
import numpy as np
import tensorflow as tf


def run():
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        tf.keras.utils.set_random_seed(0)
        inputs = tf.keras.Input(shape=(16,))
        model = tf.keras.Model(inputs, tf.keras.layers.Dense(4)(inputs))
        data = np.random.uniform(low=60000, high=70000, size=(2, 16)).astype("float32")
        output = model(data / 70000.0)  # fixed: NAN401 (scaled into float16's range)
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")
    return {"output": np.asarray(output, dtype=np.float32)}
