"""diffusers: tiny configurations of its main model classes (random weights), built with the
classes' own keyword arguments as literals, evaluated in the `diffusers` namespace (`-m diffusers`):
UNet2DConditionModel (2 blocks, one cross-attention), UNet2DModel, AutoencoderKL (encode + decode
of forward), DiTTransformer2DModel, SD3Transformer2DModel, PixArtTransformer2DModel and
FluxTransformer2DModel, 1-2 layers each. Inputs as forward takes them, return_dict=False:
- UNets: sample float32[B,4,H,W] (H, W symbolic: 16x16 at batch 2, 24x16 at batch 1, else the batch
  alone symbolic), timestep int64[B] in [0, 1000), encoder_hidden_states float32[B,S,32];
- AutoencoderKL: sample float32[B,3,H,W] at 32x32 and 48x32;
- DiT: hidden_states float32[B,4,H,W], timestep int64[B], class_labels int64[B] in [0, 10);
- SD3 / PixArt: hidden_states float32[B,4,H,W], encoder_hidden_states float32[B,S,32],
  pooled_projections float32[B,32] (SD3), timestep int64[B];
- Flux: hidden_states float32[B,L,16] (packed latents), encoder_hidden_states float32[B,S,32],
  pooled_projections float32[B,32], timestep float32[B], img_ids float32[L,3], txt_ids float32[S,3]."""
from common import candidate, static_variant

UNET_COND = dict(sample_size=16, in_channels=4, out_channels=4, layers_per_block=1, block_out_channels=(32, 64),
                 down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"),
                 up_block_types=("CrossAttnUpBlock2D", "UpBlock2D"), cross_attention_dim=32, attention_head_dim=8,
                 norm_num_groups=8)
UNET = dict(sample_size=16, in_channels=4, out_channels=4, layers_per_block=1, block_out_channels=(32, 64),
            down_block_types=("DownBlock2D", "AttnDownBlock2D"), up_block_types=("AttnUpBlock2D", "UpBlock2D"),
            attention_head_dim=8, norm_num_groups=8)
VAE = dict(in_channels=3, out_channels=3, down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
           up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D"), block_out_channels=(32, 64), latent_channels=4,
           norm_num_groups=8, layers_per_block=1, sample_size=32)
DIT = dict(num_attention_heads=2, attention_head_dim=16, in_channels=4, out_channels=4, num_layers=2, sample_size=8,
           patch_size=2, num_embeds_ada_norm=10, norm_num_groups=8)
SD3 = dict(sample_size=16, patch_size=2, in_channels=4, num_layers=2, attention_head_dim=16, num_attention_heads=2,
           joint_attention_dim=32, caption_projection_dim=32, pooled_projection_dim=32, out_channels=4,
           pos_embed_max_size=32)
PIXART = dict(num_attention_heads=2, attention_head_dim=16, in_channels=4, out_channels=8, num_layers=2,
              cross_attention_dim=32, sample_size=8, patch_size=2, norm_num_groups=8, caption_channels=32)
FLUX = dict(patch_size=1, in_channels=16, num_layers=1, num_single_layers=1, attention_head_dim=16,
            num_attention_heads=2, joint_attention_dim=32, pooled_projection_dim=32, axes_dims_rope=(4, 6, 6))

RET = {"return_dict": "False"}
LAT = [{"B": 2, "H": 16, "W": 16, "S": 7}, {"B": 1, "H": 24, "W": 16, "S": 5}]
MODELS = {
    "UNet2DConditionModel": (UNET_COND, {"sample": "float32[B,4,H,W]", "timestep": "int64[B]",
                                         "encoder_hidden_states": "float32[B,S,32]", **RET},
                             LAT, {"timestep": "int:0:1000"}),
    "UNet2DModel": (UNET, {"sample": "float32[B,4,H,W]", "timestep": "int64[B]", **RET}, LAT,
                    {"timestep": "int:0:1000"}),
    "AutoencoderKL": (VAE, {"sample": "float32[B,3,H,W]", **RET},
                      [{"B": 2, "H": 32, "W": 32}, {"B": 1, "H": 48, "W": 32}], {}),
    "DiTTransformer2DModel": (DIT, {"hidden_states": "float32[B,4,8,8]", "timestep": "int64[B]",
                                    "class_labels": "int64[B]", **RET}, [{"B": 2}, {"B": 1}],
                              {"timestep": "int:0:1000", "class_labels": "int:0:10"}),
    "SD3Transformer2DModel": (SD3, {"hidden_states": "float32[B,4,H,W]", "encoder_hidden_states": "float32[B,S,32]",
                                    "pooled_projections": "float32[B,32]", "timestep": "int64[B]", **RET},
                              LAT, {"timestep": "int:0:1000"}),
    "PixArtTransformer2DModel": (PIXART, {"hidden_states": "float32[B,4,8,8]", "encoder_hidden_states": "float32[B,S,32]",
                                          "timestep": "int64[B]", "added_cond_kwargs": "{'resolution': None, 'aspect_ratio': None}",
                                          **RET}, [{"B": 2, "S": 7}, {"B": 1, "S": 5}], {"timestep": "int:0:1000"}),
    "FluxTransformer2DModel": (FLUX, {"hidden_states": "float32[B,L,16]", "encoder_hidden_states": "float32[B,S,32]",
                                      "pooled_projections": "float32[B,32]", "timestep": "float32[B]",
                                      "img_ids": "float32[L,3]", "txt_ids": "float32[S,3]", **RET},
                               [{"B": 2, "L": 16, "S": 7}, {"B": 1, "L": 12, "S": 5}], {"timestep": "positive"}),
}


def list_names():
    import diffusers
    import torch
    return {"names": list(MODELS), "total": len(MODELS), "held_out": 0,
            "versions": {"diffusers": diffusers.__version__, "torch": torch.__version__}}


def candidates(name):
    kwargs, inputs, shapes, gen = MODELS[name]
    c = candidate(f"{name}(**{kwargs!r})", inputs, shapes, gen, module="diffusers", note="symbolic dims")
    s = static_variant(c)
    return [c, s] if s else [c]
