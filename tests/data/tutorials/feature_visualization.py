"""Feature visualization / DeepDream in the Lucid and Keras-example form: an input image
optimized by gradient ascent with Adam(0.05) and with plain SGD steps of 10 on raw pixels."""
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.applications.InceptionV3(weights="imagenet", include_top=False)
feature_extractor = keras.Model(inputs=model.inputs,
                                outputs=model.get_layer("mixed3").output)

img = tf.Variable(tf.random.uniform((1, 180, 180, 3)) * 0.25 + 0.5)
optimizer = keras.optimizers.Adam(learning_rate=0.05)
for iteration in range(30):
    with tf.GradientTape() as tape:
        activation = feature_extractor(img)
        loss = -tf.reduce_mean(activation[:, 2:-2, 2:-2, 0])
    grads = tape.gradient(loss, img)
    optimizer.apply_gradients([(grads, img)])

pixels = tf.Variable(np.random.uniform(0, 255, (1, 224, 224, 3)).astype("float32"))
ascent = tf.keras.optimizers.SGD(learning_rate=10.0)
for step in range(20):
    with tf.GradientTape() as tape:
        score = tf.reduce_mean(feature_extractor(pixels))
    ascent.apply_gradients([(-tape.gradient(score, pixels), pixels)])

# Lucid's own default: Adam(0.05) over a parameterized image.
t_image = tf.Variable(tf.random.normal([1, 128, 128, 3], stddev=0.01))
lucid_opt = tf.compat.v1.train.AdamOptimizer(0.05)
vis_op = lucid_opt.minimize(-tf.reduce_mean(feature_extractor(t_image)), var_list=[t_image])
