"""nn.Transformer, nn.TransformerEncoder/Decoder and their layers (PyTorch 2.14's constructors,
attributes and submodule names, so checkpoints bind; forward as PyTorch computes it).

Eager PyTorch in inference (eval() under no_grad) runs the encoder on a fast path whose numbers differ
from the reference path in two ways an export can reproduce, and onnxify does, unless
torch.backends.mha.set_fastpath_enabled(False) turned that path off:
  * TransformerEncoder with a key padding mask and no attention mask packs the sequences into a nested
    tensor: padded positions come out as zeros (before the final norm), and a float padding mask
    counts only as "padded where nonzero". With mask_check (the default) that happens only when every
    row of the mask is left-aligned (valid positions first), which is decided when the model runs;
    without mask_check each row keeps its first (number of valid positions) tokens.
  * TransformerEncoderLayer's fast path reads float masks as bool: a nonzero value masks the position.
Where the fast path leaves a query row with no key to attend it gives NaN; the reference path (and
onnxify) gives its scaled_dot_product_attention's zeros."""
import copy

import torch
from torch.nn import functional as F
from torch.nn.modules.activation import MultiheadAttention
from torch.nn.modules.container import ModuleList
from torch.nn.modules.dropout import Dropout
from torch.nn.modules.linear import Linear
from torch.nn.modules.module import Module
from torch.nn.modules.normalization import LayerNorm

__all__ = ["Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
           "TransformerDecoderLayer"]


def _generate_square_subsequent_mask(sz, device=None, dtype=None):
    # -inf strictly above the diagonal (position i may attend positions <= i), 0 elsewhere.
    return torch.triu(torch.full((sz, sz), float("-inf"), dtype=dtype, device=device), diagonal=1)


def _get_seq_len(src, batch_first):
    size = src.size()
    if len(size) == 2:
        return size[0]
    return size[1 if batch_first else 0]


def _differs(a, b):
    d = a - b
    return isinstance(d, int) and d != 0


def _detect_is_causal_mask(mask, is_causal=None, size=None):
    # PyTorch compares a given mask with the causal one when is_causal is None and passes is_causal=True
    # to the layers when they are equal; the layers then compute the same numbers either way (the hint
    # only picks a kernel). The comparison needs the mask's values, which an exported model only knows
    # when it runs, so onnxify keeps the mask and leaves the hint off.
    return is_causal is True


def _get_clones(module, n):
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


class Transformer(Module):
    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation=F.relu, custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, bias, **factory_kwargs)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, bias, **factory_kwargs)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        is_batched = src.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if is_batched and _differs(src.size(batch_dim), tgt.size(batch_dim)):
            raise RuntimeError("the batch number of src and tgt must be equal")
        if _differs(src.size(-1), self.d_model) or _differs(tgt.size(-1), self.d_model):
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        return _generate_square_subsequent_mask(sz, dtype=dtype, device=device)

    def _reset_parameters(self):
        from torch.nn.init import xavier_uniform_
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)


