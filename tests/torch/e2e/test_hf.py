"""Hugging Face-style model zoos from their unmodified installed sources (issue 13), named with
`onnxify export -m MODULE` instead of a file path.

Each case builds the model in PyTorch from the same installed package (seeded random weights,
BatchNorm statistics calibrated), saves its state_dict, exports it with `-m timm --python VENV_PYTHON` and
a symbolic batch, and compares ONNX Runtime with eager PyTorch at batch 2 and batch 1
(harness.check: rtol 1e-3, atol 1e-4 scaled by the output's magnitude). Small images keep the
file within CI's budget: the models are timm's registered configurations, unchanged."""
import os
import subprocess

import pytest

import harness
from harness import DIST_PACKAGES, ONNXIFY, Batch, Case, check, sitepaths

PYTHON = sitepaths.PYTHON

# name: (extra create_model arguments, image size, whether H and W are symbolic too). Patch models
# take a smaller img_size (their position tables follow it); Swin's window partition needs a static
# resolution in timm's code (H // window_size must be a Python int), so its batch alone is symbolic.
TIMM_MODELS = {
    "resnet18": ("", 64, True),
    "convnext_atto": ("", 64, True),
    "densenet121": ("", 32, True),
    "mobilevitv2_050": ("", 64, False),
    "vit_tiny_patch16_224": (", img_size=64", 64, False),
    "deit_tiny_patch16_224": (", img_size=64", 64, False),
    "swin_tiny_patch4_window7_224": (", img_size=64, window_size=2", 64, False),
    # timm decodes these architectures' block strings with re (onnxify's stdlib re)
    "efficientnet_b0": ("", 64, True),
    "mobilenetv3_small_050": ("", 64, False),
    "mobilenetv3_large_100": ("", 64, False),
    # len(torch.unique(widths)) of widths computed in __init__ is a static stage count
    "regnetx_002": ("", 64, True),
}


def timm_case(name, kwargs, size, symbolic_hw):
    spec = "float32[N,3,H,W]" if symbolic_hw else f"float32[N,3,{size},{size}]"
    shapes = [{"N": 2, "H": size, "W": size}, {"N": 1, "H": size + 32, "W": size}] if symbolic_hw else \
        [{"N": 2}, {"N": 1}]
    # timm is found among the venv interpreter's installed packages (--python), as a user's `import
    # timm` is; those are searched leniently (huggingface_hub's import-time code that onnxify cannot
    # run makes it an unknown module for timm, which guards its use).
    return Case(f"timm_{name}", None, f"create_model({name!r}, pretrained=False{kwargs})", module="timm",
                args=["--python", PYTHON], inputs={"x": spec}, shapes=shapes,
                # Out of test_targets.py's target x opset matrix: whole models there would cost CI
                # minutes; the ops they use are in that matrix through test_ops.py.
                matrix=False)


CASES = [timm_case(n, *a) for n, a in TIMM_MODELS.items()]
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_timm(case):
    check(BATCH.get(case))


# transformers from its unmodified sources: `import transformers` (its lazy module table built by
# listing and reading transformers/models under the import roots), a model built from a small config
# with seeded random weights, exported with -m transformers and symbolic batch and sequence length,
# compared with eager at (batch 2, seq 7) and (batch 1, seq 3). Inputs stay inside the vocabulary.
def hf_case(name, model, inputs, shapes, gen=None):
    return Case(f"hf_{name}", None, model, module="transformers", args=["--python", PYTHON], inputs=inputs,
                shapes=shapes, gen=gen, matrix=False)


