"""Per-target lowering of the transformer pieces (issue 13, must-show 3): rotary embeddings and
RMSNorm as people write them (tests/torch/models/rotary.py) and two real models, exported for ONNX Runtime at opset 17
and 23, for TensorRT at 24 and with --decompose, each checked against PyTorch eager in ONNX Runtime
(harness.py: two shapes, batch 1 included) and for the ops it must contain:

* rotate_half with equal-halved cos/sin tables on (batch, heads, seq, head_dim), and GPT-J's
  interleaved rotation with repeat_interleave'd tables, become ONNX `RotaryEmbedding` at opset 23+
  for onnxruntime and tensorrt (src/passes/fuse_rotary.cpp, the rotary_embedding composite), stay
  plain ops at opset 17 and under --decompose;
* forms RotaryEmbedding cannot compute stay plain ops at every opset: halves that differ,
  interleaved tables whose neighbours differ, a 3-d input;
* RMSNorm written by hand (Hugging Face's LlamaRMSNorm form, float32) becomes `RMSNormalization` at
  opset 23+ (src/passes/fuse_rms_norm.cpp), as nn.RMSNorm does (test_granularity.py);
* the LLaMA-style decoder of bench/scale (hand-written RMSNorm, rotate_half, GQA through SDPA) has
  `Attention`, `RotaryEmbedding` and `RMSNormalization` at opset 23 and none of them at 17; timm's vit_tiny (F.scaled_dot_product_attention)
  has `Attention` at 23. TensorRT variants pass its support table (harness.check_file)."""
import os

import onnx
import pytest

from harness import SRC, Batch, Case, check, sitepaths

NL = [{"B": 2, "T": 6}, {"B": 1, "T": 3}]
Q = "float32[B,4,T,8]"

# name, model, input, shapes, RotaryEmbedding nodes expected where the target takes the op[, Case options]
ROTARY = [
    ("position_ids", "PositionIdsRotary()", {"x": "float32[B,T,32]"}, NL, 2),
    ("position_ids_scaled", "PositionIdsRotary(scaling=0.5)", {"x": "float32[B,T,32]"}, NL, 2),
    # float16 end to end (ONNX Runtime's RotaryEmbedding has a float16 CPU kernel); float16 rounding
    ("position_ids_fp16", "PositionIdsRotary().half()", {"x": "float16[B,T,32]"}, NL, 2, dict(rtol=1e-2, atol=1e-2)),
    ("table_chunk", "TableRotary(start=3)", {"q": "float32[B,2,T,16]"}, NL, 1),
    ("cached_symbolic", "CachedRotary()", {"q": Q}, NL, 1),
    ("cached_static", "CachedRotary()", {"q": "float32[B,4,5,8]"}, [{"B": 2}, {"B": 1}], 1),
    ("unequal_halves", "UnequalHalves()", {"q": Q}, NL, 0),
    ("interleaved", "InterleavedRotary()", {"q": Q}, NL, 1),
    ("interleaved_static", "InterleavedRotary()", {"q": "float32[B,4,5,8]"}, [{"B": 2}, {"B": 1}], 1),
    ("interleaved_unequal_pairs", "InterleavedRotary(halves=True)", {"q": Q}, NL, 0),
    ("three_d", "SequenceRotary()", {"x": "float32[B,T,8]"}, NL, 0),
    # the rotated part is a slice of each head: RotaryEmbedding on it, the rest concatenated back
    ("partial", "PartialRotary()", {"q": Q}, NL, 1),
]
# name, model, input, shapes, RMSNormalization nodes expected where the target takes the op
RMS = [("hand_rms_norm", "HandRMSNorm()", {"x": "float32[B,T,16]"}, NL, 2)]
BASES = {name: Case(f"rotary_{name}", "rotary.py", model, inputs, shapes=shapes, **(rest[0] if rest else {}))
         for name, model, inputs, shapes, _, *rest in ROTARY + RMS}

LLAMA = Case("llama_style", os.path.join(SRC, "bench", "scale", "llama_style.py"),
             "LlamaStyle(vocab=100, dim=32, layers=2, heads=4, kv_heads=2, hidden=64)", {"input_ids": "int64[B,T]"},
             shapes=NL, gen={"input_ids": "int:0:100"})
VIT = Case("timm_vit_tiny", None, "create_model('vit_tiny_patch16_224', pretrained=False, img_size=32)",
           {"x": "float32[B,3,32,32]"}, shapes=[{"B": 2}, {"B": 1}], module="timm",
           args=["--python", sitepaths.PYTHON], matrix=False)  # a whole model: out of test_targets.py's matrix
CASES = list(BASES.values()) + [LLAMA]

# (target, opset, extra flags, whether the coarse ops are expected)
TARGETS = [("onnxruntime", 17, [], False), ("onnxruntime", 23, [], True), ("tensorrt", 24, [], True),
           ("onnxruntime", 23, ["--decompose", "rotary_embedding,scaled_dot_product_attention,rms_norm"], False)]


def variants():
    out = []
    models = [(BASES[n], {"RotaryEmbedding": k}) for n, _, _, _, k, *_ in ROTARY] + \
        [(BASES[n], {"RMSNormalization": k}) for n, _, _, _, k, *_ in RMS] + \
        [(LLAMA, {"RotaryEmbedding": 4, "Attention": 2, "RMSNormalization": 5}), (VIT, {"Attention": 12})]
    for base, want in models:
        for target, opset, flags, coarse in TARGETS:
            if base is VIT and flags:
                continue
            v = base.variant(target, opset)
            v.args += flags
            v.name += "_decomposed" if flags else ""
            v.expected = {op: (k if coarse else 0) for op, k in want.items()}
            out.append(v)
    return out


VARIANTS = variants()
BATCH = Batch(VARIANTS)


@pytest.mark.parametrize("case", VARIANTS, ids=[v.name for v in VARIANTS])
def test_rotary_targets(case):
    check(BATCH.get(case))  # PyTorch's numbers in ONNX Runtime (and TensorRT's table, onnx.checker)
    ops = [n.op_type for n in onnx.load(case.onnx).graph.node]
    got = {op: ops.count(op) for op in case.expected}
    assert got == case.expected, f"{case.name}: {got}, expected {case.expected}"


def test_keep_rotary_below_opset_23(tmp_path):
    """--keep rotary_embedding at an opset without RotaryEmbedding is one clear diagnostic at the
    user's line (exit status 1), as for the other composite ops."""
    import subprocess
    from harness import MODELS, ONNXIFY
    p = subprocess.run([ONNXIFY, "export", os.path.join(MODELS, "rotary.py"), "--model", "TableRotary()", "--input",
                        "q=float32[B,2,T,16]", "--keep", "rotary_embedding", "-o", str(tmp_path / "k.onnx")],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1, p.stderr
    first = p.stderr.splitlines()[0]
    lines = open(os.path.join(MODELS, "rotary.py")).read().splitlines()
    line = next(i for i, t in enumerate(lines, 1) if "rotate_half_chunk(q) * emb.sin()" in t)
    assert f"rotary.py:{line}:16: error:" in first and "cannot keep rotary_embedding as one RotaryEmbedding node: " \
        "RotaryEmbedding needs opset 23 or later (lowering to opset 17)" in first, p.stderr
    assert "help: drop 'rotary_embedding' from --keep, or choose --opset 23 or later" in p.stderr
