"""Keras 3's applications for the zoo (lib_keras.py), read by onnxify (`onnxify export
bench/zoo/keras_apps.py --model 'app("ResNet50", 64)'`) and built by eager Keras from this same file,
on Keras' torch backend (where a Keras model is a torch.nn.Module). Each build starts from a cleared
Keras session: parameter names hold Keras' per-process layer numbering, which must be a fresh
process's for the checkpoint's keys to be the ones onnxify's build gives."""
import os

os.environ.setdefault("KERAS_BACKEND", "torch")  # before keras is imported

import keras  # noqa: E402


def app(name, size, classes=10):
    keras.backend.clear_session(free_memory=False)
    return getattr(keras.applications, name)(weights=None, input_shape=(size, size, 3), classes=classes)