TEXT_SHAPES = [{"B": 2, "S": 7}, {"B": 1, "S": 3}]
IDS = {"input_ids": "int64[B,S]"}
IDS_GEN = {"input_ids": "int:0:100"}
IMAGE = {"pixel_values": "float32[B,3,32,32]"}
IMAGE_SHAPES = [{"B": 2}, {"B": 1}]
SMALL = "num_hidden_layers=2, hidden_size=64, num_attention_heads=2, intermediate_size=128"
# The decoders return their KV cache by default; use_cache=False keeps the outputs tensors.
NO_CACHE = {**IDS, "use_cache": "False"}
HF_CASES = [
    hf_case("bert", f"BertModel(BertConfig(vocab_size=100, {SMALL}))", IDS, TEXT_SHAPES, IDS_GEN),
    hf_case("gpt2", "GPT2Model(GPT2Config(vocab_size=100, n_layer=2, n_embd=64, n_head=2, n_positions=64))",
            NO_CACHE, TEXT_SHAPES, IDS_GEN),
    hf_case("llama", "LlamaModel(LlamaConfig(vocab_size=100, num_hidden_layers=2, hidden_size=64, "
            "num_attention_heads=4, num_key_value_heads=2, intermediate_size=128))", NO_CACHE, TEXT_SHAPES, IDS_GEN),
    hf_case("qwen2", "Qwen2Model(Qwen2Config(vocab_size=100, num_hidden_layers=2, hidden_size=64, "
            "num_attention_heads=4, num_key_value_heads=2, intermediate_size=128))", NO_CACHE, TEXT_SHAPES, IDS_GEN),
    hf_case("mistral", "MistralModel(MistralConfig(vocab_size=100, num_hidden_layers=2, hidden_size=64, "
            "num_attention_heads=4, num_key_value_heads=2, intermediate_size=128))", NO_CACHE, TEXT_SHAPES,
            IDS_GEN),
    hf_case("roberta", f"RobertaModel(RobertaConfig(vocab_size=100, {SMALL}))", IDS, TEXT_SHAPES, IDS_GEN),
    hf_case("distilbert", "DistilBertModel(DistilBertConfig(vocab_size=100, n_layers=2, dim=64, n_heads=2, "
            "hidden_dim=128))", IDS, TEXT_SHAPES, IDS_GEN),
    hf_case("vit", f"ViTModel(ViTConfig(image_size=32, patch_size=8, {SMALL}))", IMAGE, IMAGE_SHAPES),
    hf_case("clip_text", f"CLIPTextModel(CLIPTextConfig(vocab_size=100, {SMALL}))", IDS, TEXT_SHAPES, IDS_GEN),
    hf_case("clip_vision", f"CLIPVisionModel(CLIPVisionConfig(image_size=32, patch_size=8, {SMALL}))", IMAGE,
            IMAGE_SHAPES),
    hf_case("t5", "T5Model(T5Config(vocab_size=100, num_layers=2, d_model=64, d_kv=16, num_heads=4, d_ff=128))",
            {**IDS, "decoder_input_ids": "int64[B,T]", "use_cache": "False"},
            [{"B": 2, "S": 7, "T": 4}, {"B": 1, "S": 3, "T": 1}], {**IDS_GEN, "decoder_input_ids": "int:0:100"}),
    hf_case("t5_encoder", "T5EncoderModel(T5Config(vocab_size=100, num_layers=2, d_model=64, d_kv=16, "
            "num_heads=4, d_ff=128))", IDS, TEXT_SHAPES, IDS_GEN),
    hf_case("clip", "CLIPModel(CLIPConfig(text_config=dict(vocab_size=100, " + SMALL + "), "
            "vision_config=dict(image_size=32, patch_size=8, " + SMALL + "), projection_dim=32))",
            {**IDS, **{"pixel_values": "float32[N,3,32,32]"}},
            [{"B": 2, "S": 7, "N": 3}, {"B": 1, "S": 3, "N": 1}], IDS_GEN),
    hf_case("whisper", "WhisperModel(WhisperConfig(vocab_size=100, pad_token_id=0, bos_token_id=1, eos_token_id=2, "
            "decoder_start_token_id=1, encoder_layers=2, decoder_layers=2, d_model=64, encoder_attention_heads=2, "
            "decoder_attention_heads=2, encoder_ffn_dim=128, decoder_ffn_dim=128, num_mel_bins=16, "
            "max_source_positions=32))",
            {"input_features": "float32[B,16,64]", "decoder_input_ids": "int64[B,T]", "use_cache": "False"},
            [{"B": 2, "T": 4}, {"B": 1, "T": 1}], {"decoder_input_ids": "int:0:100"}),
    # Whisper's encoder takes exactly 2 * max_source_positions frames (it checks): batch symbolic.
    hf_case("whisper_encoder", "WhisperModel(WhisperConfig(vocab_size=100, pad_token_id=0, bos_token_id=1, "
            "eos_token_id=2, decoder_start_token_id=1, encoder_layers=2, decoder_layers=2, d_model=64, "
            "encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=128, decoder_ffn_dim=128, "
            "num_mel_bins=16, max_source_positions=32)).get_encoder()", {"input_features": "float32[B,16,64]"},
            IMAGE_SHAPES),
]
HF_BATCH = Batch(HF_CASES)


@pytest.mark.parametrize("case", HF_CASES, ids=lambda c: c.name)
def test_transformers(case):
    check(HF_BATCH.get(case))


