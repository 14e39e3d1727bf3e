"""Dive-into-Deep-Learning (TF) forms: linear regression on synthetic normal features with
SGD 0.03, softmax regression from scratch with a hand-written softmax and weights of
stddev 0.01, an MLP from scratch (stddev 0.01, relu, SGD 0.1)."""
import tensorflow as tf

true_w = tf.constant([2, -3.4])
features = tf.random.normal((1000, 2))
labels = tf.matmul(features, tf.reshape(true_w, (-1, 1))) + 4.2
w = tf.Variable(tf.random.normal((2, 1), stddev=0.01))
b = tf.Variable(tf.zeros(1))
trainer = tf.keras.optimizers.SGD(learning_rate=0.03)
for epoch in range(3):
    with tf.GradientTape() as tape:
        l = tf.reduce_mean(tf.square(tf.matmul(features, w) + b - labels)) / 2
    trainer.apply_gradients(zip(tape.gradient(l, [w, b]), [w, b]))

W = tf.Variable(tf.random.normal(shape=(784, 10), mean=0, stddev=0.01))
b_out = tf.Variable(tf.zeros(10))


def softmax(X):
    X_exp = tf.exp(X)
    partition = tf.reduce_sum(X_exp, 1, keepdims=True)
    return X_exp / partition


def net(X):
    return softmax(tf.matmul(tf.reshape(X, (-1, W.shape[0])), W) + b_out)


def cross_entropy(y_hat, y):
    return -tf.math.log(tf.boolean_mask(y_hat, tf.one_hot(y, depth=y_hat.shape[-1])))


W1 = tf.Variable(tf.random.normal(shape=(784, 256), mean=0, stddev=0.01))
W2 = tf.Variable(tf.random.normal(shape=(256, 10), mean=0, stddev=0.01))


def mlp(X):
    H = tf.nn.relu(tf.matmul(tf.reshape(X, (-1, 784)), W1))
    return tf.matmul(H, W2)


updater = tf.keras.optimizers.SGD(learning_rate=0.1)
