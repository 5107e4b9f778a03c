"""torchvision: every classification model (`torchvision.models.list_models(module=torchvision.models)`),
every detection, segmentation and optical-flow model, and the smallest video models, unchanged,
random weights (`weights=None`, and `weights_backbone=None` where the builder takes it).

Inputs:
- classification: x = float32[N,3,H,W], tried in eager with H, W symbolic at 64x64 (batch 2) and
  96x64 (batch 1), else static 224x224 (vit, swin, maxvit: fixed sizes) with the batch symbolic;
- detection: `tv_wrappers.Detection(detection.NAME(weights=None, weights_backbone=None,
  min_size=320, max_size=320))` (the resize bounds kept at 320 so the internal resize is the
  identity on a 320x320 image; SSD models resize to their own fixed size and take no bounds):
  images = float32[N,3,320,320] at batch 2 and 1 (H, W symbolic tried first: 320x320 and 256x320).
  Their BatchNorm layers (plain BatchNorm2d without pretrained backbone weights) keep their initial
  statistics: the calibration passes of train mode would need targets;
- segmentation: x = float32[N,3,H,W] at 128x128 and 96x128 (static 128x128 if that fails);
- optical flow: image1, image2 = float32[N,3,H,W] at 128x128 and 160x128 (multiples of 8, at
  least 128: the correlation pyramid's minimum);
- video: x = float32[N,3,T,H,W] at 8x112x112 and 8x96x112, else static 16x224x224."""
from common import candidate, static_variant

DETECTION_FIXED_SIZE = ("ssd300_vgg16", "ssdlite320_mobilenet_v3_large", "fasterrcnn_mobilenet_v3_large_320_fpn")
VIDEO = ("r3d_18", "mc3_18", "r2plus1d_18", "s3d", "mvit_v2_s", "swin3d_t")


def list_names():
    import torch
    import torchvision
    from torchvision import models
    names = ["classification/" + n for n in models.list_models(module=models)]
    names += ["detection/" + n for n in models.list_models(module=models.detection)]
    names += ["segmentation/" + n for n in models.list_models(module=models.segmentation)]
    names += ["optical_flow/" + n for n in models.list_models(module=models.optical_flow)]
    names += ["video/" + n for n in VIDEO]
    return {"names": names, "total": len(names), "held_out": 0,
            "versions": {"torchvision": torchvision.__version__, "torch": torch.__version__}}


def _with_static(c):
    s = static_variant(c, batch="N")
    return [c, s] if s else [c]


def candidates(name):
    kind, arch = name.split("/", 1)
    if kind == "classification":
        c = candidate(f"{arch}()", {"x": "float32[N,3,H,W]"}, [{"N": 2, "H": 64, "W": 64}, {"N": 1, "H": 96, "W": 64}],
                      module="torchvision.models", note="H, W symbolic")
        s = candidate(f"{arch}()", {"x": "float32[N,3,224,224]"}, [{"N": 2}, {"N": 1}], module="torchvision.models",
                      note="224x224, batch symbolic")
        return [c, s]
    if kind == "detection":
        import os
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tv_wrappers.py")
        kw = "weights=None, weights_backbone=None" + ("" if arch in DETECTION_FIXED_SIZE else
                                                       ", min_size=320, max_size=320")
        c = candidate(f"Detection(detection.{arch}({kw}))", {"images": "float32[N,3,H,W]"},
                      [{"N": 2, "H": 320, "W": 320}, {"N": 1, "H": 256, "W": 320}], source=src, note="H, W symbolic",
                      calibrate=False)
        return _with_static(c)
    if kind == "segmentation":
        c = candidate(f"{arch}(weights=None, weights_backbone=None)", {"x": "float32[N,3,H,W]"},
                      [{"N": 2, "H": 128, "W": 128}, {"N": 1, "H": 96, "W": 128}],
                      module="torchvision.models.segmentation", note="H, W symbolic")
        return _with_static(c)
    if kind == "optical_flow":
        c = candidate(f"{arch}(weights=None)", {"image1": "float32[N,3,H,W]", "image2": "float32[N,3,H,W]"},
                      [{"N": 2, "H": 128, "W": 128}, {"N": 1, "H": 160, "W": 128}],
                      module="torchvision.models.optical_flow", note="H, W symbolic")
        return _with_static(c)
    if kind == "video":
        c = candidate(f"{arch}()", {"x": "float32[N,3,T,H,W]"}, [{"N": 2, "T": 8, "H": 112, "W": 112},
                                                                 {"N": 1, "T": 8, "H": 96, "W": 112}],
                      module="torchvision.models.video", note="T, H, W symbolic")
        s = candidate(f"{arch}()", {"x": "float32[N,3,16,224,224]"}, [{"N": 2}, {"N": 1}],
                      module="torchvision.models.video", note="16x224x224, batch symbolic")
        return [c, static_variant(c, batch="N"), s]
    raise ValueError(f"unknown torchvision kind {kind!r}")
