"""A TF1 image classifier in the blog-tutorial form: images read with cv2-free TF decoders
into a numpy array X_data without scaling, one training sess.run, then an evaluation run
and a prediction run on the same raw data; a sigmoid hidden layer of random_normal weights."""
import numpy as np
import tensorflow as tf

files = ["img/%d.png" % i for i in range(1000)]
labels = np.random.randint(0, 2, (1000, 1)).astype(np.float32)
with tf.Session() as loader:
    X_data = np.stack([loader.run(tf.image.decode_png(tf.read_file(f), channels=1))
                       for f in files]).reshape(1000, 64 * 64).astype(np.float32)

X = tf.placeholder(tf.float32, [None, 4096])
Y = tf.placeholder(tf.float32, [None, 1])
W1 = tf.Variable(tf.random_normal([4096, 64]))
b1 = tf.Variable(tf.random_normal([64]))
hidden = tf.sigmoid(tf.matmul(X, W1) + b1)
W2 = tf.Variable(tf.random_normal([64, 1]))
b2 = tf.Variable(tf.random_normal([1]))
hypothesis = tf.sigmoid(tf.matmul(hidden, W2) + b2)
cost = -tf.reduce_mean(Y * tf.log(hypothesis) + (1 - Y) * tf.log(1 - hypothesis))
train = tf.train.GradientDescentOptimizer(learning_rate=0.1).minimize(cost)
predicted = tf.cast(hypothesis > 0.5, dtype=tf.float32)
accuracy = tf.reduce_mean(tf.cast(tf.equal(predicted, Y), dtype=tf.float32))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(10001):
        sess.run(train, feed_dict={X: X_data, Y: labels})
    h, c, a = sess.run([hypothesis, predicted, accuracy], feed_dict={X: X_data, Y: labels})
    print(sess.run(hypothesis, feed_dict={X: X_data}))
