"""torchvision 0.29 classification models beyond those test_torchvision.py checks (issue 12).

Each model here passed tests/torch/e2e/torchvision_sweep.py (the sweep over every classification
model; its table is docs/torchvision-sweep.md) and is checked the same way: built from the
unmodified torchvision source in the venv (random init, seed 0, BatchNorm statistics calibrated),
exported with `--input x=float32[N,3,H,W]`, run in ONNX Runtime at batch 2 and batch 1 and compared
with eager PyTorch (rtol 1e-3, atol 1e-4 scaled by the output's magnitude; harness.check's rule).
A model whose export fails, whose file ONNX Runtime refuses, or whose numbers differ fails its test.

One or two models per family, chosen for what their code does differently, keep the file near a minute
of CPU on two cores (CI's budget is tight):

    convnext_tiny          ConvNeXt (LayerNorm2d, layer scale, stochastic depth)
    efficientnet_b0        EfficientNet (MBConv, squeeze-excitation, SiLU)
    efficientnet_v2_s      EfficientNetV2 (FusedMBConv)
    inception_v3           Inception v3 (299x299, aux head dropped in eval)
    mobilenet_v3_small     MobileNetV3 (hardswish, hardsigmoid squeeze-excitation)
    mobilenet_v3_large
    mnasnet1_3             MNASNet at alpha != 0.5 (test_torchvision.py has mnasnet0_5)
    regnet_x_400mf         RegNetX (test_torchvision.py has regnet_y_400mf)
    resnet34               ResNet with BasicBlock (beyond resnet18's depth)
    resnext50_32x4d        grouped 3x3 convolutions
    squeezenet1_0          SqueezeNet 1.0's stem and pooling layout (test_torchvision.py has 1.1)
    vgg16                  VGG without BatchNorm (test_torchvision.py has vgg11_bn)
    vit_b_32               full-size ViT (test_torchvision.py has small ViT configurations)

Covered by the sweep only (pass there; same code as a model above or in test_torchvision.py, at
other widths and depths): convnext_small, convnext_base, convnext_large, densenet161, densenet169,
densenet201, efficientnet_b1, efficientnet_b2, efficientnet_b3, efficientnet_b4, efficientnet_b5,
efficientnet_b7, efficientnet_v2_m, mnasnet0_75, mnasnet1_0, regnet_x_800mf, regnet_x_1_6gf,
regnet_x_3_2gf, regnet_x_8gf, regnet_x_16gf, regnet_x_32gf, regnet_y_800mf, regnet_y_1_6gf,
regnet_y_3_2gf, regnet_y_8gf, regnet_y_16gf, regnet_y_32gf, shufflenet_v2_x0_5, shufflenet_v2_x1_5,
shufflenet_v2_x2_0, vgg11, vgg13, vgg13_bn, vgg16_bn, vgg19, vgg19_bn, vit_b_16, wide_resnet50_2.

Not here because they do not pass the sweep (docs/torchvision-sweep.md lists the errors):
maxvit_t (export fails);
swin_t/s/b and swin_v2_t/s/b (export fails with a symbolic resolution, passes with a static one);
vit_l_16, vit_l_32, vit_h_14, regnet_y_128gf (not tried: over 200M parameters); efficientnet_b6,
efficientnet_v2_l, resnet101, resnet152, resnext101_32x8d, resnext101_64x4d, wide_resnet101_2
(differ from eager float32 beyond the tolerance, but by float rounding only: ORT is no further
from eager float64 than eager float32 is).

Run the sweep itself (all models; 20 to 40 minutes on two cores): python tests/torch/e2e/torchvision_sweep.py"""
import pytest

import torchvision_sweep as sweep

ZOO = [
    "convnext_tiny",
    "efficientnet_b0",
    "efficientnet_v2_s",
    "inception_v3",
    "mobilenet_v3_small",
    "mobilenet_v3_large",
    "mnasnet1_3",
    "regnet_x_400mf",
    "resnet34",
    "resnext50_32x4d",
    "squeezenet1_0",
    "vgg16",
    "vit_b_32",
]


def test_zoo_is_new_and_known():
    """Every model named here is a torchvision classification model and none repeats a model that
    test_torchvision.py builds by name (read as text: importing it would make its models' batch)."""
    import os
    import re
    names = set(sweep.model_names())
    assert set(ZOO) <= names, sorted(set(ZOO) - names)
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_torchvision.py")) as f:
        named = set(re.findall(r'tv\("(\w+)"', f.read()))
    assert named and not named & set(ZOO), sorted(named & set(ZOO))


@pytest.mark.parametrize("name", ZOO)
def test_torchvision_zoo(name, tmp_path):
    r = sweep.run_model(name, str(tmp_path), static_retry=False)
    detail = r.get("stderr", "")
    assert r["outcome"] == "pass", f"{name} at {r.get('hw')}x{r.get('hw')}: {r['outcome']}\n{detail}"
