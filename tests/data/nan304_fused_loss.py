"""NAN304: the same wide initializations, but nothing in the file turns large logits into
inf/NaN: a fused, stable cross-entropy (the community multilayer-perceptron example, which
trains) and Keras layers with Keras losses."""
import keras
import tensorflow.compat.v1 as tf

weights = {
    "h1": tf.Variable(tf.random_normal([784, 256])),  # ok: NAN304
    "out": tf.Variable(tf.random_normal([256, 10])),  # ok: NAN304
}


def network(x, y):
    hidden = tf.nn.relu(tf.matmul(x, weights["h1"]))
    logits = tf.matmul(hidden, weights["out"])
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))


model = keras.Sequential([
    keras.layers.Dense(256, activation="relu",
                       kernel_initializer=keras.initializers.RandomNormal(stddev=1.0)),  # ok: NAN304
    keras.layers.Dense(10),
])
model.compile(optimizer="adam",
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

