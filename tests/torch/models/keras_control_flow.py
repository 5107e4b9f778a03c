"""Keras 3 models whose call() takes Python control flow on tensor values (issue 30, must-show 2), on
Keras' torch backend, where eager Keras decides each `if`/`while` on the values it is given. onnxify
keeps both sides as ONNX If and loops as Loop; tests/torch/e2e/test_keras.py runs each on inputs that
take each path. Subclassed models only: Keras traces a Functional model's layers symbolically, where
a Python condition on a tensor has no value."""
import os

os.environ.setdefault("KERAS_BACKEND", "torch")

import keras  # noqa: E402
from keras import layers, ops  # noqa: E402


class _Model(keras.Model):
    """Every sublayer takes 8 features: build() builds them all, whichever branch a first call would
    take (a layer Keras builds on its first call in eager gets new random weights there)."""

    @classmethod
    def make(cls):
        keras.backend.clear_session(free_memory=False)
        m = cls()
        m.build((None, 8))
        return m

    def build(self, input_shape):
        for layer in self._layers:
            if not layer.built:
                layer.build(input_shape)
        self.built = True


class Gate(_Model):
    def __init__(self):
        super().__init__()
        self.a = layers.Dense(8)
        self.b = layers.Dense(8)

    def call(self, x):
        if ops.sum(x) > 0:
            return ops.relu(self.a(x))
        return ops.sigmoid(self.b(x))


class ElifChain(_Model):
    def __init__(self):
        super().__init__()
        self.d = layers.Dense(8)

    def call(self, x):
        m = ops.mean(x)
        if m > 1:
            y = self.d(x)
        elif m > 0:
            y = x * 2
        else:
            y = ops.tanh(x) - 1
        return y


class Ternary(_Model):
    def __init__(self):
        super().__init__()
        self.a = layers.Dense(8, activation="gelu")

    def call(self, x):
        return self.a(x) if ops.max(x) > 2 else x * 3


class WhileHalve(_Model):
    """A while loop on the data: halve until every value is within [-1, 1]."""

    def call(self, x):
        while ops.max(ops.abs(x)) > 1:
            x = x / 2
        return x


class RowLoop(_Model):
    """A Python for over the rows of a batch whose size is only known when the model runs."""

    def __init__(self):
        super().__init__()
        self.d = layers.Dense(8)

    def call(self, x):
        acc = ops.zeros_like(x[0])
        for i in range(ops.shape(x)[0]):
            acc = acc + self.d(x[i:i + 1])[0] * (i + 1)
        return acc


class EarlyReturn(_Model):
    def __init__(self):
        super().__init__()
        self.d = layers.Dense(8)

    def call(self, x):
        if ops.any(x < -5):
            return ops.zeros_like(x)
        return self.d(x)


class BranchInLoop(_Model):
    """A condition on the state inside a fixed loop: one If per step."""

    def __init__(self):
        super().__init__()
        self.a = layers.Dense(8)

    def call(self, x):
        h = x
        for _ in range(3):
            if ops.sum(h) > 0:
                h = ops.tanh(self.a(h))
            else:
                h = h - 1
        return h


class AndOr(_Model):
    def __init__(self):
        super().__init__()
        self.d = layers.Dense(8)

    def call(self, x):
        if ops.mean(x) > 0 and ops.min(x) > -1:
            return self.d(x)
        if ops.max(x) < 0 or ops.mean(x) < -2:
            return -x
        return x * 0.5


class GrowUntil(_Model):
    """A while loop on a tensor condition and a Python counter together."""

    def __init__(self):
        super().__init__()
        self.grow = layers.Dense(8)

    def call(self, x):
        h, n = x, 0
        while ops.sum(ops.abs(h)) < 10 and n < 4:
            h = self.grow(h) + h
            n += 1
        return h


class ClipLayer(layers.Layer):
    """A Layer whose call branches on its input's values, used inside a model."""

    def call(self, x):
        if ops.max(x) > 1:
            x = ops.clip(x, -1, 1)
        return x * 2


class LayerBranch(_Model):
    def __init__(self):
        super().__init__()
        self.d = layers.Dense(8)
        self.clip = ClipLayer()

    def call(self, x):
        return self.clip(self.d(x)) + self.clip(x)
