"""Policy gradient on CartPole: log_lik = -Y * tf.log(action_pred) of a softmax policy;
log(0) gives NaN. The PR clips action_pred to [1e-10, 1].

project: hunkim/ReinforcementZeroToAll
source: https://github.com/hunkim/ReinforcementZeroToAll/pull/16
file: 08_2_softmax_pg_cartpole.py
"""
import tensorflow as tf

input_size = 4
output_size = 2
hidden_layer_neurons = 24
learning_rate = 1e-2

X = tf.placeholder(tf.float32, [None, input_size], name="input_x")
W1 = tf.get_variable("W1", shape=[input_size, hidden_layer_neurons],
                     initializer=tf.contrib.layers.xavier_initializer())
layer1 = tf.nn.relu(tf.matmul(X, W1))
W2 = tf.get_variable("W2", shape=[hidden_layer_neurons, output_size],
                     initializer=tf.contrib.layers.xavier_initializer())
action_pred = tf.nn.softmax(tf.matmul(layer1, W2))
Y = tf.placeholder(tf.float32, [None, output_size], name="input_y")
advantages = tf.placeholder(tf.float32, name="reward_signal")

log_lik = -Y * tf.log(action_pred)  # error: NAN103
log_lik_fixed = -Y * (tf.log(tf.clip_by_value(action_pred, 1e-10, 1.0)))  # ok: NAN103
log_lik_adv = log_lik * advantages
loss = tf.reduce_mean(tf.reduce_sum(log_lik_adv, axis=1))
train = tf.train.AdamOptimizer(learning_rate=learning_rate).minimize(loss)
