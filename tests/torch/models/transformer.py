"""nn.MultiheadAttention, F.multi_head_attention_forward and the Transformer modules
(tests/torch/e2e/test_transformer.py).

Mask inputs arrive as random tensors; the wrappers keep key 0 unmasked (`_keep_key0`) unless a case
is about rows with nothing to attend: for those PyTorch's inference fast path (NaN) and its reference
path (zeros, through scaled_dot_product_attention) disagree, and which one eager PyTorch takes depends
on autograd mode (src/torch/prelude/torch/nn/modules/transformer.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _keep_key0(mask):
    """The mask with key 0 never masked (bool: False, float: 0)."""
    if mask is None:
        return None
    return mask.masked_fill(torch.arange(mask.size(-1)) == 0, 0)


def _as_float(mask):
    """A bool mask as the additive float mask models build (-inf where masked)."""
    return torch.zeros(mask.shape).masked_fill(mask, float("-inf"))


class Mha(nn.Module):
    """nn.MultiheadAttention(embed_dim, num_heads, **kwargs) called as attn(q, k, v, ...): k defaults to
    q and v to k (the same tensor: self-attention projects once, encoder-decoder attention projects the
    key once for k and v). `call`: forward's keyword arguments; `float_masks`: bool mask inputs become
    additive float masks first; `keep_key0=False` lets masks hide every key of a row."""

    def __init__(self, embed_dim=16, num_heads=4, call=None, float_masks=False, keep_key0=True, **kwargs):
        super().__init__()
        self.attn = nn.MultiheadAttention(embed_dim, num_heads, **kwargs)
        self.call = call or {}
        self.float_masks = float_masks
        self.keep_key0 = keep_key0

    def forward(self, q, k=None, v=None, kpm=None, am=None):
        k = q if k is None else k
        v = k if v is None else v
        if self.keep_key0:
            kpm, am = _keep_key0(kpm), _keep_key0(am)
        if self.float_masks:
            kpm = None if kpm is None else _as_float(kpm)
            am = None if am is None else _as_float(am)
        return self.attn(q, k, v, key_padding_mask=kpm, attn_mask=am, **self.call)


class MhaCausal(nn.Module):
    """Self-attention with the causal mask nn.Transformer makes for the (symbolic) sequence length,
    with PyTorch's is_causal hint."""

    def __init__(self, need_weights=False, batch_first=False):
        super().__init__()
        self.attn = nn.MultiheadAttention(16, 2, batch_first=batch_first)
        self.need_weights = need_weights
        self.batch_first = batch_first

    def forward(self, x, kpm=None):
        mask = nn.Transformer.generate_square_subsequent_mask(x.size(1 if self.batch_first else 0))
        return self.attn(x, x, x, attn_mask=mask, key_padding_mask=_keep_key0(kpm), is_causal=True,
                         need_weights=self.need_weights)


class MhaDeadRows(nn.Module):
    """Batch entry 0 may attend no key at all (sequence-first cross-attention: eager PyTorch takes its
    reference path): zeros without the weights, NaN with them."""

    def __init__(self, need_weights):
        super().__init__()
        self.attn = nn.MultiheadAttention(8, 2)
        self.need_weights = need_weights

    def forward(self, q, k, kpm):
        kpm = kpm | (torch.arange(kpm.size(0)) == 0)[:, None]
        return self.attn(q, k, k, key_padding_mask=kpm, need_weights=self.need_weights)


