"""Siamese example: euclidean_distance = K.sqrt(K.sum(K.square(x - y))) is 0 for two
identical embeddings (two equal inputs, or relu outputs that are all 0), and its gradient
is NaN; the example was fixed with K.maximum(..., K.epsilon()) under the sqrt.

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/9097
fixed: https://github.com/keras-team/keras/pull/6223
file: examples/mnist_siamese_graph.py (euclidean_distance, used in a Lambda layer)
"""
from keras import backend as K
from keras.layers import Dense, Dropout, Input, Lambda
from keras.models import Model, Sequential
from keras.optimizers import RMSprop


def euclidean_distance(vects):
    x, y = vects
    return K.sqrt(K.sum(K.square(x - y), axis=1, keepdims=True))  # error: NAN202


def euclidean_distance_fixed(vects):
    x, y = vects
    return K.sqrt(K.maximum(K.sum(K.square(x - y), axis=1, keepdims=True), K.epsilon()))  # ok: NAN202


def eucl_dist_output_shape(shapes):
    shape1, shape2 = shapes
    return (shape1[0], 1)


def contrastive_loss(y_true, y_pred):
    margin = 1
    return K.mean(y_true * K.square(y_pred) + (1 - y_true) * K.square(K.maximum(margin - y_pred, 0)))


def create_base_network(input_dim):
    seq = Sequential()
    seq.add(Dense(128, input_shape=(input_dim,), activation='relu'))
    seq.add(Dropout(0.1))
    seq.add(Dense(128, activation='relu'))
    seq.add(Dropout(0.1))
    seq.add(Dense(128, activation='relu'))
    return seq


input_dim = 784
base_network = create_base_network(input_dim)
input_a = Input(shape=(input_dim,))
input_b = Input(shape=(input_dim,))
processed_a = base_network(input_a)
processed_b = base_network(input_b)
distance = Lambda(euclidean_distance, output_shape=eucl_dist_output_shape)([processed_a, processed_b])
model = Model(input=[input_a, input_b], output=distance)
model.compile(loss=contrastive_loss, optimizer=RMSprop())
