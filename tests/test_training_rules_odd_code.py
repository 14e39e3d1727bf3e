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
]


@pytest.mark.parametrize("source", ODD)
def test_no_internal_error(source):
    findings = lint_source(source, "odd.py", options_for())
    assert not [f.message for f in findings if f.code == "NAN000"]
