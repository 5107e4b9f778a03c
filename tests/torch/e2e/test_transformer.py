"""nn.MultiheadAttention (every constructor option, every mask form and dtype, unbatched inputs, the
attention weights averaged or per head), F.multi_head_attention_forward, and nn.TransformerEncoderLayer /
DecoderLayer / Encoder / Decoder / Transformer (norm_first, activations, batch_first, masks, bias,
layer_norm_eps, PyTorch's nested-tensor encoder path). Each case is exported with symbolic batch and
sequence sizes and checked against PyTorch 2.14 eager (eval, no_grad: PyTorch's inference fast paths
where they apply) in ONNX Runtime at two sizes, one of them batch 1; test_targets.py runs them for
every target x opset. Models: tests/torch/models/transformer.py. Also PyTorch's errors on bad
arguments, with its wording."""
import sys

import pytest

from harness import Batch, Case, MODELS, check, check_pytorch_error

sys.path.insert(0, MODELS)


def case(name, model, shapes, gen=None, rtol=1e-3, atol=1e-4, **inputs):
    return Case(name, "transformer.py", model, inputs, shapes=shapes, gen=gen, rtol=rtol, atol=atol)


# batch N, query length L, key length S (both orders, batch 1 once); B = N * heads for 3-d masks.
LS = [{"N": 2, "L": 5, "S": 3, "B": 8}, {"N": 1, "L": 3, "S": 6, "B": 4}]
NS = [{"N": 2, "S": 5}, {"N": 1, "S": 3}]  # self-attention: one length
ST = [{"N": 2, "S": 5, "T": 3}, {"N": 1, "S": 3, "T": 6}]  # source and target lengths
E = 16
Q, K = f"float32[L,N,{E}]", f"float32[S,N,{E}]"          # sequence-first
QB, KB = f"float32[N,L,{E}]", f"float32[N,S,{E}]"        # batch-first
X, XB = f"float32[S,N,{E}]", f"float32[N,S,{E}]"         # self-attention / encoder input


def mha(name, kwargs="", shapes=LS, **inputs):
    return case(name, f"Mha({kwargs})", shapes, **inputs)


