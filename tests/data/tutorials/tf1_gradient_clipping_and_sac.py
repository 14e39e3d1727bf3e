"""Two TF1 forms: the much-copied gradient clipping snippet (compute_gradients, then
clip_by_value of each gradient to [-1, 1]) in an LSTM language model, and the Spinning Up
SAC policy head whose log_std is clipped before exp."""
import numpy as np
import tensorflow as tf

LOG_STD_MIN, LOG_STD_MAX = -20, 2

inputs = tf.placeholder(tf.int32, [None, 35])
targets = tf.placeholder(tf.int32, [None, 35])
embedding = tf.get_variable("embedding", [10000, 200])
cell = tf.nn.rnn_cell.LSTMCell(200)
outputs, _ = tf.nn.dynamic_rnn(cell, tf.nn.embedding_lookup(embedding, inputs), dtype=tf.float32)
logits = tf.layers.dense(outputs, 10000)
cost = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets,
                                                                     logits=logits))
optimizer = tf.train.AdamOptimizer(learning_rate=0.001)
gvs = optimizer.compute_gradients(cost)
capped_gvs = [(tf.clip_by_value(grad, -1., 1.), var) for grad, var in gvs]
train_op = optimizer.apply_gradients(capped_gvs)


def mlp_gaussian_policy(x, a, hidden_sizes, activation, output_activation):
    act_dim = a.shape.as_list()[-1]
    net = x
    for h in hidden_sizes:
        net = tf.layers.dense(net, units=h, activation=activation)
    mu = tf.layers.dense(net, act_dim, activation=output_activation)
    log_std = tf.layers.dense(net, act_dim, activation=None)
    log_std = tf.clip_by_value(log_std, LOG_STD_MIN, LOG_STD_MAX)
    std = tf.exp(log_std)
    pi = mu + tf.random_normal(tf.shape(mu)) * std
    return mu, pi


x_ph = tf.placeholder(tf.float32, [None, 17])
a_ph = tf.placeholder(tf.float32, [None, 6])
mu, pi = mlp_gaussian_policy(x_ph, a_ph, (256, 256), tf.nn.relu, None)
pi_loss = -tf.reduce_mean(pi)
pi_train = tf.train.AdamOptimizer(1e-3).minimize(pi_loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(pi_train, feed_dict={x_ph: np.random.randn(100, 17), a_ph: np.zeros((100, 6))})
    sess.run(train_op, feed_dict={inputs: np.zeros((20, 35)), targets: np.zeros((20, 35))})
