"""A 1x1 conv trained to reproduce raw VGG16 features (relu outputs, unbounded) with an
MSE added through add_loss: plain SGD at 1e-3 gives an inf or NaN loss within a few
epochs; lowering the rate makes it rarer. The step is large for the scale of this loss.

project: tensorflow/tensorflow
source: https://github.com/tensorflow/tensorflow/issues/38796
"""
import numpy as np
import tensorflow as tf
from tensorflow.keras import Model
from tensorflow.keras.layers import *

vgg = tf.keras.applications.VGG16(include_top=False, input_shape=(300, 400, 3))
o = Conv2D(512, [1, 1])(vgg.output)
l = tf.keras.losses.MSE(vgg.output, o)
m = Model(vgg.input, l)
m.add_loss(l)
m.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=1e-3))  # miss: NAN301 -- learning rate vs data and loss scale: MSE of unbounded relu features
m.fit(np.ones([2, 300, 400, 3]), epochs=10)