MHA = [
    # ---- projections: self-attention, encoder-decoder, three inputs, kdim/vdim ----
    mha("mha_self", shapes=NS, q=X),
    mha("mha_self_batch_first", "batch_first=True", shapes=NS, q=XB),
    mha("mha_cross", q=Q, k=K),
    mha("mha_cross_batch_first", "batch_first=True", q=QB, k=KB),
    mha("mha_three_inputs", q=Q, k=K, v=K),
    mha("mha_kdim_vdim", "kdim=12, vdim=10", q=Q, k="float32[S,N,12]", v="float32[S,N,10]"),
    mha("mha_kdim_vdim_batch_first_no_bias", "kdim=12, vdim=10, bias=False, batch_first=True", q=QB,
        k="float32[N,S,12]", v="float32[N,S,10]"),
    mha("mha_kdim_equal", "kdim=16, vdim=16", q=Q, k=K),  # equal dims: packed weights
    mha("mha_no_bias", "bias=False", q=Q, k=K),
    mha("mha_odd_heads", "embed_dim=15, num_heads=5", q="float32[L,N,15]", k="float32[S,N,15]"),
    mha("mha_dropout_eval", "dropout=0.3, batch_first=True", shapes=NS, q=XB),
    # ---- add_bias_kv, add_zero_attn (with masks: both grow the key axis) ----
    mha("mha_bias_kv", "add_bias_kv=True", q=Q, k=K),
    mha("mha_zero_attn", "add_zero_attn=True", q=Q, k=K),
    mha("mha_bias_kv_zero_attn_masks", "add_bias_kv=True, add_zero_attn=True, batch_first=True", q=QB, k=KB,
        kpm="bool[N,S]", am="bool[L,S]"),
    mha("mha_zero_attn_no_weights", "add_zero_attn=True, call={'need_weights': False}", q=Q, k=K,
        kpm="bool[N,S]", am="float32[L,S]"),
    # ---- the weights: averaged (default), per head, none ----
    mha("mha_per_head_weights", "call={'average_attn_weights': False}", q=Q, k=K, kpm="bool[N,S]"),
    mha("mha_no_weights", "call={'need_weights': False}", shapes=NS, q=X),
    mha("mha_no_weights_batch_first", "batch_first=True, call={'need_weights': False}", q=QB, k=KB),
    # ---- masks: bool / float, key padding (N, S), attention (L, S) and (N*heads, L, S), both ----
    mha("mha_kpm_bool", q=Q, k=K, kpm="bool[N,S]"),
    mha("mha_kpm_float", q=Q, k=K, kpm="float32[N,S]"),
    mha("mha_kpm_bool_self_batch_first", "batch_first=True, call={'need_weights': False}", shapes=NS, q=XB,
        kpm="bool[N,S]"),
    mha("mha_kpm_float_as_minus_inf", "float_masks=True", q=Q, k=K, kpm="bool[N,S]"),
    mha("mha_attn_mask_bool", q=Q, k=K, am="bool[L,S]"),
    mha("mha_attn_mask_float", "call={'need_weights': False}", q=Q, k=K, am="float32[L,S]"),
    mha("mha_attn_mask_3d_bool", q=Q, k=K, am="bool[B,L,S]"),
    mha("mha_attn_mask_3d_float_no_weights", "call={'need_weights': False}", q=Q, k=K, am="float32[B,L,S]"),
    mha("mha_attn_mask_3d_per_head", "batch_first=True, call={'average_attn_weights': False}", q=QB, k=KB,
        am="bool[B,L,S]"),
    mha("mha_masks_both_bool", "call={'need_weights': False}", q=Q, k=K, kpm="bool[N,S]", am="bool[L,S]"),
    mha("mha_masks_both_float", q=Q, k=K, kpm="float32[N,S]", am="float32[B,L,S]"),
    mha("mha_masks_mixed", q=Q, k=K, kpm="bool[N,S]", am="float32[L,S]"),
    mha("mha_masks_self_batch_first", "batch_first=True", shapes=NS, q=XB, kpm="bool[N,S]", am="bool[S,S]"),
    # ---- is_causal (with the generated causal mask) ----
    case("mha_is_causal", "MhaCausal()", NS, x=X),
    case("mha_is_causal_weights", "MhaCausal(need_weights=True)", NS, x=X),
    case("mha_is_causal_padding", "MhaCausal(batch_first=True)", NS, x=XB, kpm="bool[N,S]"),
    # ---- unbatched inputs (batch_first is ignored) ----
    mha("mha_unbatched", q=f"float32[L,{E}]", k=f"float32[S,{E}]", kpm="bool[S]", am="bool[L,S]"),
    mha("mha_unbatched_batch_first", "batch_first=True, call={'need_weights': False}", q=f"float32[L,{E}]",
        k=f"float32[S,{E}]", kpm="float32[S]"),
    mha("mha_unbatched_3d_mask", "call={'average_attn_weights': False}", q=f"float32[L,{E}]", k=f"float32[S,{E}]",
        am="bool[4,L,S]"),
    mha("mha_unbatched_self", "kdim=16", shapes=NS, q=f"float32[S,{E}]"),
    # ---- dtypes ----
    mha("mha_float64", "dtype=torch.float64", q="float64[L,N,16]", k="float64[S,N,16]", kpm="bool[N,S]",
        am="float64[L,S]"),
    case("mha_float16", "Mha(dtype=torch.float16, batch_first=True)", LS, rtol=1e-2, atol=2e-3, q="float16[N,L,16]",
         k="float16[N,S,16]", kpm="bool[N,S]"),
    # ---- a row with nothing to attend (reference path): zeros, or NaN with the weights ----
    case("mha_dead_rows", "MhaDeadRows(need_weights=False)", LS, q="float32[L,N,8]", k="float32[S,N,8]",
         kpm="bool[N,S]"),
    case("mha_dead_rows_weights", "MhaDeadRows(need_weights=True)", LS, q="float32[L,N,8]", k="float32[S,N,8]",
         kpm="bool[N,S]"),
    # ---- F.multi_head_attention_forward ----
    case("f_mha_packed", "FunctionalMha()", LS, q="float32[L,N,12]", k="float32[S,N,12]"),
    case("f_mha_separate_no_weights", "FunctionalMha(separate=True, need_weights=False)", LS, q="float32[L,N,12]",
         k="float32[S,N,12]"),
    case("f_mha_static_kv", "FunctionalMha(static=True)", [{"N": 2, "L": 5, "S": 3, "B": 6},
                                                          {"N": 1, "L": 3, "S": 6, "B": 3}],
         q="float32[L,N,12]", k="float32[S,N,12]", sk="float32[B,S,4]", sv="float32[B,S,4]"),
]

