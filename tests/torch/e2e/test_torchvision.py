"""torchvision models from the unmodified Debian sources, batch size symbolic, checked on two batch
sizes and a second resolution."""
import pytest

from harness import DIST_PACKAGES, TORCHVISION, Batch, Case, check


# test_targets.py exports each model 8 more times (targets x opsets): there, smaller images (still
# two batch sizes and two resolutions) keep the run short.
MATRIX_SHAPES = [{"N": 2, "H": 64, "W": 64}, {"N": 1, "H": 96, "W": 80}]


def tv(name, module, expr, shapes, **kw):
    return Case(name, f"{TORCHVISION}/models/{module}.py", expr, {"x": "float32[N,3,H,W]"}, shapes=shapes,
                path=DIST_PACKAGES, matrix_shapes=MATRIX_SHAPES, **kw)


CASES = [
    tv("resnet18", "resnet", "resnet18()", [{"N": 2, "H": 224, "W": 224}, {"N": 3, "H": 160, "W": 192}]),
    tv("resnet50", "resnet", "resnet50()", [{"N": 2, "H": 224, "W": 224}, {"N": 1, "H": 128, "W": 160}]),
    tv("vgg11_bn", "vgg", "vgg11_bn()", [{"N": 2, "H": 224, "W": 224}, {"N": 1, "H": 160, "W": 128}]),
    tv("alexnet", "alexnet", "alexnet()", [{"N": 2, "H": 224, "W": 224}, {"N": 3, "H": 256, "W": 192}]),
    tv("squeezenet1_1", "squeezenet", "squeezenet1_1()", [{"N": 2, "H": 224, "W": 224}, {"N": 3, "H": 160, "W": 192}]),
    tv("mobilenet_v2", "mobilenetv2", "mobilenet_v2()", [{"N": 2, "H": 224, "W": 224}, {"N": 3, "H": 160, "W": 192}]),
    tv("densenet121", "densenet", "densenet121()", [{"N": 2, "H": 224, "W": 224}, {"N": 1, "H": 160, "W": 192}]),
    tv("googlenet", "googlenet", "googlenet(init_weights=True)", [{"N": 2, "H": 224, "W": 224}, {"N": 3, "H": 160, "W": 192}]),
    tv("shufflenet_v2_x1_0", "shufflenetv2", "shufflenet_v2_x1_0()",
       [{"N": 2, "H": 224, "W": 224}, {"N": 3, "H": 160, "W": 192}]),
    tv("mnasnet0_5", "mnasnet", "mnasnet0_5()", [{"N": 2, "H": 224, "W": 224}, {"N": 3, "H": 160, "W": 192}]),
    # BlockParams computes the stage widths with tensors and reads them with tolist() (conversion-time
    # constants, DESIGN.md decision 1).
    tv("regnet_y_400mf", "regnet", "regnet_y_400mf()", [{"N": 2, "H": 64, "W": 64}, {"N": 3, "H": 64, "W": 64}]),
]


def tv_static(name, module, expr, size, **kw):
    """A model whose image size is part of its construction (ViT's position embedding; Swin's shifted
    windows decide per stage from the padded size): symbolic batch, batch 1 included."""
    return Case(name, f"{TORCHVISION}/models/{module}.py", expr, {"x": f"float32[N,3,{size},{size}]"},
                shapes=[{"N": 2}, {"N": 1}], path=DIST_PACKAGES, **kw)


# Transformers, in small configurations of the same classes (the CI machine has 2 cores); the full
# vit_b_16, swin_t and swin_v2_t export the same code. Swin's padding (12 -> 12 and 6 -> 8 patches) and
# both shift cases (shifted windows, and a window as large as the feature map: no shift) are covered.
SWIN = "patch_size=[4, 4], embed_dim=16, depths=[2, 2], num_heads=[2, 4], window_size=[4, 4]"
CASES += [
    tv_static("vit_small", "vision_transformer",
              "VisionTransformer(image_size=64, patch_size=16, num_layers=2, num_heads=2, hidden_dim=64, mlp_dim=128)",
              64),
    tv_static("vit_small_conv_stem", "vision_transformer",
              "VisionTransformer(image_size=32, patch_size=4, num_layers=1, num_heads=4, hidden_dim=32, mlp_dim=64, "
              "num_classes=10, representation_size=16, conv_stem_configs=[ConvStemConfig(8, 3, 2)] * 2)", 32),
    tv_static("swin_small", "swin_transformer", f"SwinTransformer({SWIN}, stochastic_depth_prob=0.1)", 48),
    # With the resolution symbolic: whether a stage shifts its windows is decided by the padded size
    # at run time (an If; the shift a run-time value for roll and the mask's slices). 48: both stages
    # shift; 16: the window covers both stages' maps (no shift); 20x36: padding, one side shifts.
    tv("swin_small_any_size", "swin_transformer", f"SwinTransformer({SWIN})",
       [{"N": 2, "H": 48, "W": 48}, {"N": 1, "H": 16, "W": 16}, {"N": 1, "H": 20, "W": 36}]),
    tv("swin_v2_small_any_size", "swin_transformer",
       f"SwinTransformer({SWIN}, block=SwinTransformerBlockV2, downsample_layer=PatchMergingV2)",
       [{"N": 2, "H": 48, "W": 48}, {"N": 1, "H": 16, "W": 16}, {"N": 1, "H": 20, "W": 36}]),
    tv_static("swin_v2_small", "swin_transformer",
              f"SwinTransformer({SWIN}, block=SwinTransformerBlockV2, downsample_layer=PatchMergingV2)", 48),
]
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_torchvision(case):
    check(BATCH.get(case))
