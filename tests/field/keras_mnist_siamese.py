"""The Keras siamese MNIST example measures the distance between two embeddings as
K.sqrt(K.sum(K.square(x - y))). Two identical embeddings (equal inputs, or relu outputs that
are all 0) give a distance of 0, and the square root's gradient there is NaN. The example
was fixed by flooring the sum with K.maximum(..., K.epsilon()) under the square root.

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/9097
fixed: https://github.com/keras-team/keras/pull/6223
file: examples/mnist_siamese_graph.py (euclidean_distance, used in a Lambda layer)
"""
from keras import backend as K
from keras.layers import Dense, Dropout, Input, Lambda
from keras.models import Model, Sequential
from keras.optimizers import RMSprop


def pair_distance(pair):
    left, right = pair
    return K.sqrt(K.sum(K.square(left - right), axis=1, keepdims=True))  # error: NAN202


def pair_distance_floored(pair):
    left, right = pair
    return K.sqrt(K.maximum(K.sum(K.square(left - right), axis=1, keepdims=True), K.epsilon()))  # ok: NAN202


def distance_shape(shapes):
    return (shapes[0][0], 1)


def margin_loss(y_true, y_pred):
    too_close = K.maximum(1 - y_pred, 0)
    return K.mean(y_true * K.square(y_pred) + (1 - y_true) * K.square(too_close))


def embedder(n_in):
    net = Sequential()
    net.add(Dense(128, input_shape=(n_in,), activation='relu'))
    for _ in range(2):
        net.add(Dropout(0.1))
        net.add(Dense(128, activation='relu'))
    return net


shared = embedder(784)
first = Input(shape=(784,))
second = Input(shape=(784,))
dist = Lambda(pair_distance, output_shape=distance_shape)([shared(first), shared(second)])
siamese = Model(input=[first, second], output=dist)
siamese.compile(loss=margin_loss, optimizer=RMSprop())
