"""NAN401: data of 60000-70000 reaches a model under the mixed_float16 policy. The layers cast
their inputs to float16 (maximum 65504), so the values are inf before the first operation and
the output is inf/NaN (keras-team/keras issue 22586)."""
import numpy as np
import tensorflow as tf


def run():
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        tf.keras.utils.set_random_seed(0)
        inputs = tf.keras.Input(shape=(16,))
        model = tf.keras.Model(inputs, tf.keras.layers.Dense(4)(inputs))
        data = np.random.uniform(low=60000, high=70000, size=(2, 16)).astype("float32")
        output = model(data)  # error: NAN401
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")
    return {"output": np.asarray(output, dtype=np.float32)}
