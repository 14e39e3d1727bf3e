"""An A3C agent for Doom gets its policy from slim.fully_connected with
activation_fn=tf.nn.softmax. Both the entropy bonus, -sum(policy * tf.log(policy)), and the
policy-gradient term, tf.log of the probability of the chosen action, take log(0) as soon
as the policy becomes certain, and the agent falls apart with NaN. The issues recommend
tf.log(tf.clip_by_value(self.policy, 1e-20, 1.0)), or adding 1e-7 to the policy.

project: awjuliani/DeepRL-Agents
source: https://github.com/awjuliani/DeepRL-Agents/issues/27
source: https://github.com/awjuliani/DeepRL-Agents/issues/34
file: A3C-Doom.ipynb (AC_Network.__init__)
"""
import tensorflow as tf
import tensorflow.contrib.slim as slim


class Worker():
    def __init__(self, obs_size, n_actions, scope, optimizer, lstm_out):
        with tf.variable_scope(scope):
            self.pi = slim.fully_connected(lstm_out, n_actions, activation_fn=tf.nn.softmax,
                                           biases_initializer=None)
            self.v = slim.fully_connected(lstm_out, 1, activation_fn=None, biases_initializer=None)
            if scope == 'global':
                return
            self.taken = tf.placeholder(shape=[None], dtype=tf.int32)
            self.returns = tf.placeholder(shape=[None], dtype=tf.float32)
            self.adv = tf.placeholder(shape=[None], dtype=tf.float32)
            taken_onehot = tf.one_hot(self.taken, n_actions, dtype=tf.float32)
            self.pi_taken = tf.reduce_sum(self.pi * taken_onehot, [1])

            critic_term = 0.5 * tf.reduce_sum(tf.square(self.returns - tf.reshape(self.v, [-1])))
            self.ent = - tf.reduce_sum(self.pi * tf.log(self.pi))  # error: NAN103 -- layer activation as producer: slim.fully_connected(activation_fn=tf.nn.softmax)
            actor_term = -tf.reduce_sum(self.adv * tf.log(self.pi_taken))  # error: NAN103 -- a one-hot pick of a slim.fully_connected(activation_fn=tf.nn.softmax)
            self.total = 0.5 * critic_term + actor_term - 0.01 * self.ent

            own = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope)
            clipped, self.norm = tf.clip_by_global_norm(tf.gradients(self.total, own), 40.0)
            shared = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, 'global')
            self.push = optimizer.apply_gradients(zip(clipped, shared))

    def entropy_clipped(self):
        self.log_pi = tf.log(tf.clip_by_value(self.pi, 1e-20, 1.0))  # ok: NAN103
        return - tf.reduce_sum(self.pi * self.log_pi)
