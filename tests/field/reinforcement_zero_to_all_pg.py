"""A CartPole policy-gradient example weights -Y * tf.log(policy) by the advantages, where
the policy is a softmax: once an action's probability underflows to 0 the log is -inf and
the update is NaN. A pull request clips the probabilities into [1e-10, 1] before the log.

project: hunkim/ReinforcementZeroToAll
source: https://github.com/hunkim/ReinforcementZeroToAll/pull/16
file: 08_2_softmax_pg_cartpole.py
"""
import tensorflow as tf

n_obs = 4
n_actions = 2
n_hidden = 24
step_size = 1e-2

observations = tf.placeholder(tf.float32, [None, n_obs], name="observations")
hidden_kernel = tf.get_variable("hidden_kernel", shape=[n_obs, n_hidden],
                                initializer=tf.contrib.layers.xavier_initializer())
hidden = tf.nn.relu(tf.matmul(observations, hidden_kernel))
policy_kernel = tf.get_variable("policy_kernel", shape=[n_hidden, n_actions],
                                initializer=tf.contrib.layers.xavier_initializer())
policy = tf.nn.softmax(tf.matmul(hidden, policy_kernel))
taken = tf.placeholder(tf.float32, [None, n_actions], name="taken_actions")
returns = tf.placeholder(tf.float32, name="discounted_returns")

neg_log_prob = -taken * tf.log(policy)  # error: NAN103
neg_log_prob_clipped = -taken * (tf.log(tf.clip_by_value(policy, 1e-10, 1.0)))  # ok: NAN103
weighted = neg_log_prob * returns
objective = tf.reduce_mean(tf.reduce_sum(weighted, axis=1))
update = tf.train.AdamOptimizer(learning_rate=step_size).minimize(objective)
