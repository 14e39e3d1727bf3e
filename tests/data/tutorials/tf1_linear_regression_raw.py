"""A linear regression on raw data as blog tutorials write it: x from uniform(-10, 10),
plain SGD 0.05 on the mean squared error. lr * 2 * E[x^2] = 0.05 * 2 * 33.3 = 3.3 > 2:
the loss grows every step and reaches inf, then NaN."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

x_data = np.random.uniform(-10, 10, 100).astype(np.float32)
y_data = 3.0 * x_data + 2.0 + np.random.normal(0, 1, 100)

X = tf.placeholder(tf.float32, [None])
Y = tf.placeholder(tf.float32, [None])
W = tf.Variable(tf.random_normal([1]))
b = tf.Variable(tf.zeros([1]))
prediction = W * X + b
loss = tf.reduce_mean(tf.square(prediction - Y))
train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(200):
        sess.run(train, feed_dict={X: x_data, Y: y_data})
        if step % 20 == 0:
            print(step, sess.run([loss, W, b], feed_dict={X: x_data, Y: y_data}))
    print(sess.run(prediction, feed_dict={X: x_data}))
