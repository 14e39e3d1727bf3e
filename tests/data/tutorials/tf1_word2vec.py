"""The TF1 word2vec_basic tutorial: embeddings from random_uniform(-1, 1), NCE weights
truncated_normal(stddev=1/sqrt(embedding_size)), GradientDescentOptimizer(1.0) on the mean
NCE loss, plus the Keras word2vec form with Adam(0.1)."""
import math

import numpy as np
import tensorflow as tf

batch_size = 128
embedding_size = 128
vocabulary_size = 50000
num_sampled = 64

train_inputs = tf.placeholder(tf.int32, shape=[batch_size])
train_labels = tf.placeholder(tf.int32, shape=[batch_size, 1])
embeddings = tf.Variable(tf.random_uniform([vocabulary_size, embedding_size], -1.0, 1.0))
embed = tf.nn.embedding_lookup(embeddings, train_inputs)
nce_weights = tf.Variable(tf.truncated_normal([vocabulary_size, embedding_size],
                                              stddev=1.0 / math.sqrt(embedding_size)))
nce_biases = tf.Variable(tf.zeros([vocabulary_size]))
loss = tf.reduce_mean(tf.nn.nce_loss(weights=nce_weights, biases=nce_biases,
                                     labels=train_labels, inputs=embed,
                                     num_sampled=num_sampled, num_classes=vocabulary_size))
optimizer = tf.train.GradientDescentOptimizer(1.0).minimize(loss)

with tf.Session() as session:
    tf.global_variables_initializer().run()
    for step in range(100001):
        batch_inputs = np.random.randint(0, vocabulary_size, batch_size)
        batch_labels = np.random.randint(0, vocabulary_size, (batch_size, 1))
        _, loss_val = session.run([optimizer, loss],
                                  feed_dict={train_inputs: batch_inputs,
                                             train_labels: batch_labels})


class Word2Vec(tf.keras.Model):
    def __init__(self, vocab_size, embedding_dim):
        super().__init__()
        self.target_embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
        self.context_embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)

    def call(self, pair):
        target, context = pair
        return tf.einsum("be,bce->bc", self.target_embedding(target),
                         self.context_embedding(context))


word2vec = Word2Vec(4096, 128)
word2vec.compile(optimizer=tf.keras.optimizers.Adam(0.1),
                 loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True))
