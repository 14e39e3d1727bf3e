"""A TF1 deep relu network in the 'neural network from scratch' form: one helper builds
every layer with tf.random_normal (stddev 1) weights; a tf.clip_by_value on a hidden layer
to 'stop the explosion'; SGD at a learning rate read from a config dict far away."""
import numpy as np
import tensorflow as tf

CONFIG = {"learning_rate": 2.0, "batch_size": 128, "hidden": 512}


def dense(x, n_in, n_out, activation=tf.nn.relu):
    w = tf.Variable(tf.random_normal([n_in, n_out]))
    b = tf.Variable(tf.zeros([n_out]))
    return activation(tf.matmul(x, w) + b)


def build(x):
    h = dense(x, 784, CONFIG["hidden"])
    h = tf.clip_by_value(h, -100.0, 100.0)
    h = dense(h, CONFIG["hidden"], CONFIG["hidden"])
    return dense(h, CONFIG["hidden"], 10, activation=tf.identity)


def train(x_train, y_train):
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.int64, [None])
    logits = build(x)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                         logits=logits))
    step = tf.train.GradientDescentOptimizer(CONFIG["learning_rate"]).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(0, len(x_train), CONFIG["batch_size"]):
            sess.run(step, feed_dict={x: x_train[i:i + 128], y: y_train[i:i + 128]})


(x_all, y_all), _ = tf.keras.datasets.mnist.load_data()
train(x_all.reshape(-1, 784) / 255.0, y_all)
