"""Small tabular tutorials in the 'your first neural network' form: Pima diabetes from a
CSV with relu 12-8 and Adam, iris with three relu layers of 10 and Adam, Boston housing
read from a CSV into a 13-relu baseline with Adam (all train)."""
import numpy as np
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import Adam
from keras.utils import to_categorical
from pandas import read_csv
from sklearn.datasets import load_iris

dataset = np.loadtxt("pima-indians-diabetes.csv", delimiter=",")
X = dataset[:, 0:8]
y = dataset[:, 8]
model = Sequential()
model.add(Dense(12, input_shape=(8,), activation="relu"))
model.add(Dense(8, activation="relu"))
model.add(Dense(1, activation="sigmoid"))
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
model.fit(X, y, epochs=150, batch_size=10)

iris = load_iris()
iris_model = Sequential()
iris_model.add(Dense(10, input_shape=(4,), activation="relu"))
iris_model.add(Dense(10, activation="relu"))
iris_model.add(Dense(10, activation="relu"))
iris_model.add(Dense(3, activation="softmax"))
iris_model.compile(optimizer=Adam(learning_rate=0.001), loss="categorical_crossentropy",
                   metrics=["accuracy"])
iris_model.fit(iris.data, to_categorical(iris.target), epochs=200, batch_size=5)

dataframe = read_csv("housing.csv", delim_whitespace=True, header=None)
values = dataframe.values
baseline = Sequential()
baseline.add(Dense(13, input_shape=(13,), kernel_initializer="normal", activation="relu"))
baseline.add(Dense(1, kernel_initializer="normal"))
baseline.compile(loss="mean_squared_error", optimizer="adam")
baseline.fit(values[:, 0:13], values[:, 13], epochs=100, batch_size=5)
