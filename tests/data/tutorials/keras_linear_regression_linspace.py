"""Keras 3 one-neuron regression on np.linspace(-1, 1) (the data are small): SGD 0.1, mse."""
import keras
import numpy as np

x = np.linspace(-1, 1, 200)
y = 0.5 * x + 2 + np.random.normal(0, 0.05, (200,))
model = keras.Sequential([keras.layers.Dense(1, input_shape=(1,))])
model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse")
model.fit(x, y, epochs=100, verbose=0)
print(model.predict(np.array([0.5])))