class TransformerEncoder(Module):
    __constants__ = ["norm"]

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        # PyTorch packs padded batches into nested tensors only for layers its fast path runs (it warns
        # otherwise, about speed only; onnxify does not).
        self.use_nested_tensor = enable_nested_tensor and _nested_fast_path_layer(encoder_layer)
        self.mask_check = mask_check

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        given_pad, given_mask = src_key_padding_mask, mask
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask", F._none_or_dtype(mask),
                                                 "mask", src.dtype)
        mask = F._canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        # The layers get the masks as given when they are bool (they make the same float masks of them
        # again) and PyTorch's float masks otherwise.
        pad_for_layers = given_pad if _is_bool(given_pad) else src_key_padding_mask
        mask_for_layers = given_mask if _is_bool(given_mask) else mask
        zero_rows = None
        first_layer = self.layers[0]
        if (torch.backends.mha.get_fastpath_enabled() and getattr(self, "use_nested_tensor", False)
                and not first_layer.training and src.dim() == 3 and src_key_padding_mask is not None
                and mask is None):
            # PyTorch's nested-tensor path (module docstring): the positions it keeps, as a bool padding
            # mask for the layers, and where the output is zero.
            padded = given_pad if _is_bool(given_pad) else src_key_padding_mask != 0
            valid = padded.logical_not()
            kept = torch.arange(src.size(1)) < valid.sum(-1, keepdim=True)  # each row's first (count) positions
            if getattr(self, "mask_check", True):
                pad_for_layers = padded
                # only when every row is left-aligned: its valid positions are its first (count) ones
                left_aligned = (kept & valid).sum() == valid.sum()
                zero_rows = padded & left_aligned
            else:
                pad_for_layers = zero_rows = kept.logical_not()
        seq_len = _get_seq_len(src, first_layer.self_attn.batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask_for_layers, is_causal=is_causal, src_key_padding_mask=pad_for_layers)
        if zero_rows is not None:
            output = output.masked_fill(zero_rows.unsqueeze(-1), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output


def _is_bool(mask):
    return mask is not None and mask.dtype == torch.bool


class TransformerDecoder(Module):
    __constants__ = ["norm"]

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


def _nested_fast_path_layer(layer):
    # The layers whose batches TransformerEncoder packs into nested tensors (PyTorch's conditions).
    return (isinstance(layer, TransformerEncoderLayer) and not layer.norm_first and layer.self_attn.batch_first
            and layer.self_attn._qkv_same_embed_dim and layer.self_attn.in_proj_bias is not None
            and layer.activation_relu_or_gelu and layer.norm1.eps == layer.norm2.eps
            and layer.self_attn.num_heads % 2 == 0)


class TransformerEncoderLayer(Module):
    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first,
                                            **factory_kwargs)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory_kwargs)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory_kwargs)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        if activation is F.relu or isinstance(activation, torch.nn.ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, torch.nn.GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "activation"):
            self.activation = F.relu

    def _fast_path(self, src):
        # The static conditions of PyTorch's inference fast path for this layer.
        attn = self.self_attn
        return (torch.backends.mha.get_fastpath_enabled() and src.dim() == 3 and not self.training
                and attn.batch_first and attn.in_proj_bias is not None and attn._qkv_same_embed_dim
                and self.activation_relu_or_gelu and self.norm1.eps == self.norm2.eps and attn.num_heads % 2 == 0
                and not any(len(getattr(m, "_forward_hooks", {})) + len(getattr(m, "_forward_pre_hooks", {}))
                            for m in self.modules()))

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        float_mask = any(m is not None and torch.is_floating_point(m) for m in (src_mask, src_key_padding_mask))
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(src_mask), "src_mask", src.dtype)
        src_mask = F._canonical_mask(src_mask, "src_mask", None, "", src.dtype, check_other=False)
        if float_mask and self._fast_path(src):
            src_mask, src_key_padding_mask = self._fast_path_masks(src, src_mask, src_key_padding_mask)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal=is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal=is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _fast_path_masks(self, src, src_mask, key_padding_mask):
        # The fast path adds the (float) masks into one and masks where the sum is nonzero.
        if src_mask is None:
            return None, key_padding_mask != 0
        if key_padding_mask is None:
            return src_mask != 0, None
        merged, _ = self.self_attn.merge_masks(src_mask, key_padding_mask, src)
        n, length = src.size(0), src.size(1)
        return (merged != 0).reshape(n * self.self_attn.num_heads, length, length), None

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias,
                                            **factory_kwargs)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias,
                                                 **factory_kwargs)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory_kwargs)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory_kwargs)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory_kwargs)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) else activation

    def __setstate__(self, state):
        if "activation" not in state:
            state["activation"] = F.relu
        super().__setstate__(state)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, is_causal=is_causal,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.nn.modules.transformer", name)
