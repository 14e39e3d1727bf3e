"""Under the mixed_float16 policy of Keras 3, a user built GroupNormalization with
epsilon=1e-12 and got NaN. The report blames the epsilon: in float16, 1e-12 rounds to 0, so
a group with zero variance would divide by 0. The reporter asked for the epsilon to be
raised to a float16-safe floor, or for the layer to normalize in a wider type.

The maintainers found another cause. GroupNormalization already took its moments and
`variance + epsilon` in float32 (the layer computes in `backend.result_type(inputs_dtype,
"float32")`, https://github.com/keras-team/keras/pull/20385), and there 1e-12 is not 0.
What breaks is the autocast before `call`: inputs between 60000 and 70000 are cast to
float16, whose largest finite value is 65504, and become inf. The fix turns autocast off for
this layer, as LayerNormalization already did.

The report calls it NAN105 (an epsilon float16 cannot hold); the real fault is the data, and
NAN401 reports values above float16's maximum fed to a model that computes in float16.
`build_without_autocast` applies the upstream fix in user code: with `autocast=False` the
layer stays in the float32 its inputs arrive in.

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/22586
fixed: https://github.com/keras-team/keras/pull/23070
"""
import os
os.environ["KERAS_BACKEND"] = "tensorflow"
import keras
import numpy as np

keras.mixed_precision.set_global_policy("mixed_float16")
feature_map = keras.Input(shape=(16, 16, 64))
normed = keras.layers.GroupNormalization(groups=8, epsilon=1e-12)(feature_map)
net = keras.Model(feature_map, normed)

huge = np.random.uniform(low=60000, high=70000, size=(1, 16, 16, 64)).astype("float32")
result = net(huge)  # error: NAN401


def build_without_autocast():
    feature_map = keras.Input(shape=(16, 16, 64))
    normed = keras.layers.GroupNormalization(groups=8, epsilon=1e-12, autocast=False)(feature_map)
    net = keras.Model(feature_map, normed)
    huge = np.random.uniform(low=60000, high=70000, size=(1, 16, 16, 64))
    return net(huge)  # ok: NAN401
