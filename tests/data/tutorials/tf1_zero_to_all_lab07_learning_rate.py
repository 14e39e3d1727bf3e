"""Sung Kim's lab 07 form: the learning-rate lesson (softmax on small x, SGD 1.5: 'cost
becomes nan') and the stock-price regression on raw prices and volumes (nan until the
data go through a min-max scaler)."""
import numpy as np
import tensorflow as tf

x_data = [[1, 2, 1], [1, 3, 2], [1, 3, 4], [1, 5, 5], [1, 7, 5], [1, 2, 5], [1, 6, 6],
          [1, 7, 7]]
y_data = [[0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 1, 0], [0, 1, 0], [0, 1, 0], [1, 0, 0],
          [1, 0, 0]]
X = tf.placeholder("float", [None, 3])
Y = tf.placeholder("float", [None, 3])
W = tf.Variable(tf.random_normal([3, 3]))
b = tf.Variable(tf.random_normal([3]))
hypothesis = tf.nn.softmax(tf.matmul(X, W) + b)
cost = tf.reduce_mean(-tf.reduce_sum(Y * tf.log(hypothesis), axis=1))
optimizer = tf.train.GradientDescentOptimizer(learning_rate=1.5).minimize(cost)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(201):
        cost_val, W_val, _ = sess.run([cost, W, optimizer], feed_dict={X: x_data, Y: y_data})

xy = np.array([[828.659973, 833.450012, 908100, 828.349976, 831.659973],
               [823.02002, 828.070007, 1828100, 821.655029, 828.070007],
               [819.929993, 824.400024, 1438100, 818.97998, 824.159973],
               [816, 820.958984, 1008100, 815.48999, 819.23999],
               [819.359985, 823, 1188100, 818.469971, 818.97998],
               [819, 823, 1198100, 816, 820.450012],
               [811.700012, 815.25, 1098100, 809.780029, 813.669983],
               [809.51001, 816.659973, 1398100, 804.539978, 809.559998]])
x_stock = xy[:, 0:-1]
y_stock = xy[:, [-1]]
XS = tf.placeholder(tf.float32, shape=[None, 4])
YS = tf.placeholder(tf.float32, shape=[None, 1])
WS = tf.Variable(tf.random_normal([4, 1]), name="weight")
bS = tf.Variable(tf.random_normal([1]), name="bias")
price = tf.matmul(XS, WS) + bS
stock_cost = tf.reduce_mean(tf.square(price - YS))
stock_train = tf.train.GradientDescentOptimizer(learning_rate=1e-5).minimize(stock_cost)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
for step in range(101):
    cost_val, hy_val, _ = sess.run([stock_cost, price, stock_train],
                                   feed_dict={XS: x_stock, YS: y_stock})
