"""TensorFlow 2 models written with tf.Module, tf.Variable, tf.nn/tf.math and tf.function, some with
data-dependent control flow (Python `if`/`while` on tensors as AutoGraph converts them, and
tf.cond / tf.while_loop / tf.switch_case by hand). The same source runs in TensorFlow (the oracle,
bench/keras_tf/tf_code.py) and in onnxify, which evaluates it on its own tensorflow module.

make(name) builds one; paths(np) says, for each model, which inputs take each of its paths. A
tf.keras.Model written with TensorFlow ops is in tf_keras_code.py (a file that imports Keras)."""
import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, activation=None, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([n_in, n_out], stddev=0.3), name="w")
        self.b = tf.Variable(tf.random.normal([n_out], stddev=0.1), name="b")
        self.activation = activation

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return self.activation(y) if self.activation else y


class MLP(tf.Module):
    """A list of layers (checkpoint paths layers/0/w ...), softmax over classes."""

    def __init__(self):
        super().__init__()
        self.layers = [Dense(8, 16, tf.nn.relu), Dense(16, 16, tf.nn.gelu), Dense(16, 4)]

    @tf.function(input_signature=[tf.TensorSpec([None, 8], tf.float32)])
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return tf.nn.softmax(x, axis=-1)


class ConvNet(tf.Module):
    """NHWC convolutions with TensorFlow's SAME padding (odd totals pad one more at the end), pooling
    whose SAME windows average over the input only, depthwise conv, batch norm, resize."""

    def __init__(self):
        super().__init__()
        self.k1 = tf.Variable(tf.random.normal([3, 3, 3, 8], stddev=0.3))
        self.b1 = tf.Variable(tf.random.normal([8], stddev=0.1))
        self.dw = tf.Variable(tf.random.normal([3, 3, 8, 2], stddev=0.3))
        self.k2 = tf.Variable(tf.random.normal([1, 1, 16, 12], stddev=0.3))
        self.gamma = tf.Variable(tf.random.uniform([12], 0.5, 1.5))
        self.beta = tf.Variable(tf.random.normal([12], stddev=0.1))
        self.mean = tf.Variable(tf.random.normal([12], stddev=0.1), trainable=False)
        self.var = tf.Variable(tf.random.uniform([12], 0.5, 1.5), trainable=False)
        self.head = Dense(12, 5)

    @tf.function
    def __call__(self, x):
        x = tf.nn.conv2d(x, self.k1, strides=2, padding="SAME")
        x = tf.nn.relu6(tf.nn.bias_add(x, self.b1))
        x = tf.nn.max_pool2d(x, ksize=3, strides=2, padding="SAME")
        x = tf.nn.depthwise_conv2d(x, self.dw, strides=[1, 1, 1, 1], padding="SAME")
        x = tf.nn.conv2d(x, self.k2, strides=[1, 1, 1, 1], padding="VALID")
        x = tf.nn.batch_normalization(x, self.mean, self.var, self.beta, self.gamma, 1e-3)
        x = tf.nn.swish(x)
        x = tf.image.resize(x, [7, 7])
        x = tf.nn.avg_pool2d(x, ksize=3, strides=2, padding="SAME")
        x = tf.reduce_mean(x, axis=[1, 2])
        return self.head(x)


