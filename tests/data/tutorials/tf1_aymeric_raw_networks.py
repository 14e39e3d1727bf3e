"""The community TF1 'raw' examples: neural_network_raw (linear 784-256-256-10 with
random_normal weights, Adam 0.1, fused loss) and convolutional_network_raw (random_normal
conv kernels, Adam 0.001), and the autoencoder (sigmoid layers, RMSProp 0.01, MSE)."""
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

mnist = input_data.read_data_sets("/tmp/data/", one_hot=True)
learning_rate = 0.1
X = tf.placeholder("float", [None, 784])
Y = tf.placeholder("float", [None, 10])
weights = {
    "h1": tf.Variable(tf.random_normal([784, 256])),
    "h2": tf.Variable(tf.random_normal([256, 256])),
    "out": tf.Variable(tf.random_normal([256, 10])),
    "wc1": tf.Variable(tf.random_normal([5, 5, 1, 32])),
    "wc2": tf.Variable(tf.random_normal([5, 5, 32, 64])),
    "wd1": tf.Variable(tf.random_normal([7 * 7 * 64, 1024])),
    "encoder_h1": tf.Variable(tf.random_normal([784, 256])),
    "decoder_h1": tf.Variable(tf.random_normal([256, 784])),
}


def neural_net(x):
    layer_1 = tf.matmul(x, weights["h1"])
    layer_2 = tf.matmul(layer_1, weights["h2"])
    return tf.matmul(layer_2, weights["out"])


def conv_net(x):
    x = tf.reshape(x, shape=[-1, 28, 28, 1])
    conv1 = tf.nn.relu(tf.nn.conv2d(x, weights["wc1"], strides=[1, 1, 1, 1], padding="SAME"))
    conv2 = tf.nn.relu(tf.nn.conv2d(conv1, weights["wc2"], strides=[1, 1, 1, 1], padding="SAME"))
    fc1 = tf.reshape(conv2, [-1, 7 * 7 * 64])
    return tf.nn.relu(tf.matmul(fc1, weights["wd1"]))


def autoencoder(x):
    encoded = tf.nn.sigmoid(tf.matmul(x, weights["encoder_h1"]))
    return tf.nn.sigmoid(tf.matmul(encoded, weights["decoder_h1"]))


logits = neural_net(X)
loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=Y))
train_op = tf.train.AdamOptimizer(learning_rate=learning_rate).minimize(loss_op)
conv_loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=conv_net(X)[:, :10],
                                                                   labels=Y))
conv_op = tf.train.AdamOptimizer(learning_rate=0.001).minimize(conv_loss)
ae_loss = tf.reduce_mean(tf.pow(X - autoencoder(X), 2))
ae_op = tf.train.RMSPropOptimizer(0.01).minimize(ae_loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(1, 501):
        batch_x, batch_y = mnist.train.next_batch(128)
        sess.run([train_op, conv_op, ae_op], feed_dict={X: batch_x, Y: batch_y})
