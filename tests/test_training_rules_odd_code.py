"""The training rules (NAN3xx, NAN4xx) on odd code: never an internal error.

A rule that crashes becomes a NAN000 finding "internal error in ..." (see the engine); these
cases are the shapes of code that the value-following of these rules could trip over:
starred arguments, byte strings, infinities, self-referential constants, empty calls.
"""

import pytest

from conftest import options_for
from nanlint.engine import lint_source

ODD = [
 "import tensorflow as tf\nopt = tf.keras.optimizers.Adam(*a, **k)\n",
 "import tensorflow as tf\nopt = tf.keras.optimizers.Adam(learning_rate='0.1')\n",
 "import tensorflow as tf\nopt = tf.keras.optimizers.SGD(lr=1e400)\n",
 "import tensorflow as tf\nx = tf.Variable(tf.random.normal([*s, 10]))\n",
 "import tensorflow as tf\nx = tf.Variable(tf.random.normal([0, 10]))\n",
 "import tensorflow as tf\nx = tf.Variable(tf.random.normal([1e400, 10]))\n",
 "import tensorflow as tf\nx = tf.Variable(tf.random.normal([-5, 10], stddev=-3))\n",
 "import tensorflow as tf\nx = tf.Variable(tf.random.normal([5, 10]) * 0)\n",
 "import argparse, tensorflow as tf\np.add_argument(b'--lr', default=b'x', dest=b'y')\nopt=tf.keras.optimizers.Adam(p.lr)\n",
 "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_float()\nflags.DEFINE_float(name)\nopt=tf.keras.optimizers.Adam(FLAGS.x)\n",
 "import tensorflow as tf\nc = {}\nopt=tf.keras.optimizers.Adam(c['lr'])\nopt=tf.keras.optimizers.Adam(c[1:2])\n",
 "import tensorflow as tf\nfor a in b:\n    tf.clip_by_value(a)\n",
 "import tensorflow as tf\ng = tape.gradient(l, v)\n[tf.clip_by_value(x, *r) for x in g]\n",
 "import tensorflow as tf\nm = tf.keras.Sequential(*layers)\nm = tf.keras.Model()\nm = tf.keras.Model(i, o)\n",
 "import tensorflow as tf\nm = tf.keras.Sequential()\nif x: m.add(1)\n",
 "import tensorflow as tf\nx = x\nmodel.fit(x)\nmodel.fit(*a)\nsess.run(t, feed_dict={**d})\n",
 "import tensorflow as tf\ndef f(x=f):\n    return tf.keras.optimizers.Adam(x)\n",
 "import tensorflow as tf\nA = B\nB = A\nopt = tf.keras.optimizers.Adam(A)\nmodel.fit(A)\n",
 "import tensorflow as tf\nfor (a, b), c in zip(*z):\n    tape.gradient(a, b)\n",
 "import tensorflow as tf\nopt = tf.keras.optimizers.SGD(2 ** 2000)\nopt=tf.keras.optimizers.SGD(10 // 0)\n",
 # float16 policies, layer dtypes and data spans (NAN401's float16 overflow)
 "import numpy as np, keras\nkeras.mixed_precision.set_global_policy()\n"
 "keras.mixed_precision.set_global_policy(*p)\nkeras.mixed_precision.set_global_policy(1)\n"
 "keras.config.set_floatx(dtype=None)\nmodel.predict(np.arange(10) * 1e400)\n",
 "import numpy as np, keras\nkeras.mixed_precision.set_global_policy(keras.mixed_precision.Policy())\n"
 "i = keras.Input(dtype=keras.mixed_precision.Policy(), autocast=1)\nm = keras.Model(i, i)\n"
 "m(np.random.uniform(1e400, -1e400))\nm(np.linspace(0, float('nan')))\nm()\nm(x=1)\n",
 "import numpy as np, tensorflow as tf\ntf.keras.backend.set_floatx('float16')\n"
 "x = tf.cast(np.linspace(0, 1e400, 5), tf.float16)\nx = tf.cast(dtype=tf.float16)\n"
 "sess.run(l, feed_dict={tf.compat.v1.placeholder(): 1, p: np.arange(1e5), **d})\n"
 "p = tf.compat.v1.placeholder()\nsess.run(l, feed_dict={p: np.arange(1e5)})\n",
 # data ranges, training steps and kernel uses
 "import numpy as np, tensorflow as tf\nx = np.random.uniform(*r)\nx = np.arange(0, 10, 0)\n"
 "x = np.arange(1e400)\nx = np.linspace()\nx = np.random.normal(size=(s, 2))\nmodel.fit(x)\n",
 "import numpy as np, tensorflow as tf\nx = np.array([[1, 2], [3]])\nx = np.asarray([])\n"
 "x = 1e400 - np.arange(10)\nx = np.arange(10) / 0\nmodel.fit(x)\n",
 "import tensorflow as tf\nopt = tf.keras.optimizers.SGD(0.1)\nt = opt.minimize()\n"
 "sess.run(t, feed_dict={})\nsess.run(*t)\nt.run()\nopt.apply_gradients()\n"
 "opt.apply_gradients(zip())\nopt.apply_gradients([()])\n",
 "import tensorflow as tf\nopt = tf.keras.optimizers.SGD(0.1)\nl = tf.reduce_mean()\n"
 "t = opt.minimize(l)\nsess.run([t], feed_dict={x: b[i:]})\nsess.run(t, {x: b[:i + 1e400]})\n"
 "m.compile(optimizer=opt, loss=tf.keras.losses.MeanSquaredError())\nm.fit(x=None)\n",
 "import tensorflow as tf\nw = {1: tf.Variable(tf.random.normal([784, 10]))}\n"
 "v = [tf.Variable(tf.random.normal([784, 10]))]\ntf.matmul(x, w[1])\ntf.matmul()\n"
 "tf.math.log(tf.matmul(x))\n",
 "import tensorflow as tf\ndef f():\n    return tf.Variable(tf.random.normal([784, 10]))\n"
 "def g():\n    return f\ntf.math.exp(tf.matmul(x, f()))\nf()()\n",
 "import tensorflow as tf\nh = tf.clip_by_value(tf.matmul(x, w), -1., 1.)\ntf.exp()\ntf.exp(*a)\n",
 "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.layers.Dense(4, activation='relu')] * 4)\n"
 "m.summary\nm = m\n",
]


@pytest.mark.parametrize("source", ODD)
def test_no_internal_error(source):
    findings = lint_source(source, "odd.py", options_for())
    assert not [f.message for f in findings if f.code == "NAN000"]