class Attention(tf.Module):
    """Self-attention over a dynamic batch: tf.shape, reshape, transpose, einsum, moments."""

    def __init__(self, dim=16, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = Dense(dim, 3 * dim)
        self.out = Dense(dim, dim)
        self.scale = tf.Variable(tf.ones([dim]))
        self.shift = tf.Variable(tf.zeros([dim]))

    def norm(self, x):
        mean, var = tf.nn.moments(x, axes=[-1], keepdims=True)
        return (x - mean) * tf.math.rsqrt(var + 1e-5) * self.scale + self.shift

    @tf.function
    def __call__(self, x):
        b = tf.shape(x)[0]
        t, d = x.shape[1], x.shape[2]
        q, k, v = tf.split(self.qkv(self.norm(x)), 3, axis=-1)

        def heads(z):
            return tf.transpose(tf.reshape(z, [b, t, self.heads, d // self.heads]), [0, 2, 1, 3])

        q, k, v = heads(q), heads(k), heads(v)
        att = tf.nn.softmax(tf.einsum("bhqd,bhkd->bhqk", q, k) / (d // self.heads) ** 0.5)
        y = tf.reshape(tf.transpose(tf.matmul(att, v), [0, 2, 1, 3]), [b, t, d])
        return tf.concat([x + self.out(y), tf.reduce_max(y, axis=1, keepdims=True)], axis=1)


class PyIf(tf.Module):
    """Python `if` on a tensor inside tf.function (AutoGraph makes it tf.cond)."""

    def __init__(self):
        super().__init__()
        self.a = Dense(8, 8)
        self.b = Dense(8, 8)

    @tf.function
    def __call__(self, x):
        if tf.reduce_sum(x) > 0:
            y = tf.nn.relu(self.a(x))
        else:
            y = tf.tanh(self.b(x)) - 1.0
        return y


class Cond(tf.Module):
    """tf.cond written by hand, on a per-model scalar."""

    def __init__(self):
        super().__init__()
        self.a = Dense(8, 4)
        self.b = Dense(8, 4)

    def __call__(self, x):
        return tf.cond(tf.reduce_mean(x) > 0.0, lambda: self.a(x) * 2.0, lambda: -self.b(x))


class WhileLoop(tf.Module):
    """tf.while_loop whose trip count depends on the data (halve until small), capped."""

    def __init__(self):
        super().__init__()
        self.a = Dense(8, 8)

    def __call__(self, x):
        y = self.a(x)
        i = tf.constant(0)
        i, y = tf.while_loop(lambda i, y: tf.reduce_max(tf.abs(y)) > 1.0, lambda i, y: (i + 1, y * 0.5), (i, y),
                             maximum_iterations=20)
        return y, i


class PyWhile(tf.Module):
    """Python `while` on a tensor inside tf.function (AutoGraph makes it tf.while_loop)."""

    def __init__(self):
        super().__init__()
        self.a = Dense(8, 8, tf.nn.relu)

    @tf.function
    def __call__(self, x):
        y = self.a(x) + 0.1
        steps = tf.zeros([], tf.float32)
        while tf.reduce_sum(y) < 50.0:
            y = y * 2.0
            steps += 1.0
        return y, steps


class Switch(tf.Module):
    """tf.switch_case on an index computed from the input (out of range: the last branch)."""

    def __init__(self):
        super().__init__()
        self.branches = [Dense(8, 4), Dense(8, 4), Dense(8, 4)]

    def __call__(self, x):
        index = tf.cast(tf.reduce_sum(tf.cast(x > 0.0, tf.float32)), tf.int32) // 8
        return tf.switch_case(index, [lambda: self.branches[0](x), lambda: tf.nn.sigmoid(self.branches[1](x)),
                                      lambda: self.branches[2](x) * 3.0])


class Extras(tf.Module):
    """Transposed convolutions (SAME with an odd output size, VALID), gather_nd, gather on an axis,
    map_fn and a TensorArray written in a `for` over the run-time batch."""

    def __init__(self):
        super().__init__()
        self.up = tf.Variable(tf.random.normal([3, 3, 4, 6], stddev=0.3))  # [h, w, out, in]
        self.up_valid = tf.Variable(tf.random.normal([2, 2, 3, 4], stddev=0.3))
        self.table = tf.Variable(tf.random.normal([10, 5]))

    @tf.function
    def __call__(self, x):
        b = tf.shape(x)[0]
        y = tf.nn.conv2d_transpose(x, self.up, [b, 13, 13, 4], strides=2, padding="SAME")
        y = tf.nn.leaky_relu(y)
        y = tf.nn.conv2d_transpose(y, self.up_valid, [b, 26, 26, 3], strides=[1, 2, 2, 1], padding="VALID")
        pairs = tf.stack([tf.math.floormod(tf.range(4) * 3, 10), tf.range(4) % 5], axis=1)
        picked = tf.gather_nd(self.table, pairs)
        pooled = tf.map_fn(lambda img: tf.reduce_max(img, axis=[0, 1]), y)
        ta = tf.TensorArray(tf.float32, size=b)
        for i in tf.range(b):
            ta = ta.write(i, tf.reduce_mean(y[i]) * tf.cast(i + 1, tf.float32))
        return y, pooled * tf.reduce_sum(picked), tf.gather(self.table, [1, 3], axis=1), ta.stack()


MODELS = {"MLP": MLP, "ConvNet": ConvNet, "Attention": Attention, "PyIf": PyIf, "Cond": Cond,
          "WhileLoop": WhileLoop, "PyWhile": PyWhile, "Switch": Switch, "Extras": Extras}

def make(name):
    tf.random.set_seed(0)
    return MODELS[name]()


def paths(np):
    """{model: {path: input}}: inputs (batch 1 and 3) chosen to take each path."""
    rng = np.random.default_rng(0)

    def batch(n, shape, lo=-1.0, hi=1.0):
        return rng.uniform(lo, hi, (n,) + shape).astype(np.float32)

    out = {}
    for name in ("MLP", "ConvNet", "Attention", "Extras"):
        shape = {"MLP": (8,), "ConvNet": (28, 28, 3), "Attention": (6, 16), "Extras": (7, 7, 6)}[name]
        out[name] = {"batch1": batch(1, shape), "batch3": batch(3, shape)}
    for name in ("PyIf", "Cond"):
        out[name] = {"positive": batch(3, (8,), 0.1, 1.0), "negative": batch(1, (8,), -1.0, -0.1)}
    out["WhileLoop"] = {"no_iteration": batch(3, (8,), -0.01, 0.01), "several": batch(1, (8,), 2.0, 4.0)}
    out["PyWhile"] = {"no_iteration": batch(3, (8,), 9.0, 10.0), "several": batch(1, (8,), -0.2, 0.2)}
    out["Switch"] = {"branch0": batch(1, (8,), -1.0, -0.1), "branch1": batch(1, (8,), 0.1, 1.0),
                     "branch2": batch(3, (8,), 0.1, 1.0)}
    return out
