"""Keras 3 under mixed_float16: GroupNormalization(epsilon=1e-12) normalizes in float16,
where 1e-12 is 0, so a zero-variance group divides by 0 and the output is NaN. Expected by
the reporter: clip epsilon to a float16-safe minimum or upcast the normalization.

The maintainers' diagnosis differs from the reporter's: GroupNormalization already computed
its moments and `variance + epsilon` in float32 (`backend.result_type(inputs_dtype,
"float32")`, since PR 20385), where 1e-12 is not 0; the NaN comes from autocast casting the
inputs of 60000-70000 to float16 (maximum 65504, so inf) before `call`. The fix disables
autocast for the layer, as LayerNormalization already does (PR 23070).

The reporter read it as NAN105 (a float16 epsilon); the bug is the data: NAN401 reports
values beyond float16's maximum reaching a model that computes in float16. `fixed_model`
is the same model with the fix of PR 23070 written in the user's code (`autocast=False`:
the layer computes in the float32 its inputs arrive in).

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/22586
fixed: https://github.com/keras-team/keras/pull/23070
"""
import os
os.environ["KERAS_BACKEND"] = "tensorflow"
import keras
import numpy as np

keras.mixed_precision.set_global_policy("mixed_float16")
inputs = keras.Input(shape=(16, 16, 64))
x = keras.layers.GroupNormalization(groups=8, epsilon=1e-12)(inputs)
model = keras.Model(inputs, x)

extreme_data = np.random.uniform(low=60000, high=70000, size=(1, 16, 16, 64)).astype("float32")
output = model(extreme_data)  # error: NAN401


def fixed_model():
    inputs = keras.Input(shape=(16, 16, 64))
    x = keras.layers.GroupNormalization(groups=8, epsilon=1e-12, autocast=False)(inputs)
    model = keras.Model(inputs, x)
    extreme_data = np.random.uniform(low=60000, high=70000, size=(1, 16, 16, 64))
    return model(extreme_data)  # ok: NAN401
