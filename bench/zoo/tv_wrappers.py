"""Wrappers for torchvision's detection models, read by onnxify (`onnxify export bench/zoo/tv_wrappers.py
--model 'Detection(detection.NAME(...))'`) and built by eager PyTorch and torch.onnx.export from this
same file. A detection model takes a list of 3-D images; `Detection` takes one batched tensor
float32[N,3,H,W] and hands the model `list(images)` (its N images): the same wrapper for all three
exporters. The output is the model's own: a list of N dicts (boxes, labels, scores, and masks or
keypoints where the model has them)."""
import torch
from torchvision.models import detection  # noqa: F401  (named in --model)


class Detection(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, images):
        return self.model(list(images))
