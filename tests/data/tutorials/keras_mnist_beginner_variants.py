"""Keras 'hello world' forms from beginner repositories: the /255 forgotten before an
SGD-momentum MLP; the functional API with rmsprop on reshaped raw pixels; the official
quickstart (scaled) with Adam."""
import keras
from keras.datasets import mnist
from keras.layers import Dense, Input
from keras.models import Model, Sequential
from keras.utils import to_categorical

(x_train, y_train), (x_test, y_test) = mnist.load_data()
x_flat = x_train.reshape(60000, 784)
y_onehot = to_categorical(y_train, 10)

model = Sequential()
model.add(Dense(units=64, activation="relu", input_dim=784))
model.add(Dense(units=10, activation="softmax"))
model.compile(loss=keras.losses.categorical_crossentropy,
              optimizer=keras.optimizers.SGD(learning_rate=0.01, momentum=0.9, nesterov=True))
model.fit(x_flat, y_onehot, epochs=5, batch_size=32)

(raw_train, raw_labels), _ = keras.datasets.fashion_mnist.load_data()
inputs = Input(shape=(784,))
x = Dense(64, activation="relu")(inputs)
x = Dense(64, activation="relu")(x)
predictions = Dense(10, activation="softmax")(x)
functional = Model(inputs=inputs, outputs=predictions)
functional.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy",
                   metrics=["accuracy"])
functional.fit(raw_train.reshape(len(raw_train), -1), raw_labels)

x_scaled, x_test_scaled = x_train / 255.0, x_test / 255.0
quick = keras.models.Sequential([
    keras.layers.Flatten(input_shape=(28, 28)),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(10),
])
quick.compile(optimizer="adam",
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
quick.fit(x_scaled, y_train, epochs=5)
quick.evaluate(x_test_scaled, y_test, verbose=2)
