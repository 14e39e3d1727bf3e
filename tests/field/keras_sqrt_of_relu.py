"""A Lambda(K.sqrt) directly on a Dense(relu) output: relu units are exactly 0, the
gradient of sqrt there is inf and the loss turns NaN (on CPU); removing the sqrt line
trains normally. The thread's code continues with an output layer and training, not
shown in the stored copy: the fixture stops where the quoted code stops.

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/13203
"""
import keras as keras


def get_test_mode():
    input = keras.Input(shape=(10, 10), dtype='float', name='raw_image_left')
    test = keras.layers.Dense(units=64, activation='relu', name='middle', )(input)
    test = keras.layers.Flatten()(test)
    test = keras.layers.Lambda(lambda x: keras.backend.sqrt(x), name='error_point')(test)  # error: NAN201 -- Keras Lambda layer applied to a relu layer's output
    return input, test
