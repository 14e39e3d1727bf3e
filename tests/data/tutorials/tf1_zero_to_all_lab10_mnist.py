"""Sung Kim's lab 07-4 / 10 form on MNIST ([0, 1] pixels from input_data): softmax
regression with random_normal([784, 10]) weights, a hand-written cross-entropy and SGD
0.1 (it trains to ~0.9); and the 3-layer relu network with random_normal weights and
a fused loss under Adam 0.001."""
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
nb_classes = 10
X = tf.placeholder(tf.float32, [None, 784])
Y = tf.placeholder(tf.float32, [None, nb_classes])
W = tf.Variable(tf.random_normal([784, nb_classes]))
b = tf.Variable(tf.random_normal([nb_classes]))
hypothesis = tf.nn.softmax(tf.matmul(X, W) + b)
cost = tf.reduce_mean(-tf.reduce_sum(Y * tf.log(hypothesis), axis=1))
optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.1).minimize(cost)

W1 = tf.Variable(tf.random_normal([784, 256]))
b1 = tf.Variable(tf.random_normal([256]))
L1 = tf.nn.relu(tf.matmul(X, W1) + b1)
W2 = tf.Variable(tf.random_normal([256, 256]))
b2 = tf.Variable(tf.random_normal([256]))
L2 = tf.nn.relu(tf.matmul(L1, W2) + b2)
W3 = tf.Variable(tf.random_normal([256, 10]))
b3 = tf.Variable(tf.random_normal([10]))
logits = tf.matmul(L2, W3) + b3
nn_cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=Y))
nn_optimizer = tf.train.AdamOptimizer(learning_rate=0.001).minimize(nn_cost)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(15):
        for i in range(550):
            batch_xs, batch_ys = mnist.train.next_batch(100)
            c, _ = sess.run([cost, optimizer], feed_dict={X: batch_xs, Y: batch_ys})
            c, _ = sess.run([nn_cost, nn_optimizer], feed_dict={X: batch_xs, Y: batch_ys})
