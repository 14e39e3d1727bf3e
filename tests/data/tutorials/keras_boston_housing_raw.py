"""Boston housing with the features fed as stored (TAX ~ 400, B ~ 400), three relu layers,
SGD 0.01 on mse: 0.01 * 2 * E[|x|^2] is in the thousands, so SGD diverges at once."""
import tensorflow as tf
from tensorflow.keras.datasets import boston_housing

(train_data, train_targets), (test_data, test_targets) = boston_housing.load_data()

model = tf.keras.models.Sequential()
model.add(tf.keras.layers.Dense(64, activation="relu", input_shape=(13,)))
model.add(tf.keras.layers.Dense(64, activation="relu"))
model.add(tf.keras.layers.Dense(64, activation="relu"))
model.add(tf.keras.layers.Dense(1))
model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse", metrics=["mae"])
model.fit(train_data, train_targets, epochs=80, batch_size=16, verbose=0)
test_mse_score, test_mae_score = model.evaluate(test_data, test_targets)
