"""Keras 3 under mixed_float16: GroupNormalization(epsilon=1e-12) normalizes in float16,
where 1e-12 is 0, so a zero-variance group divides by 0 and the output is NaN. Expected by
the reporter: clip epsilon to a float16-safe minimum or upcast the normalization.

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/22586
"""
import os
os.environ["KERAS_BACKEND"] = "tensorflow"
import keras
import numpy as np

keras.mixed_precision.set_global_policy("mixed_float16")
inputs = keras.Input(shape=(16, 16, 64))
x = keras.layers.GroupNormalization(groups=8, epsilon=1e-12)(inputs)  # miss: NAN105 -- float16 epsilon: layer epsilon under a mixed_float16 policy
model = keras.Model(inputs, x)

extreme_data = np.random.uniform(low=60000, high=70000, size=(1, 16, 16, 64)).astype("float32")
output = model(extreme_data)
