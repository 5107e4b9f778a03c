"""The PyTorch 2.x API that 1.13 had no form of: F.scaled_dot_product_attention (masks, is_causal with
L != S, scale, enable_gqa, rank 3 and 4, broadcasting), nn.RMSNorm / F.rms_norm / torch.rms_norm,
torch.compile / torch.compiler / torch._dynamo, torch.nn.attention.sdpa_kernel,
torch.backends.cuda.sdp_kernel, the export flags (torch.onnx.is_in_onnx_export() and
torch.jit.is_tracing() are True in onnxify), torch.fx.wrap and torch._assert. Each case is
exported with symbolic batch and sequence sizes and checked against PyTorch 2.14 eager in ONNX
Runtime at two sizes (harness.py); test_targets.py runs them for every target x opset (Attention and
RMSNormalization at opsets 23+: test_granularity.py checks where they appear). Models:
tests/torch/models/torch2.py. Also PyTorch's errors on bad arguments, with its wording."""
import os
import subprocess
import sys

import pytest
import torch

from harness import Batch, Case, MODELS, ONNXIFY, check, check_pytorch_error

sys.path.insert(0, MODELS)  # torch2.py imports ops.py's helpers (onnxify: the source's folder is an import root)

# torch.compile must not change what a model computes, and the oracle is eager PyTorch: run the
# compiled functions of the test models eagerly (no inductor build in the test; torch.compile still
# returns its OptimizedModule wrapper, so checkpoints keep PyTorch's `_orig_mod.` keys).
torch._dynamo.config.disable = True

F_ = "torch.nn.functional."


def case(name, model, shapes, rtol=1e-3, atol=1e-4, gen=None, args=(), **inputs):
    return Case(name, "torch2.py", model, inputs, shapes=shapes, gen=gen, rtol=rtol, atol=atol, args=args)


# query length L, key length S: both orders, as is_causal is top-left aligned for L != S.
LS = [{"N": 2, "L": 3, "S": 5}, {"N": 1, "L": 6, "S": 4}]
NL = [{"N": 2, "L": 5}, {"N": 3, "L": 2}]
Q4, K4, V4 = "float32[N,2,L,8]", "float32[N,2,S,8]", "float32[N,2,S,6]"
Q3, K3, V3 = "float32[N,L,8]", "float32[N,S,8]", "float32[N,S,6]"


def sdpa(name, kwargs="", shapes=LS, **inputs):
    inputs = {"q": Q4, "k": K4, "v": V4, **inputs}
    gen = {"m": "bool"} if inputs.get("m", "").startswith("bool") else None
    return case(name, f"Sdpa({kwargs})", shapes, gen=gen, **inputs)


