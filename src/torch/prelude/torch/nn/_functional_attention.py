"""torch.nn.functional's multi-head attention: multi_head_attention_forward and the mask helpers that
nn.MultiheadAttention and the Transformer modules call (_canonical_mask, _none_or_dtype,
_mha_shape_check, _in_projection_packed, _in_projection). Re-exported by torch.nn.functional.

Written for onnxify after PyTorch 2.14's documented behaviour: the reference ("slow") path of
F.multi_head_attention_forward, its checks and messages. Sizes may be symbolic: a check runs when its
answer is known at conversion time; otherwise the exported model's Reshape/Expand nodes fail at run time
where PyTorch would raise."""
import math
import warnings

import torch
from torch._C import _nn


def _differs(a, b):
    # True when two sizes are known to differ (equal symbolic sizes subtract to the int 0).
    d = a - b
    return isinstance(d, int) and d != 0


def _shape_differs(shape, expected):
    if len(shape) != len(expected):
        return True
    return any(_differs(a, b) for a, b in zip(shape, expected))


def _shape_equal(shape, expected):
    # True when the shapes are known to be equal at conversion time.
    if len(shape) != len(expected):
        return False
    for a, b in zip(shape, expected):
        d = a - b
        if not isinstance(d, int) or d != 0:
            return False
    return True


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    # Whether the call is batched: a 3-d query (L, N, E) or an unbatched 2-d one (L, E), with the
    # ranks of the other inputs that go with it.
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D"
                                 f" but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D"
                                 f" but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                                 f" but found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D"
                                 f" but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D"
                                 f" but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                                     f" but found {attn_mask.dim()}-D tensor instead")
            if attn_mask.dim() == 3:
                expected = (num_heads, query.shape[0], key.shape[0])
                if _shape_differs(attn_mask.shape, expected):
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
        return False
    raise AssertionError(
        f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query tensor")


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    # A bool mask (True = masked out) becomes an additive float mask of target_type: -inf where True,
    # 0 elsewhere. Float masks are already additive and pass unchanged.
    if mask is None:
        return None
    is_float = torch.is_floating_point(mask)
    if mask.dtype != torch.bool and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=2)
    if not is_float:
        mask = torch.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input):
    if input is None:
        return None
    if isinstance(input, torch.Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _in_projection_packed(q, k, v, w, b=None):
    # One (3E, E) weight holds the q, k and v projections in that order. Self-attention projects
    # once and splits the result; encoder-decoder attention (key is value) projects the key once
    # for both k and v.
    E = q.size(-1)
    if k is v:
        if q is k:
            return list(_nn.linear(q, w, b).chunk(3, -1))
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        k_out, v_out = _nn.linear(k, w_kv, b_kv).chunk(2, -1)
        return [_nn.linear(q, w_q, b_q), k_out, v_out]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return [_nn.linear(q, w_q, b_q), _nn.linear(k, w_k, b_k), _nn.linear(v, w_v, b_v)]


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    # Separate projection weights: (Eq, Eq), (Eq, Ek), (Eq, Ev); all three project to Eq.
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for w, want, name in ((w_q, (Eq, Eq), "query"), (w_k, (Eq, Ek), "key"), (w_v, (Eq, Ev), "value")):
        if _shape_differs(w.shape, want):
            raise AssertionError(f"expecting {name} weights shape of {want}, but got {w.shape}")
    for b, name in ((b_q, "query"), (b_k, "key"), (b_v, "value")):
        if b is not None and _shape_differs(b.shape, (Eq,)):
            raise AssertionError(f"expecting {name} bias shape of {(Eq,)}, but got {b.shape}")
    return _nn.linear(q, w_q, b_q), _nn.linear(k, w_k, b_k), _nn.linear(v, w_v, b_v)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """Multi-head attention over sequence-first inputs: query (L, N, E), key (S, N, Ek), value
    (S, N, Ev), or unbatched (L, E), (S, Ek), (S, Ev). Returns (output (L, N, E), weights) where
    weights are (N, L, S) averaged over heads, (N, heads, L, S) per head, or None without
    need_weights; unbatched inputs give unbatched results."""
    from torch.nn import functional as F

    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        # Computed as a batch of one; the batch dim is dropped from the results.
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)

    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]

    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
                           "`generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        # The hint stands for the mask: attention computes the causal pattern itself.
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False  # the mask merged with the padding is no longer causal

    if _differs(embed_dim, embed_dim_to_check):
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if _differs(head_dim * num_heads, embed_dim):
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if _shape_differs(key.shape[:2], value.shape[:2]):
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif _shape_differs(key.shape, value.shape):
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    # ---- input projections ----
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for w, name in ((q_proj_weight, "q"), (k_proj_weight, "k"), (v_proj_weight, "v")):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    # ---- the attention mask as (1 or N*heads, L, S) ----
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            want = (tgt_len, src_len)
            if _shape_differs(attn_mask.shape, want):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {want}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            want = (bsz * num_heads, tgt_len, src_len)
            if _shape_differs(attn_mask.shape, want):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be {want}.")
            if not _shape_equal(attn_mask.shape, want):
                # Sizes only known at run time (another symbol than N * heads): the mask takes the
                # shape PyTorch requires (a Reshape that fails at run time where PyTorch raises).
                attn_mask = attn_mask.reshape(want)
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    # ---- learned key/value biases: one more source position ----
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = torch.cat([k, bias_k.repeat(1, bsz, 1)])
        v = torch.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    # ---- heads: (N*heads, L or S, head_dim) ----
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        if _differs(static_k.size(0), bsz * num_heads):
            raise AssertionError(f"expecting static_k.size(0) of {bsz * num_heads}, but got {static_k.size(0)}")
        if _differs(static_k.size(2), head_dim):
            raise AssertionError(f"expecting static_k.size(2) of {head_dim}, but got {static_k.size(2)}")
        k = static_k
    if static_v is None:
        v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        if _differs(static_v.size(0), bsz * num_heads):
            raise AssertionError(f"expecting static_v.size(0) of {bsz * num_heads}, but got {static_v.size(0)}")
        if _differs(static_v.size(2), head_dim):
            raise AssertionError(f"expecting static_v.size(2) of {head_dim}, but got {static_v.size(2)}")
        v = static_v

    # ---- a zero key/value: one more source position that every query may attend ----
    if add_zero_attn:
        zeros = (bsz * num_heads, 1, head_dim)
        k = torch.cat([k, torch.zeros(zeros, dtype=k.dtype)], dim=1)
        v = torch.cat([v, torch.zeros(zeros, dtype=v.dtype)], dim=1)
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))

    src_len = k.size(1)

    # ---- the padding mask joins the attention mask: (N*heads, 1, S) ----
    if key_padding_mask is not None:
        if _differs(key_padding_mask.shape[0], bsz):
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}")
        if _differs(key_padding_mask.shape[1], src_len):
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask

    if not training:
        dropout_p = 0.0

    if need_weights:
        # The weights themselves are an output: softmax(q k^T / sqrt(head_dim) + mask), as PyTorch
        # computes them (a row masked everywhere is NaN here, as in PyTorch).
        q_scaled = q * math.sqrt(1.0 / float(q.shape[2]))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            weights = torch.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = torch.bmm(q_scaled, k.transpose(-2, -1))
        weights = F.softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = F.dropout(weights, p=dropout_p)
        out = torch.bmm(weights, v)
        out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = _nn.linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            out = out.squeeze(1)
            weights = weights.squeeze(0)
        return out, weights

    # Without the weights: one scaled_dot_product_attention over (N, heads, L, head_dim).
    if attn_mask is not None:
        first = attn_mask.size(0)
        if attn_mask.dim() == 3 and isinstance(first, int) and first == 1:
            attn_mask = attn_mask.unsqueeze(0)  # (1, L, S): shared by every batch entry and head
        # else (N*heads, L or 1, S); a symbolic first dim is N*heads (checked above), and when that is 1
        # at run time both forms are the same
        else:
            attn_mask = attn_mask.view(bsz, num_heads, attn_mask.size(1), src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = _nn.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = _nn.linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    if not is_batched:
        out = out.squeeze(1)
    return out, None
