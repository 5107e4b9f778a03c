"""tf.image.resize: TensorFlow 2 samples at pixel centers (half_pixel_centers), as torch does without
align_corners; 'nearest' takes floor((i + 0.5) * scale), torch's 'nearest-exact'."""

import torch.nn.functional as F

from tensorflow._core import convert_to_tensor, float32


class ResizeMethod:
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_MODES = {"bilinear": "bilinear", "nearest": "nearest-exact"}


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False, antialias=False, name=None):
    x = convert_to_tensor(images)
    if method not in _MODES:
        raise ValueError(f"tf.image.resize method {method!r} is not supported by onnxify (bilinear and nearest are): "
                         "TensorFlow's other kernels do not match ONNX Resize's")
    if preserve_aspect_ratio:
        raise ValueError("tf.image.resize(preserve_aspect_ratio=True) is not supported by onnxify")
    batched = x.dim() == 4
    if not batched:
        x = x.unsqueeze(0)
    dtype = x.dtype
    if method == "bilinear" or not x.is_floating_point():
        x = x.to(float32)  # TensorFlow returns float32 for bilinear, whatever the input
    y = F.interpolate(x.movedim(-1, 1), size=[int(s) if isinstance(s, int) else s for s in size], mode=_MODES[method],
                      antialias=antialias and method == "bilinear").movedim(1, -1)
    if method == "nearest":
        y = y.to(dtype)
    return y if batched else y.squeeze(0)