def test_module_option_errors(tmp_path):
    """-m names a module: a missing one, a malformed name, or both SOURCE and -m are bad command
    lines (exit status 2) with one diagnostic each."""
    out = str(tmp_path / "m.onnx")
    for args, want in [
        (["-m", "no_such_module_anywhere"], "-m: cannot import 'no_such_module_anywhere'"),
        (["-m", "timm..models"], "-m 'timm..models' is not a module name"),
        ([], "name the model's code: a SOURCE.py file or -m MODULE"),
    ]:
        p = subprocess.run([ONNXIFY, "export", *args, "--path", DIST_PACKAGES, "--model", "Net()", "-o", out],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2, p.stderr
        assert p.stderr.startswith(f"onnxify: error: {want}"), p.stderr
    p = subprocess.run([ONNXIFY, "inspect", "-m", "timm", "--python", PYTHON, "--model",
                        "create_model('resnet18', pretrained=False)"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "fc" in p.stdout and "conv1" in p.stdout


def test_extension_submodule_is_unknown(tmp_path):
    """A package's compiled submodule (regex._regex, which transformers' import reaches) exists, so it
    is not ModuleNotFoundError; importing it gives an unknown value that is an error only where a
    concrete value is needed, and that error says why."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from pkg import _native\nTABLE = _native.table()\n")
    (pkg / "_native.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    (tmp_path / "main.py").write_text("import pkg\nprint('imported')\nprint(len(pkg.TABLE))\n")
    p = subprocess.run([ONNXIFY, "run", str(tmp_path / "main.py")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 1, p.stderr
    assert p.stdout == "imported\n"
    first = p.stderr.splitlines()[0]
    assert first.endswith("error: cannot use an unknown value as a length: 'pkg._native.table(...)' is unknown "
                          "because module 'pkg._native' is not available: it is a compiled extension module "
                          "(machine code onnxify does not run)"), first


# transformers' export-time patterns (tests/torch/models/hf_patterns.py), symbolic batch and length.
PATTERN_CASES = [
    Case("sdpa_is_causal_item", "hf_patterns.py", "SdpaAttention()", inputs={"x": "float32[N,T,16]"},
         shapes=[{"N": 2, "T": 5}, {"N": 1, "T": 1}, {"N": 1, "T": 3}]),
    Case("sdpa_block_no_mask", "hf_patterns.py", "SdpaBlock()", inputs={"x": "float32[N,T,16]"},
         shapes=[{"N": 2, "T": 4}, {"N": 1, "T": 1}]),
    Case("sdpa_block_mask", "hf_patterns.py", "SdpaBlock()", inputs={"x": "float32[N,T,16]", "mask": "bool[T,T]"},
         shapes=[{"N": 2, "T": 4}, {"N": 1, "T": 6}], gen={"mask": "bool"}),
    Case("lazy_constant_in_branch", "hf_patterns.py", "LazyConstantInBranch()", inputs={"x": "float32[N,T]"},
         paths=[("sum > 0", {"x": "torch.rand(2, 5) + 1"}), ("sum <= 0", {"x": "-torch.rand(1, 3) - 1"})]),
    Case("item_condition", "hf_patterns.py", "ItemCondition()", inputs={"x": "float32[N,T]"},
         paths=[("max > 1", {"x": "torch.randn(2, 4) + 3"}), ("max <= 1", {"x": "torch.randn(1, 3) - 3"})]),
]
PATTERNS = Batch(PATTERN_CASES)


@pytest.mark.parametrize("case", PATTERN_CASES, ids=lambda c: c.name)
def test_export_patterns(case):
    check(PATTERNS.get(case))


# ---- sharded checkpoints as Hugging Face writes them ------------------------------------------------

def _sharded_export(tmp_path, safe, dtype):
    """timm's resnet18 (64x64, symbolic batch): its state_dict, cast to `dtype`, written by
    huggingface_hub.save_torch_state_dict in shards of at most 4 MB (safetensors, or
    pytorch_model-0000x-of-0000y.bin with safe=False) with its index; exported with --weights INDEX and
    compared with eager PyTorch after load_state_dict of the same tensors (which casts them to the
    model's float32, as onnxify's binding does)."""
    import torch
    from huggingface_hub import save_torch_state_dict

    import harness
    import ort
    case = timm_case("resnet18", "", 64, False)
    case.name = f"sharded_{'safetensors' if safe else 'bin'}_{dtype}"
    torch.manual_seed(0)
    model = harness._import_source(case).create_model("resnet18", pretrained=False).eval()
    sd = {k: (v.to(getattr(torch, dtype)) if v.is_floating_point() else v) for k, v in model.state_dict().items()}
    out = tmp_path / "ckpt"
    out.mkdir()
    save_torch_state_dict(sd, str(out), max_shard_size="4MB", safe_serialization=safe)
    index = out / ("model.safetensors.index.json" if safe else "pytorch_model.bin.index.json")
    shards = sorted(p.name for p in out.iterdir() if p.name != index.name)
    assert index.exists() and len(shards) > 2, shards
    model.load_state_dict(sd)
    g = torch.Generator().manual_seed(1)
    feeds = [{"x": torch.randn(n, 3, 64, 64, generator=g)} for n in (2, 1)]
    with torch.no_grad():
        wants = [model(**f).numpy() for f in feeds]
    onnx_path = str(tmp_path / "m.onnx")
    cmd = [ONNXIFY, "export", "-m", "timm", "--python", PYTHON, "--model", case.model, "--input",
           "x=float32[N,3,64,64]", "--weights", str(index), "-o", onnx_path, "-q"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    gots = ort.run_models([(onnx_path, [{"x": f["x"].numpy()} for f in feeds])])[0]
    for want, got in zip(wants, gots):
        got = list(got.values())[0]
        assert got.shape == want.shape
        scale = max(1.0, float(abs(want).max()))
        assert abs(got - want).max() <= 1e-4 * scale + 1e-3 * abs(want).max(), abs(got - want).max()
    return index, shards


@pytest.mark.parametrize("safe,dtype", [(True, "float32"), (False, "float32"), (True, "bfloat16"),
                                        (False, "float16")])
def test_sharded_checkpoint(tmp_path, safe, dtype):
    _sharded_export(tmp_path, safe, dtype)


def test_sharded_listing(tmp_path):
    """`onnxify weights INDEX` lists every shard's tensors with the checksums onnxify gives each shard
    file (shards written by huggingface_hub)."""
    index, shards = _sharded_export(tmp_path, True, "float32")
    listed = subprocess.run([ONNXIFY, "weights", str(index)], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    per_shard = ""
    for s in shards:
        r = subprocess.run([ONNXIFY, "weights", str(index.parent / s)], capture_output=True, text=True, timeout=60)
        per_shard += r.stdout
    assert sorted(listed.stdout.splitlines()) == sorted(per_shard.splitlines())


# ---- --dtype ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ckpt_dtype,flag,model_dtype", [("float16", "float16", "float16"),
                                                         ("bfloat16", "float32", "float32"),
                                                         ("float32", "float16", "float16")])
def test_dtype(tmp_path, ckpt_dtype, flag, model_dtype):
    """--dtype D is model.to(D) before binding (a float16 or bfloat16 checkpoint cast to it). Checked
    against eager PyTorch on the model converted the same way and loaded with the same tensors
    (safetensors file), at two batch sizes, in the model's dtype."""
    import torch
    from safetensors.torch import save_file

    import harness
    import ort
    mod = harness.models_module("hf_patterns.py")
    torch.manual_seed(0)
    model = mod.TinyMlp().eval()
    sd = {k: v.to(getattr(torch, ckpt_dtype)) for k, v in model.state_dict().items()}
    ckpt = str(tmp_path / "w.safetensors")
    save_file(sd, ckpt)
    model = model.to(getattr(torch, model_dtype))
    model.load_state_dict(sd)
    g = torch.Generator().manual_seed(1)
    xs = [torch.randn(n, 8, generator=g).to(getattr(torch, model_dtype)) for n in (3, 1)]
    with torch.no_grad():
        wants = [model(x).float().numpy() for x in xs]
    out = str(tmp_path / "m.onnx")
    p = subprocess.run([ONNXIFY, "export", os.path.join(harness.MODELS, "hf_patterns.py"), "--model", "TinyMlp()",
                        "--weights", ckpt, "--dtype", flag, "--input", f"x={model_dtype}[N,8]", "-o", out, "-q"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    gots = ort.run_models([(out, [{"x": x.numpy()} for x in xs])])[0]
    tol = 1e-4 if model_dtype == "float32" else 1e-2
    for want, got in zip(wants, gots):
        got = list(got.values())[0]
        assert str(got.dtype) == model_dtype
        assert abs(got.astype("float32") - want).max() <= tol * max(1.0, abs(want).max())


def test_sdpa_is_causal_with_mask_is_known(tmp_path):
    """`q_len > 1 and mask is None and causal` with a mask given is False whatever the run-time
    q_len (the falsy `q_len > 1` is False too): the export decides is_causal=False itself, with no
    If and no warning that is_causal is only known at run time (sdpa_block_mask checks the numbers)."""
    out = tmp_path / "m.onnx"
    p = subprocess.run([ONNXIFY, "export", os.path.join(harness.MODELS, "hf_patterns.py"), "--model", "SdpaBlock()",
                        "--input", "x=float32[N,T,16]", "--input", "mask=bool[T,T]", "-o", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "is_causal" not in p.stderr, p.stderr
    import onnx
    assert "If" not in {n.op_type for n in onnx.load(str(out)).graph.node}


# ---- KV cache: one file for the prompt and the decode steps -------------------------------------------

def _generation_check(tmp_path, source, model_expr, heads, head_dim, args=()):
    """The model of tests/torch/models/SOURCE exported once with the cache as a tuple spec (past
    length P symbolic): ONNX Runtime runs the prompt with P = 0 and then seven decode steps feeding
    back the cache outputs, greedily, at batch 1 and 3; the 8 generated tokens, the logits of every
    step and the final cache equal eager PyTorch's running the same loop."""
    import numpy as np
    import onnxruntime
    import torch

    import harness
    torch.manual_seed(0)
    model = eval(model_expr, vars(harness.models_module(source))).eval()
    for p in model.parameters():
        torch.nn.init.normal_(p, std=0.3)
    ckpt = str(tmp_path / "dec.pt")
    torch.save(model.state_dict(), ckpt)
    out = str(tmp_path / "dec.onnx")
    kv = f"float32[B,{heads},P,{head_dim}]"
    p = subprocess.run([ONNXIFY, "export", os.path.join(harness.MODELS, source), "--model", model_expr,
                        "--weights", ckpt, "--input", "input_ids=int64[B,T]", "--input",
                        f"past=(({kv}, {kv}),) * 2", *args, "-o", out, "-q"], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    sess = onnxruntime.InferenceSession(out, providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    assert names == ["input_ids", "past.0.0", "past.0.1", "past.1.0", "past.1.1"]
    g = torch.Generator().manual_seed(1)
    for batch, prompt_len in [(1, 5), (3, 4)]:
        prompt = torch.randint(0, 50, (batch, prompt_len), generator=g)
        # eager
        past = tuple((torch.zeros(batch, heads, 0, head_dim), torch.zeros(batch, heads, 0, head_dim))
                     for _ in range(2))
        ids, want_tokens, want_logits = prompt, [], []
        with torch.no_grad():
            for _ in range(8):
                logits, past = model(ids, past)
                want_logits.append(logits.numpy())
                ids = logits[:, -1].argmax(-1, keepdim=True)
                want_tokens.append(ids)
        want_cache = [t.numpy() for kv in past for t in kv]
        # ONNX Runtime, the same loop on the one file
        cache = [np.zeros((batch, heads, 0, head_dim), np.float32) for _ in range(4)]
        ids, got_tokens = prompt.numpy(), []
        for step in range(8):
            logits, *cache = sess.run(None, {"input_ids": ids, **dict(zip(names[1:], cache))})
            np.testing.assert_allclose(logits, want_logits[step], rtol=1e-3, atol=1e-4 * max(1, np.abs(logits).max()))
            ids = logits[:, -1].argmax(-1)[:, None]
            got_tokens.append(ids)
        assert np.array_equal(np.concatenate(got_tokens, 1), torch.cat(want_tokens, 1).numpy())
        assert cache[0].shape == (batch, heads, prompt_len + 7, head_dim)
        for got, want in zip(cache, want_cache):
            np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4 * max(1, np.abs(want).max()))


def test_kv_cache_generation(tmp_path):
    """CachedDecoder (tests/torch/models/hf_patterns.py, written here)."""
    _generation_check(tmp_path, "hf_patterns.py", "CachedDecoder()", 4, 8)


@pytest.mark.parametrize("model,heads", [("gpt2_with_cache()", 4), ("llama_with_cache()", 2)])
def test_transformers_kv_cache_generation(tmp_path, model, heads):
    """transformers' GPT2LMHeadModel and LlamaForCausalLM (GQA: 2 key/value heads) from its unmodified
    sources, the cache a DynamicCache built from the tuple inputs (tests/torch/models/hf_cache.py)."""
    _generation_check(tmp_path, "hf_cache.py", model, heads, 8, ["--python", PYTHON])


def test_tuple_input_spec_errors(tmp_path):
    """A tuple spec with an empty item is a bad command line naming the flag."""
    import harness
    p = subprocess.run([ONNXIFY, "export", os.path.join(harness.MODELS, "hf_patterns.py"), "--model", "CachedDecoder()",
                        "--input", "input_ids=int64[B,T]", "--input", "past=((float32[B,4,P,8], , ),)",
                        "-o", str(tmp_path / "e.onnx")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("onnxify: error: --input past=((float32[B,4,P,8], , ),): an item of the sequence is "
                               "empty"), p.stderr