class FunctionalMha(nn.Module):
    """F.multi_head_attention_forward called directly with a module's parameters: packed or separate
    projection weights, or precomputed static keys and values (N*heads, S, head_dim)."""

    def __init__(self, separate=False, static=False, need_weights=True):
        super().__init__()
        self.embed_dim, self.heads = 12, 3
        e = self.embed_dim
        self.in_proj_weight = nn.Parameter(nn.init.uniform_(torch.empty(3 * e, e), -0.4, 0.4))
        self.in_proj_bias = nn.Parameter(nn.init.uniform_(torch.empty(3 * e), -0.4, 0.4))
        self.out_proj = nn.Linear(e, e)
        self.separate, self.static, self.need_weights = separate, static, need_weights

    def forward(self, q, k, sk=None, sv=None):
        w = self.in_proj_weight
        q_w, k_w, v_w = w.chunk(3) if self.separate else (None, None, None)
        out, weights = F.multi_head_attention_forward(
            q, k, k, self.embed_dim, self.heads, None if self.separate else w, self.in_proj_bias, None, None, False,
            0.0, self.out_proj.weight, self.out_proj.bias, training=False, need_weights=self.need_weights,
            use_separate_proj_weight=self.separate, q_proj_weight=q_w, k_proj_weight=k_w, v_proj_weight=v_w,
            static_k=sk, static_v=sv)
        return out if weights is None else (out, weights)


class EncoderLayer(nn.Module):
    """nn.TransformerEncoderLayer(16, 4, 32, **kwargs)(x, src_mask=m, src_key_padding_mask=kpm, is_causal).
    `causal`: the mask is the generated causal mask (and is_causal=True); `float_masks`: bool masks
    become additive float masks."""

    def __init__(self, causal=False, float_masks=False, activation="relu", **kwargs):
        super().__init__()
        act = {"silu": F.silu, "gelu_tanh": nn.GELU(approximate="tanh")}.get(activation, activation)
        self.layer = nn.TransformerEncoderLayer(16, 4, 32, activation=act, **kwargs)
        self.causal = causal
        self.float_masks = float_masks

    def forward(self, x, m=None, kpm=None):
        m, kpm = _keep_key0(m), _keep_key0(kpm)
        if self.float_masks:
            m = None if m is None else _as_float(m)
            kpm = None if kpm is None else _as_float(kpm)
        if self.causal:
            seq = x.size(1 if self.layer.self_attn.batch_first else 0)
            return self.layer(x, src_mask=nn.Transformer.generate_square_subsequent_mask(seq), is_causal=True,
                              src_key_padding_mask=kpm)
        return self.layer(x, src_mask=m, src_key_padding_mask=kpm)


class SoftMaskLayer(nn.Module):
    """Float masks with values other than 0 and -inf (half of them 0): eager PyTorch's inference fast path
    masks the nonzero positions, its reference path adds the values."""

    def __init__(self, batch_first=True):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(16, 4, 32, batch_first=batch_first)

    def forward(self, x, m=None, kpm=None):
        return self.layer(x, src_mask=_keep_key0(m), src_key_padding_mask=_keep_key0(kpm))


class Encoder(nn.Module):
    """nn.TransformerEncoder of `layers` nn.TransformerEncoderLayer(16, 4, 32, **kwargs) with a final
    LayerNorm. Padding comes from `lengths` (left-aligned rows: PyTorch's nested-tensor path) or from a
    bool / float mask input; `causal` adds the generated causal mask (PyTorch detects it)."""

    def __init__(self, layers=2, causal=False, float_kpm=False, empty_first=False, enc_kwargs=None, **kwargs):
        super().__init__()
        layer = nn.TransformerEncoderLayer(16, 4, 32, **kwargs)
        self.encoder = nn.TransformerEncoder(layer, layers, norm=nn.LayerNorm(16), **(enc_kwargs or {}))
        self.batch_first = kwargs.get("batch_first", False)
        self.causal = causal
        self.float_kpm = float_kpm
        self.empty_first = empty_first  # batch entry 0 is all padding (length 0)

    def forward(self, x, kpm=None, lengths=None):
        seq = x.size(1 if self.batch_first else 0)
        if lengths is not None:
            if self.empty_first:
                lengths = lengths.masked_fill(torch.arange(lengths.size(0)) == 0, 0)
            kpm = torch.arange(seq)[None, :] >= lengths[:, None]
        elif kpm is not None:
            kpm = _keep_key0(kpm)
            if self.float_kpm:
                kpm = _as_float(kpm)
        mask = nn.Transformer.generate_square_subsequent_mask(seq) if self.causal else None
        return self.encoder(x, mask=mask, src_key_padding_mask=kpm)