TRANSFORMER = [
    # ---- nn.TransformerEncoderLayer ----
    case("enc_layer", "EncoderLayer(dropout=0.1)", NS, x=X),
    case("enc_layer_batch_first_gelu", "EncoderLayer(batch_first=True, activation='gelu')", NS, x=XB),
    case("enc_layer_norm_first_callable", "EncoderLayer(norm_first=True, activation='silu')", NS, x=X),
    case("enc_layer_gelu_module_no_bias_eps", "EncoderLayer(activation='gelu_tanh', bias=False, layer_norm_eps=1e-3, "
         "batch_first=True)", NS, x=XB),
    case("enc_layer_masks", "EncoderLayer()", NS, x=X, m="bool[S,S]", kpm="bool[N,S]"),
    case("enc_layer_masks_batch_first", "EncoderLayer(batch_first=True)", NS, x=XB, m="bool[S,S]",
         kpm="bool[N,S]"),
    case("enc_layer_float_masks_batch_first", "EncoderLayer(batch_first=True, float_masks=True)", NS, x=XB,
         m="bool[S,S]", kpm="bool[N,S]"),
    case("enc_layer_3d_mask", "EncoderLayer(batch_first=True, norm_first=True)",
         [{"N": 2, "S": 5, "B": 8}, {"N": 1, "S": 3, "B": 4}], x=XB, m="bool[B,S,S]"),
    case("enc_layer_causal", "EncoderLayer(causal=True)", NS, x=X, kpm="bool[N,S]"),
    case("enc_layer_causal_batch_first", "EncoderLayer(causal=True, batch_first=True)", NS, x=XB),
    case("enc_layer_soft_masks_fast_path", "SoftMaskLayer()", NS, gen={"m": "sparse", "kpm": "sparse"}, x=XB,
         m="float32[S,S]", kpm="float32[N,S]"),
    case("enc_layer_soft_kpm_fast_path", "SoftMaskLayer()", NS, gen={"kpm": "sparse"}, x=XB, kpm="float32[N,S]"),
    case("enc_layer_soft_masks_reference", "SoftMaskLayer(batch_first=False)", NS, gen={"m": "sparse"}, x=X,
         m="float32[S,S]", kpm="float32[N,S]"),
    case("enc_layer_unbatched", "EncoderLayer(batch_first=True)", [{"S": 5}, {"S": 2}], x=f"float32[S,{E}]",
         m="bool[S,S]", kpm="bool[S]"),
    case("enc_layer_float16", "EncoderLayer(batch_first=True, dtype=torch.float16)", NS, rtol=1e-2, atol=2e-3,
         x="float16[N,S,16]", kpm="bool[N,S]"),
    # ---- nn.TransformerEncoder (the nested-tensor path: batch_first, padding mask, no attention mask) ----
    case("encoder", "Encoder()", NS, x=X, kpm="bool[N,S]"),
    case("encoder_causal", "Encoder(causal=True, norm_first=True, activation='gelu')", NS, x=X),
    case("encoder_nested_lengths", "Encoder(batch_first=True)", NS, gen={"lengths": "int:1:4"}, x=XB,
         lengths="int64[N]"),
    case("encoder_nested_random_mask", "Encoder(batch_first=True)", NS, x=XB, kpm="bool[N,S]"),
    case("encoder_nested_float_mask", "Encoder(batch_first=True, float_kpm=True)", NS, x=XB, kpm="bool[N,S]"),
    case("encoder_nested_no_mask_check", "Encoder(batch_first=True, enc_kwargs={'mask_check': False})", NS, x=XB,
         kpm="bool[N,S]"),
    case("encoder_nested_disabled", "Encoder(batch_first=True, enc_kwargs={'enable_nested_tensor': False})", NS,
         gen={"lengths": "int:1:4"}, x=XB, lengths="int64[N]"),
    case("encoder_nested_empty_row", "Encoder(batch_first=True, empty_first=True)", [{"N": 2, "S": 5}, {"N": 3, "S": 3}],
         gen={"lengths": "int:1:4"}, x=XB, lengths="int64[N]"),  # PyTorch fails on a batch of only empty rows
    case("encoder_fast_path_off", "FastPathOff()", NS, gen={"lengths": "int:1:4"}, x=XB, lengths="int64[N]"),
    case("encoder_norm_first_lengths", "Encoder(batch_first=True, norm_first=True, layer_norm_eps=1e-6)", NS,
         gen={"lengths": "int:1:4"}, x=XB, lengths="int64[N]"),
    case("encoder_causal_padding_batch_first", "Encoder(layers=1, causal=True, batch_first=True)", NS, x=XB,
         kpm="bool[N,S]"),
    # ---- nn.TransformerDecoderLayer / nn.TransformerDecoder ----
    case("dec_layer", "DecoderLayer(dropout=0.2)", ST, tgt="float32[T,N,16]", mem=X),
    case("dec_layer_masks", "DecoderLayer()", ST, tgt="float32[T,N,16]", mem=X, tkpm="bool[N,T]", mkpm="bool[N,S]",
         mm="bool[T,S]"),
    case("dec_layer_norm_first_batch_first", "DecoderLayer(norm_first=True, batch_first=True, activation='gelu', "
         "tgt_is_causal=True)", ST, tgt="float32[N,T,16]", mem=XB, mkpm="bool[N,S]"),
    case("dec_layer_no_bias", "DecoderLayer(causal=False, bias=False, layer_norm_eps=1e-4)", ST,
         tgt="float32[T,N,16]", mem=X, mm="float32[T,S]"),
    case("dec_layer_unbatched", "DecoderLayer()", [{"S": 5, "T": 3}, {"S": 2, "T": 4}], tgt="float32[T,16]",
         mem="float32[S,16]", tkpm="bool[T]"),
    case("decoder", "Decoder()", ST, tgt="float32[T,N,16]", mem=X, mkpm="bool[N,S]"),
    case("decoder_is_causal_batch_first", "Decoder(tgt_is_causal=True, batch_first=True, norm_first=True)", ST,
         tgt="float32[N,T,16]", mem=XB),
    # ---- nn.Transformer ----
    case("transformer", "Seq2Seq()", ST, src=X, tgt="float32[T,N,16]"),
    case("transformer_masks_batch_first", "Seq2Seq(batch_first=True, activation='gelu')", ST, src=XB,
         tgt="float32[N,T,16]", skpm="bool[N,S]", tkpm="bool[N,T]"),
    case("transformer_norm_first_no_bias", "Seq2Seq(norm_first=True, bias=False, layer_norm_eps=1e-6, "
         "num_encoder_layers=1, num_decoder_layers=1)", ST, src=X, tgt="float32[T,N,16]", skpm="bool[N,S]"),
    case("transformer_unbatched", "Seq2Seq(num_encoder_layers=1, num_decoder_layers=1, batch_first=True)",
         [{"S": 5, "T": 3}, {"S": 2, "T": 4}], src="float32[S,16]", tgt="float32[T,16]"),
    case("transformer_custom_parts", "CustomParts()", ST, src=X, tgt="float32[T,N,16]"),
]

