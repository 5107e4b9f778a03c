"""One model with each op whose ONNX granularity depends on target and opset (issue 8): GroupNorm,
Hardswish, LayerNorm, GELU, SiLU (tests/torch/e2e/test_granularity.py)."""
import torch.nn as nn


class Coarse(nn.Module):
    def __init__(self, channels=8, width=12):
        super().__init__()
        self.conv = nn.Conv2d(3, channels, 3, padding=1)
        self.gn = nn.GroupNorm(2, channels)
        self.hardswish = nn.Hardswish()
        self.ln = nn.LayerNorm(width)
        self.gelu = nn.GELU()
        self.silu = nn.SiLU()

    def forward(self, x):
        return self.silu(self.gelu(self.ln(self.hardswish(self.gn(self.conv(x))))))


class Coarse2x(nn.Module):
    """The PyTorch 2.x composites (test_granularity.py): RMSNorm, and scaled_dot_product_attention on
    4-d heads (causal), on 3-d inputs with a float mask, and with grouped key/value heads (enable_gqa)."""

    def __init__(self, dim=16, heads=4):
        super().__init__()
        self.heads = heads
        self.norm = nn.RMSNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.kv = nn.Linear(dim, dim // 2)

    def forward(self, x):
        import torch.nn.functional as F
        b, t, c = x.shape
        q, k, v = self.qkv(self.norm(x)).split(c, dim=2)
        heads = lambda y, h: y.view(b, t, h, -1).transpose(1, 2)  # noqa: E731
        a = F.scaled_dot_product_attention(heads(q, self.heads), heads(k, self.heads), heads(v, self.heads),
                                           is_causal=True)
        bias = x[..., :1] @ x[..., :1].transpose(1, 2)
        s = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        g = heads(self.kv(x), 2)
        gq = F.scaled_dot_product_attention(heads(q, self.heads), g, g, enable_gqa=True)
        return a.transpose(1, 2).reshape(b, t, c) + s + gq.transpose(1, 2).reshape(b, t, c)
