"""The Keras mnist_cnn example (scaled input, Adadelta) and the deep autoencoder of the
Keras blog (relu 128-64-32-64-128, sigmoid output, adadelta); a VGG-style CIFAR-10 net
without batch normalization, SGD 0.01 momentum 0.9."""
import keras
from keras import layers
from keras.datasets import cifar10, mnist

(x_train, y_train), (x_test, y_test) = mnist.load_data()
x_train = x_train.reshape(x_train.shape[0], 28, 28, 1).astype("float32") / 255
x_test = x_test.reshape(x_test.shape[0], 28, 28, 1).astype("float32") / 255
y_train = keras.utils.to_categorical(y_train, 10)

model = keras.models.Sequential()
model.add(layers.Conv2D(32, kernel_size=(3, 3), activation="relu", input_shape=(28, 28, 1)))
model.add(layers.Conv2D(64, (3, 3), activation="relu"))
model.add(layers.MaxPooling2D(pool_size=(2, 2)))
model.add(layers.Dropout(0.25))
model.add(layers.Flatten())
model.add(layers.Dense(128, activation="relu"))
model.add(layers.Dropout(0.5))
model.add(layers.Dense(10, activation="softmax"))
model.compile(loss=keras.losses.categorical_crossentropy, optimizer=keras.optimizers.Adadelta(),
              metrics=["accuracy"])
model.fit(x_train, y_train, batch_size=128, epochs=12, validation_data=(x_test, y_test))

input_img = keras.Input(shape=(784,))
encoded = layers.Dense(128, activation="relu")(input_img)
encoded = layers.Dense(64, activation="relu")(encoded)
encoded = layers.Dense(32, activation="relu")(encoded)
decoded = layers.Dense(64, activation="relu")(encoded)
decoded = layers.Dense(128, activation="relu")(decoded)
decoded = layers.Dense(784, activation="sigmoid")(decoded)
autoencoder = keras.Model(input_img, decoded)
autoencoder.compile(optimizer="adadelta", loss="binary_crossentropy")
flat = x_train.reshape((len(x_train), 784))
autoencoder.fit(flat, flat, epochs=100, batch_size=256, shuffle=True)

(cx_train, cy_train), _ = cifar10.load_data()
cx_train = cx_train.astype("float32") / 255.0
vgg = keras.Sequential([
    layers.Conv2D(32, 3, activation="relu", padding="same", input_shape=(32, 32, 3)),
    layers.Conv2D(32, 3, activation="relu", padding="same"),
    layers.MaxPooling2D(),
    layers.Conv2D(64, 3, activation="relu", padding="same"),
    layers.Conv2D(64, 3, activation="relu", padding="same"),
    layers.MaxPooling2D(),
    layers.Flatten(),
    layers.Dense(128, activation="relu"),
    layers.Dense(10, activation="softmax"),
])
vgg.compile(optimizer=keras.optimizers.SGD(learning_rate=0.01, momentum=0.9),
            loss="sparse_categorical_crossentropy", metrics=["accuracy"])
vgg.fit(cx_train, cy_train, epochs=50, batch_size=64)
