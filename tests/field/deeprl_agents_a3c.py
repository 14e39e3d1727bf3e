"""A3C (Doom): the policy is a slim.fully_connected layer with activation_fn=tf.nn.softmax;
the entropy -sum(policy * tf.log(policy)) and the policy loss tf.log(responsible_outputs)
take log(0) once the policy is sure, and the agent collapses with NaN. The issues' fix:
tf.log(tf.clip_by_value(self.policy, 1e-20, 1.0)) (or policy + 1e-7).

project: awjuliani/DeepRL-Agents
source: https://github.com/awjuliani/DeepRL-Agents/issues/27
source: https://github.com/awjuliani/DeepRL-Agents/issues/34
file: A3C-Doom.ipynb (AC_Network.__init__)
"""
import tensorflow as tf
import tensorflow.contrib.slim as slim


class AC_Network():
    def __init__(self, s_size, a_size, scope, trainer, rnn_out):
        with tf.variable_scope(scope):
            self.policy = slim.fully_connected(rnn_out, a_size,
                activation_fn=tf.nn.softmax,
                biases_initializer=None)
            self.value = slim.fully_connected(rnn_out, 1,
                activation_fn=None,
                biases_initializer=None)
            if scope != 'global':
                self.actions = tf.placeholder(shape=[None], dtype=tf.int32)
                self.actions_onehot = tf.one_hot(self.actions, a_size, dtype=tf.float32)
                self.target_v = tf.placeholder(shape=[None], dtype=tf.float32)
                self.advantages = tf.placeholder(shape=[None], dtype=tf.float32)

                self.responsible_outputs = tf.reduce_sum(self.policy * self.actions_onehot, [1])

                self.value_loss = 0.5 * tf.reduce_sum(tf.square(self.target_v - tf.reshape(self.value, [-1])))
                self.entropy = - tf.reduce_sum(self.policy * tf.log(self.policy))  # error: NAN103 -- layer activation as producer: slim.fully_connected(activation_fn=tf.nn.softmax)
                self.policy_loss = -tf.reduce_sum(tf.log(self.responsible_outputs)*self.advantages)  # error: NAN103 -- a one-hot pick of a slim.fully_connected(activation_fn=tf.nn.softmax)
                self.loss = 0.5 * self.value_loss + self.policy_loss - self.entropy * 0.01

                local_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope)
                self.gradients = tf.gradients(self.loss, local_vars)
                grads, self.grad_norms = tf.clip_by_global_norm(self.gradients, 40.0)
                global_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, 'global')
                self.apply_grads = trainer.apply_gradients(zip(grads, global_vars))

    def entropy_fixed(self):
        self.log_policy = tf.log(tf.clip_by_value(self.policy, 1e-20, 1.0))  # ok: NAN103
        return - tf.reduce_sum(self.policy * self.log_policy)
