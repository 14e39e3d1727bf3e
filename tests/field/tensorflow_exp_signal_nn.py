"""A user's network fitting an exponential signal: the output is tf.nn.softmax(...) and the
cost is reduce_mean(y_input * tf.log(calculated_output)), trained with SGD at 0.5; the
printed total error is NaN: the cost has no minus sign, so minimizing it drives the softmax
probabilities to 0 and their log to -inf.

project: tensorflow/tensorflow
source: https://github.com/tensorflow/tensorflow/issues/2403
"""
import tensorflow as tf

x_input = tf.placeholder(tf.float32, shape=(10,))
y_input = tf.placeholder(tf.float32, shape=(10,))
weights_1 = tf.Variable(tf.truncated_normal([10, 10], stddev=.1))
bias_1 = tf.Variable(.1)
hidden_output = tf.nn.relu(tf.matmul(tf.reshape(x_input, [1, 10]), weights_1) + bias_1)
weights_2 = tf.Variable(tf.truncated_normal([10, 10], stddev=.1))
bias_2 = tf.Variable(.1)
calculated_output = tf.nn.softmax(tf.matmul(hidden_output, weights_2) + bias_2)
cross_entropy = tf.reduce_mean(y_input * tf.log(calculated_output))  # error: NAN103
optimizer = tf.train.GradientDescentOptimizer(.5).minimize(cross_entropy)