CASES = [
    # ---- F.scaled_dot_product_attention ----
    sdpa("sdpa_4d"),
    sdpa("sdpa_3d", q=Q3, k=K3, v=V3),
    sdpa("sdpa_causal_4d", "is_causal=True"),
    sdpa("sdpa_causal_3d", "is_causal=True", q=Q3, k=K3, v=V3),
    sdpa("sdpa_causal_self", "is_causal=True", shapes=NL, q="float32[N,3,L,4]", k="float32[N,3,L,4]",
         v="float32[N,3,L,4]"),
    sdpa("sdpa_scale", "scale=0.3"),
    sdpa("sdpa_scale_causal", "is_causal=True, scale=1.5", q=Q3, k=K3, v=V3),
    sdpa("sdpa_head_dim_symbolic", shapes=[{"N": 2, "L": 3, "S": 5, "E": 4}, {"N": 1, "L": 2, "S": 3, "E": 9}],
         q="float32[N,2,L,E]", k="float32[N,2,S,E]", v="float32[N,2,S,3]"),
    sdpa("sdpa_bool_mask_2d", m="bool[L,S]"),
    sdpa("sdpa_bool_mask_4d", m="bool[N,1,L,S]"),
    sdpa("sdpa_bool_mask_heads", m="bool[2,L,S]"),
    sdpa("sdpa_bool_mask_keys", q=Q3, k=K3, v=V3, m="bool[S]"),  # 4-d: PyTorch's CPU kernel wants rank >= 2
    sdpa("sdpa_bool_mask_3d", q=Q3, k=K3, v=V3, m="bool[N,L,S]"),
    sdpa("sdpa_float_mask", m="float32[N,1,1,S]"),
    sdpa("sdpa_float_mask_2d_3d", q=Q3, k=K3, v=V3, m="float32[L,S]"),
    sdpa("sdpa_float64", "scale=0.25", q="float64[N,2,L,8]", k="float64[N,2,S,8]", v="float64[N,2,S,6]",
         m="float64[L,S]"),
    case("sdpa_float16", "Sdpa(is_causal=True)", LS, rtol=1e-2, atol=2e-3, q="float16[N,2,L,8]", k="float16[N,2,S,8]",
         v="float16[N,2,S,6]"),
    sdpa("sdpa_float64_float32_mask", q="float64[N,2,L,8]", k="float64[N,2,S,8]", v="float64[N,2,S,6]",
         m="float32[N,1,L,S]"),
    case("sdpa_float_mask_from_bool", "SdpaFloatMaskFromBool()", LS, gen={"m": "bool"}, q=Q4, k=K4, v=V4,
         m="bool[N,1,L,S]"),
    case("sdpa_dead_row_bool", "SdpaDeadRow()", LS, gen={"m": "bool"}, q=Q4, k=K4, v=V4, m="bool[L,S]"),
    case("sdpa_dead_row_float", "SdpaDeadRow(as_float=True)", LS, gen={"m": "bool"}, q=Q3, k=K3, v=V3,
         m="bool[L,S]"),
    sdpa("sdpa_gqa", "enable_gqa=True", q="float32[N,4,L,8]", k="float32[N,2,S,8]", v="float32[N,2,S,6]"),
    sdpa("sdpa_gqa_causal_mqa", "is_causal=True, enable_gqa=True", q="float32[N,6,L,8]", k="float32[N,1,S,8]",
         v="float32[N,1,S,8]"),
    sdpa("sdpa_gqa_kv_heads_differ", "enable_gqa=True", q="float32[N,4,L,8]", k="float32[N,2,S,8]",
         v="float32[N,1,S,6]"),
    sdpa("sdpa_gqa_3d", "enable_gqa=True", shapes=[{"L": 3, "S": 5}, {"L": 4, "S": 2}], q="float32[4,L,8]",
         k="float32[2,S,8]", v="float32[2,S,8]"),
    sdpa("sdpa_gqa_mask", "enable_gqa=True", q="float32[N,4,L,8]", k="float32[N,2,S,8]", v="float32[N,2,S,6]",
         m="bool[N,1,L,S]"),
    sdpa("sdpa_gqa_same_heads", "enable_gqa=True"),
    sdpa("sdpa_gqa_symbolic_heads", "enable_gqa=True", shapes=[{"N": 2, "H": 4, "G": 2, "L": 3, "S": 5},
                                                         {"N": 1, "H": 6, "G": 3, "L": 2, "S": 2}],
         q="float32[N,H,L,8]", k="float32[N,G,S,8]", v="float32[N,G,S,6]"),
    sdpa("sdpa_broadcast_kv_heads", q="float32[N,4,L,8]", k="float32[N,1,S,8]", v="float32[N,1,S,6]"),
    sdpa("sdpa_broadcast_batch", q="float32[N,2,L,8]", k="float32[1,2,S,8]", v="float32[1,2,S,6]"),
    sdpa("sdpa_rank5", shapes=[{"N": 2, "L": 3, "S": 5}, {"N": 1, "L": 2, "S": 2}], q="float32[N,2,3,L,4]",
         k="float32[N,2,3,S,4]", v="float32[N,2,3,S,4]", m="bool[L,S]"),
    sdpa("sdpa_rank2", "is_causal=True", shapes=[{"L": 3, "S": 5}, {"L": 6, "S": 4}], q="float32[L,8]",
         k="float32[S,8]", v="float32[S,6]"),
    case("sdpa_dropout_eval", "SdpaTrainDropout(0.2)", NL, q="float32[N,2,L,8]", k="float32[N,2,L,8]",
         v="float32[N,2,L,8]"),
    case("sdpa_fn_form", "Fn('torch.nn.functional.scaled_dot_product_attention', X, Y, Z, None, 0.0, True, scale=0.7)", LS,
         x=Q4, y=K4, z=V4),
    case("self_attention_causal", "SelfAttention()", NL, x="float32[N,L,32]"),
    case("self_attention_padding", "SelfAttention(causal=False)", NL, gen={"pad": "bool"}, x="float32[N,L,32]",
         pad="bool[N,L]"),
    case("llama_block", "LlamaBlock()", NL, x="float32[N,L,32]"),
    # ---- nn.RMSNorm, F.rms_norm, torch.rms_norm ----
    case("nn_rmsnorm", "Module('RMSNorm', 8)", NL, x="float32[N,L,8]"),
    case("nn_rmsnorm_2d_eps", "Module('RMSNorm', [3, 8], eps=1e-5)", NL, x="float32[N,L,3,8]"),
    case("nn_rmsnorm_no_affine", "Module('RMSNorm', (8,), elementwise_affine=False)", NL, x="float32[N,L,8]"),
    case("nn_rmsnorm_float64", "Module('RMSNorm', 8, dtype=torch.float64)", NL, x="float64[N,L,8]"),
    case("nn_rmsnorm_float16", "Module('RMSNorm', 8, eps=1e-6, dtype=torch.float16)", NL, rtol=1e-2, atol=1e-3,
         x="float16[N,L,8]"),
    case("f_rms_norm_weight", f"Fn('{F_}rms_norm', X, (8,), Y, 1e-3)", NL, x="float32[N,L,8]", y="float32[8]"),
    case("torch_rms_norm", "Fn('torch.rms_norm', [8], None, 1e-6)", NL, x="float32[N,L,8]"),
    case("rms_norm_default_eps_float32", "ScaledRmsNorm(1e-4)", NL, x="float32[N,L,8]"),
    case("rms_norm_default_eps_float64", "ScaledRmsNorm(1e-8)", NL, x="float64[N,L,8]"),
    case("rms_norm_default_eps_float16", "ScaledRmsNorm(1e-2, (4, 8))", NL, rtol=1e-2, atol=1e-3,
         x="float16[N,4,8]"),
    # ---- torch.compile, torch.compiler, torch._dynamo (all no-ops) ----
    case("compiled_block", "CompiledBlock()", [{"N": 2}, {"N": 5}], x="float32[N,4]"),
    case("internals", "Internals()", [{"N": 2}, {"N": 3}], gen={"ids": "int:0:10"}, a="float32[N,5,3]",
         b="float32[N,5,3]", ids="int64[N,2]"),
    case("compile_module", "torch.compile(Plain())", [{"N": 2}, {"N": 5}], x="float32[N,4]"),
    case("compile_module_mode", "torch.compile(Plain(), mode='max-autotune', dynamic=True)", [{"N": 2}, {"N": 3}],
         x="float32[N,4]"),
    case("compile_module_disabled", "torch.compile(Plain(), disable=True)", [{"N": 2}, {"N": 3}], x="float32[N,4]"),
    case("compile_decorator_form", "torch.compile(options={'max_autotune': True})(Plain())", [{"N": 2}, {"N": 3}],
         x="float32[N,4]"),
    case("dynamo_optimize", "torch._dynamo.optimize('eager')(Plain())", [{"N": 2}, {"N": 3}], x="float32[N,4]"),
    # ---- kernel selection (no-op contexts) ----
    case("sdpa_kernel_contexts", "KernelChoice()", NL, q="float32[N,2,L,8]", k="float32[N,2,L,8]",
         v="float32[N,2,L,8]"),
    # ---- export flags, torch.fx.wrap, torch._assert ----
    # (eager's own branch rebuilds x from x.tolist(): an empty batch comes back with shape (0,))
    Case("export_flags", "torch2.py", "ExportFlags()", {"x": "float32[N,L]"}, shapes=NL, probe_size_zero=False),
    Case("distributed_types", "torch2.py", "DistributedTypes()", {"x": "float32[N,3]"}, shapes=[{"N": 2}, {"N": 1}]),
    case("vit_interpolate_pos_encoding", "PosEmbedViT()", [{"N": 2, "H": 32, "W": 32}, {"N": 1, "H": 48, "W": 24}],
         pixel_values="float32[N,3,H,W]"),
    case("fx_wrap_and_assert", "FxAndAssert()", NL, x="float32[N,L,4]"),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_torch2(case):
    check(BATCH.get(case))




# PyTorch's errors on bad arguments, raised by onnxify at conversion time with PyTorch's wording:
# (name, model, {input: spec}).
Q, K, V = "float32[2,4,3,8]", "float32[2,2,5,8]", "float32[2,2,5,6]"
ERRORS = [
    ("sdpa_causal_and_mask", "Sdpa(is_causal=True)", {"q": Q, "k": Q, "v": Q, "m": "bool[3,3]"}),
    ("sdpa_heads_without_gqa", "Sdpa()", {"q": Q, "k": K, "v": V}),
    ("sdpa_gqa_not_dividing", "Sdpa(enable_gqa=True)", {"q": "float32[2,3,3,8]", "k": K, "v": V}),
    ("sdpa_gqa_query_heads_fewer", "Sdpa(enable_gqa=True)", {"q": K, "k": Q, "v": Q}),
    ("sdpa_gqa_rank2", "Sdpa(enable_gqa=True)", {"q": "float32[3,8]", "k": "float32[5,8]", "v": "float32[5,8]"}),
    ("sdpa_dtypes_differ", "Sdpa()", {"q": Q, "k": "float64[2,4,3,8]", "v": "float16[2,4,3,8]"}),
    ("sdpa_rank1", "Sdpa()", {"q": "float32[8]", "k": "float32[8]", "v": "float32[8]"}),
    ("sdpa_int_query", "Sdpa()", {"q": "int64[2,3,8]", "k": "int64[2,3,8]", "v": "int64[2,3,8]"}),
    ("sdpa_int_mask", "Sdpa()", {"q": Q, "k": Q, "v": Q, "m": "int32[3,3]"}),
    ("sdpa_half_mask_float_query", "Sdpa()", {"q": Q, "k": Q, "v": Q, "m": "float16[3,3]"}),
    ("sdpa_mask_shape", "Sdpa()", {"q": Q, "k": Q, "v": Q, "m": "bool[4,3]"}),
    ("sdpa_batch_mismatch", "Sdpa()", {"q": Q, "k": "float32[3,4,5,8]", "v": "float32[3,4,5,6]"}),
    ("sdpa_scale_positional", f"Fn('{F_}scaled_dot_product_attention', X, Y, Z, None, 0.0, False, 0.3)",
     {"x": Q, "y": Q, "z": Q}),
    ("rms_norm_shape", "Module('RMSNorm', 7)", {"x": "float32[2,8]"}),
    ("rms_norm_shape_2d", "Module('RMSNorm', [4, 5])", {"x": "float32[2,3,5]"}),
    ("rms_norm_rank", "Module('RMSNorm', [2, 5, 1], elementwise_affine=False)", {"x": "float32[2,5]"}),
    ("rms_norm_weight_shape", f"Fn('{F_}rms_norm', [3, 5], torch.ones(3, 4))", {"x": "float32[2,3,5]"}),
    ("rms_norm_int", f"Fn('{F_}rms_norm', [5])", {"x": "int64[2,5]"}),
    ("compile_mode_and_options", "torch.compile(Plain(), mode='default', options={})", {"x": "float32[2,4]"}),
    ("assert_false", "AssertFeatures(5)", {"x": "float32[2,4]"}),
]


@pytest.mark.parametrize("name,model,inputs", ERRORS, ids=[e[0] for e in ERRORS])
def test_pytorch_errors(name, model, inputs, tmp_path):
    # Raised by the --model expression itself (torch.compile's arguments), not by the model's code: a
    # bad command line (exit status 2).
    check_pytorch_error("torch2.py", model, inputs, tmp_path, status=2 if model.startswith("torch.compile(") else 1)


def test_dropout_warns(tmp_path):
    """dropout_p > 0 outside training: PyTorch applies dropout (random) even in eval mode; onnxify
    exports attention without it and says so."""
    src = os.path.join(MODELS, "torch2.py")
    got = subprocess.run([ONNXIFY, "export", src, "--model", "Sdpa(dropout_p=0.3)", "--input", "q=float32[N,2,L,8]",
                          "--input", "k=float32[N,2,L,8]", "--input", "v=float32[N,2,L,8]",
                          "-o", str(tmp_path / "d.onnx")], capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    assert "warning: scaled_dot_product_attention: dropout_p=0.3 is not applied" in got.stderr, got.stderr


def test_flags_and_modules(tmp_path):
    """The answers of the 2.x flags and the no-op namespaces, printed by the model source during
    `onnxify export`: the export flags an exporter sets (where eager PyTorch says False: onnxify's
    decision, see the torch.jit, torch.onnx and torch.compiler docstrings), the compiling flags
    unset, SDPBackend's members, the config setters, torch.compile's wrapper of a module."""
    script = tmp_path / "flags.py"
    script.write_text("\n".join([
        "import torch",
        "import torch._dynamo",
        "import torch.backends.cuda",
        "from torch.nn.attention import SDPBackend, sdpa_kernel",
        "print(torch.onnx.is_in_onnx_export(), torch.jit.is_tracing(), torch.jit.is_scripting())",
        "print(torch.compiler.is_compiling(), torch.compiler.is_dynamo_compiling(), torch.compiler.is_exporting(),"
        " torch._dynamo.is_compiling())",
        "print([(m.name, m.value) for m in SDPBackend], SDPBackend.MATH)",
        "torch._dynamo.config.cache_size_limit = 64",
        "print(torch._dynamo.config.cache_size_limit, torch._dynamo.config.suppress_errors)",
        "with torch._dynamo.config.patch(suppress_errors=True), sdpa_kernel(SDPBackend.MATH):",
        "    print('in contexts')",
        "f = lambda x: x",
        "print(torch.compile(f, fullgraph=True) is f, torch.compiler.disable(f) is f, torch._dynamo.disable(f) is f,"
        " torch.fx.wrap(f) is f, torch.fx.wrap('f'))",
        "print(type(torch.compile(torch.nn.Linear(2, 3))).__name__, list(torch.compile(torch.nn.Linear(2, 3))"
        ".state_dict()))",
        "print(torch.compile(torch.nn.Linear(2, 3)).out_features, torch.nn.RMSNorm([2, 3]))",
        "print(torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.is_built())",
        "class Net(torch.nn.Module):",
        "    def forward(self, x):",
        "        return x",
    ]) + "\n")
    got = subprocess.run([ONNXIFY, "export", str(script), "--model", "Net()", "--input", "x=float32[N]", "-q", "-o",
                          str(tmp_path / "f.onnx")], capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    assert got.stdout.splitlines() == [
        "True True False",
        "False False True False",
        "[('ERROR', -1), ('MATH', 0), ('FLASH_ATTENTION', 1), ('EFFICIENT_ATTENTION', 2), ('CUDNN_ATTENTION', 3), "
        "('OVERRIDEABLE', 4)] SDPBackend.MATH",
        "64 False",
        "in contexts",
        "True True True True f",
        "OptimizedModule ['_orig_mod.weight', '_orig_mod.bias']",
        "3 RMSNorm((2, 3), eps=None, elementwise_affine=True)",
        "True False",
    ], got.stdout