class FastPathOff(nn.Module):
    """Encoder(batch_first=True) run with torch.backends.mha.set_fastpath_enabled(False): PyTorch's
    reference path (padded positions are computed, not zeroed)."""

    def __init__(self):
        super().__init__()
        self.inner = Encoder(batch_first=True)

    def forward(self, x, lengths):
        torch.backends.mha.set_fastpath_enabled(False)
        try:
            return self.inner(x, lengths=lengths)
        finally:
            torch.backends.mha.set_fastpath_enabled(True)


class DecoderLayer(nn.Module):
    """nn.TransformerDecoderLayer(16, 4, 32, **kwargs)(tgt, memory, ...) with a causal target mask,
    optional target / memory padding masks and a memory mask."""

    def __init__(self, causal=True, tgt_is_causal=False, **kwargs):
        super().__init__()
        self.layer = nn.TransformerDecoderLayer(16, 4, 32, **kwargs)
        self.causal = causal
        self.tgt_is_causal = tgt_is_causal

    def forward(self, tgt, mem, tkpm=None, mkpm=None, mm=None):
        seq = tgt.size(1 if self.layer.self_attn.batch_first else 0) if tgt.dim() == 3 else tgt.size(0)
        tm = nn.Transformer.generate_square_subsequent_mask(seq) if self.causal else None
        return self.layer(tgt, mem, tgt_mask=tm, memory_mask=_keep_key0(mm), tgt_key_padding_mask=_keep_key0(tkpm),
                          memory_key_padding_mask=_keep_key0(mkpm), tgt_is_causal=self.tgt_is_causal)


class Decoder(nn.Module):
    """nn.TransformerDecoder of two layers with a final LayerNorm and a causal target mask (detected or
    stated with tgt_is_causal)."""

    def __init__(self, tgt_is_causal=None, **kwargs):
        super().__init__()
        self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(16, 4, 32, **kwargs), 2, norm=nn.LayerNorm(16))
        self.batch_first = kwargs.get("batch_first", False)
        self.tgt_is_causal = tgt_is_causal

    def forward(self, tgt, mem, mkpm=None):
        tm = nn.Transformer.generate_square_subsequent_mask(tgt.size(1 if self.batch_first else 0))
        return self.decoder(tgt, mem, tgt_mask=tm, memory_key_padding_mask=_keep_key0(mkpm),
                            tgt_is_causal=self.tgt_is_causal)


class Seq2Seq(nn.Module):
    """nn.Transformer(d_model=16, nhead=4, 2 + 2 layers, dim_feedforward=32, **kwargs) with a causal
    target mask and optional padding masks for source, target and memory."""

    def __init__(self, **kwargs):
        super().__init__()
        kwargs.setdefault("num_encoder_layers", 2)
        kwargs.setdefault("num_decoder_layers", 2)
        self.model = nn.Transformer(d_model=16, nhead=4, dim_feedforward=32, **kwargs)

    def forward(self, src, tgt, skpm=None, tkpm=None):
        unbatched = tgt.dim() == 2
        seq = tgt.size(0 if unbatched or not self.model.batch_first else 1)
        tm = self.model.generate_square_subsequent_mask(seq)
        skpm = _keep_key0(skpm)
        return self.model(src, tgt, tgt_mask=tm, src_key_padding_mask=skpm, tgt_key_padding_mask=_keep_key0(tkpm),
                          memory_key_padding_mask=skpm)


class CustomParts(nn.Module):
    """nn.Transformer with a custom encoder (no final norm, bias=False layers) and a custom decoder of
    norm_first layers."""

    def __init__(self):
        super().__init__()
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 2, 24, bias=False), 1, enable_nested_tensor=False)
        dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(16, 2, 24, norm_first=True, activation="gelu"), 2)
        self.model = nn.Transformer(d_model=16, nhead=2, custom_encoder=enc, custom_decoder=dec)

    def forward(self, src, tgt):
        return self.model(src, tgt, tgt_is_causal=False)
