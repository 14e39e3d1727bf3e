"""A user put Lambda(K.sqrt) right after a Dense layer with relu activation. Relu units are
exactly 0, the square root's gradient there is infinite, and the loss went NaN (on CPU);
without the square-root line the model trained normally. The thread goes on to an output
layer and a training loop that the stored copy does not show, so this file ends where the
quoted code ends.

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/13203
"""
import keras as keras


def build_branch():
    image = keras.Input(shape=(10, 10), dtype='float', name='image_in')
    hidden = keras.layers.Dense(units=64, activation='relu', name='hidden')(image)
    flat = keras.layers.Flatten()(hidden)
    rooted = keras.layers.Lambda(lambda t: keras.backend.sqrt(t), name='root')(flat)  # error: NAN201 -- Keras Lambda layer applied to a relu layer's output
    return image, rooted
