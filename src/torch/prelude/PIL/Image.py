"""A stand-in for PIL.Image: the enums and constants model code reads at import time."""
from enum import IntEnum


class Resampling(IntEnum):
    NEAREST = 0
    BOX = 4
    BILINEAR = 2
    HAMMING = 5
    BICUBIC = 3
    LANCZOS = 1


class Transform(IntEnum):
    AFFINE = 0
    EXTENT = 1
    PERSPECTIVE = 2
    QUAD = 3
    MESH = 4


class Transpose(IntEnum):
    FLIP_LEFT_RIGHT = 0
    FLIP_TOP_BOTTOM = 1
    ROTATE_90 = 2
    ROTATE_180 = 3
    ROTATE_270 = 4
    TRANSPOSE = 5
    TRANSVERSE = 6


NEAREST = NONE = 0
LANCZOS = ANTIALIAS = 1
BILINEAR = LINEAR = 2
BICUBIC = CUBIC = 3
BOX = 4
HAMMING = 5
AFFINE = 0
EXTENT = 1
PERSPECTIVE = 2
QUAD = 3
MESH = 4
FLIP_LEFT_RIGHT = 0
FLIP_TOP_BOTTOM = 1


class Image:
    pass


def __getattr__(name):
    import _onnxify
    if name.startswith("__"):
        raise AttributeError(name)
    return _onnxify.poison(f"PIL.Image.{name}", "PIL is not available during conversion")