CASES = MHA + TRANSFORMER
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_transformer(case):
    check(BATCH.get(case))




# PyTorch's errors on bad arguments, raised by onnxify at conversion time with PyTorch's wording:
# (name, model, {input: spec}).
ERRORS = [
    ("mha_heads_not_dividing", "Mha(16, 5)", {"q": "float32[3,2,16]"}),
    ("mha_no_heads", "Mha(16, 0)", {"q": "float32[3,2,16]"}),
    ("mha_embed_dim", "Mha(16, 4)", {"q": "float32[3,2,12]"}),
    ("mha_rank", "Mha(16, 4)", {"q": "float32[1,3,2,16]"}),
    ("mha_key_rank", "Mha(16, 4)", {"q": "float32[3,2,16]", "k": "float32[3,16]"}),
    ("mha_kpm_rank", "Mha(16, 4)", {"q": "float32[3,2,16]", "kpm": "bool[2,3,1]"}),
    ("mha_kpm_shape", "Mha(16, 4)", {"q": "float32[3,2,16]", "kpm": "bool[2,4]"}),
    ("mha_attn_mask_2d_shape", "Mha(16, 4)", {"q": "float32[3,2,16]", "am": "bool[3,4]"}),
    ("mha_attn_mask_3d_shape", "Mha(16, 4)", {"q": "float32[3,2,16]", "am": "bool[4,3,3]"}),
    ("mha_attn_mask_rank", "Mha(16, 4)", {"q": "float32[3,2,16]", "am": "bool[1,1,3,3]"}),
    ("mha_unbatched_3d_mask_shape", "Mha(16, 4)", {"q": "float32[3,16]", "am": "bool[2,3,3]"}),
    ("mha_int_mask", "Mha(16, 4)", {"q": "float32[3,2,16]", "kpm": "int64[2,3]"}),
    ("mha_key_value_shapes", "Mha(16, 4)", {"q": "float32[3,2,16]", "k": "float32[4,2,16]", "v": "float32[5,2,16]"}),
    ("mha_is_causal_without_mask", "Mha(16, 4, call={'is_causal': True})", {"q": "float32[3,2,16]"}),
    ("encoder_layer_activation", "EncoderLayer(activation='tanh')", {"x": "float32[3,2,16]"}),
    ("transformer_batch_mismatch", "Seq2Seq()", {"src": "float32[3,2,16]", "tgt": "float32[3,4,16]"}),
    ("transformer_features", "Seq2Seq()", {"src": "float32[3,2,16]", "tgt": "float32[3,2,8]"}),
]


@pytest.mark.parametrize("name,model,inputs", ERRORS, ids=[e[0] for e in ERRORS])
def test_pytorch_errors(name, model, inputs, tmp_path):
    check_pytorch_error("transformer.py", model, inputs, tmp_path)
