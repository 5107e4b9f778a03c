"""The models of issue 13's must-show 1, one row each: where the code lives, how the model is built,
which inputs it takes (symbolic dims where the model allows them) and the two shapes it is checked
at (the first is the one torch.onnx.export traces with; the other has batch 1).

Transformers models are small configurations of the unmodified classes with random weights (no
downloads), named through the module that defines them (`transformers.models.bert.modeling_bert`
holds BertModel and BertConfig), because `--model` is evaluated in that module's namespace and the
top-level `transformers` package resolves its names lazily (a module `__getattr__`, which a global
name lookup never calls). `use_cache=False` keeps the outputs plain tensors (a DynamicCache object
is not a tensor output). timm and torchvision models are their registered architectures, unchanged;
timm's take smaller images where the architecture allows (as tests/torch/e2e/test_hf.py does),
torchvision's keep the 224x224 their position tables and windows are built for.

Each row: (name, family, module, model expression, {input: spec}, [shape, shape], {input: generator})
with harness.py's spec and generator forms (tests/torch/e2e/harness.py)."""

TOKENS = "int64[B,T]"
SEQ = [{"B": 2, "T": 16}, {"B": 1, "T": 7}]
IDS = {"input_ids": "int:3:1000"}  # ids from 3: no pad/bos/eos ids, whose embeddings are zeroed or special
BATCH = [{"B": 2}, {"B": 1}]


def _hf(name, model_file, expr, inputs=None, shapes=SEQ, gen=IDS):
    return (name, "transformers", f"transformers.models.{model_file}", expr, inputs or {"input_ids": TOKENS}, shapes,
            gen)


def _timm(name, arch, kwargs, size, symbolic_hw):
    if symbolic_hw:
        spec, shapes = "float32[B,3,H,W]", [{"B": 2, "H": size, "W": size}, {"B": 1, "H": size + 32, "W": size}]
    else:
        spec, shapes = f"float32[B,3,{size},{size}]", BATCH
    return (name, "timm", "timm", f"create_model({arch!r}, pretrained=False{kwargs})", {"x": spec}, shapes, {})


def _tv(name, module, expr):
    return (name, "torchvision", f"torchvision.models.{module}", expr, {"x": "float32[B,3,224,224]"}, BATCH, {})


SMALL = "hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128"
LLM = f"vocab_size=1000, {SMALL}, num_key_value_heads=2, use_cache=False"

MODELS = [
    _hf("BERT", "bert.modeling_bert", f"BertModel(BertConfig(vocab_size=1000, {SMALL}))"),
    _hf("RoBERTa", "roberta.modeling_roberta", f"RobertaModel(RobertaConfig(vocab_size=1000, {SMALL}))"),
    _hf("DistilBERT", "distilbert.modeling_distilbert",
        "DistilBertModel(DistilBertConfig(vocab_size=1000, dim=64, n_layers=2, n_heads=4, hidden_dim=128))"),
    _hf("GPT-2", "gpt2.modeling_gpt2",
        "GPT2Model(GPT2Config(vocab_size=1000, n_embd=64, n_layer=2, n_head=4, n_positions=128, use_cache=False))"),
    _hf("LLaMA", "llama.modeling_llama", f"LlamaModel(LlamaConfig({LLM}))"),
    _hf("Mistral", "mistral.modeling_mistral", f"MistralModel(MistralConfig({LLM}))"),
    _hf("Qwen2", "qwen2.modeling_qwen2", f"Qwen2Model(Qwen2Config({LLM}))"),
    _hf("T5 encoder", "t5.modeling_t5",
        "T5EncoderModel(T5Config(vocab_size=1000, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4))"),
    # The decoder reads the encoder's output: T5Model runs both (decoder_input_ids of their own length).
    _hf("T5 encoder-decoder", "t5.modeling_t5",
        "T5Model(T5Config(vocab_size=1000, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4, use_cache=False))",
        inputs={"input_ids": TOKENS, "decoder_input_ids": "int64[B,U]"},
        shapes=[{"B": 2, "T": 16, "U": 5}, {"B": 1, "T": 7, "U": 3}], gen={"input_ids": "int:3:1000",
                                                                           "decoder_input_ids": "int:3:1000"}),
    # Whisper's encoder takes exactly 2 * max_source_positions mel frames: the batch alone varies.
    _hf("Whisper encoder", "whisper.modeling_whisper",
        "WhisperEncoder(WhisperConfig(d_model=64, encoder_layers=2, encoder_attention_heads=4, encoder_ffn_dim=128, "
        "num_mel_bins=16, max_source_positions=32))",
        inputs={"input_features": "float32[B,16,64]"}, shapes=BATCH, gen={}),
    _hf("ViT", "vit.modeling_vit", f"ViTModel(ViTConfig({SMALL}, image_size=32, patch_size=8))",
        inputs={"pixel_values": "float32[B,3,32,32]"}, shapes=BATCH, gen={}),
    _hf("CLIP text", "clip.modeling_clip",
        f"CLIPTextModel(CLIPTextConfig(vocab_size=1000, {SMALL}, max_position_embeddings=64))"),
    _hf("CLIP vision", "clip.modeling_clip", f"CLIPVisionModel(CLIPVisionConfig({SMALL}, image_size=32, patch_size=8))",
        inputs={"pixel_values": "float32[B,3,32,32]"}, shapes=BATCH, gen={}),
    _timm("vit_tiny_patch16_224", "vit_tiny_patch16_224", ", img_size=64", 64, False),
    _timm("deit_tiny_patch16_224", "deit_tiny_patch16_224", ", img_size=64", 64, False),
    # Swin's window partition needs a static resolution in timm's code (H // window_size is a Python int)
    _timm("swin_tiny_patch4_window7_224", "swin_tiny_patch4_window7_224", ", img_size=64, window_size=2", 64, False),
    _timm("convnext_atto", "convnext_atto", "", 64, True),
    _timm("efficientnet_b0", "efficientnet_b0", "", 64, True),
    _timm("resnet18", "resnet18", "", 64, True),
    _timm("mobilenetv3_large_100", "mobilenetv3_large_100", "", 64, True),
    _tv("torchvision vit_b_16", "vision_transformer", "vit_b_16()"),
    _tv("torchvision swin_t", "swin_transformer", "swin_t()"),
    _tv("torchvision maxvit_t", "maxvit", "maxvit_t()"),
]

# Full-size configurations for the whole-process bench (must-show 4): BERT-base and GPT-2 (124M) as
# their Hugging Face configs' defaults are, random weights.
FULL = [
    _hf("BERT-base", "bert.modeling_bert", "BertModel(BertConfig())", shapes=[{"B": 2, "T": 128}, {"B": 1, "T": 64}],
        gen={"input_ids": "int:3:30000"}),
    _hf("GPT-2", "gpt2.modeling_gpt2", "GPT2Model(GPT2Config(use_cache=False))",
        shapes=[{"B": 2, "T": 128}, {"B": 1, "T": 64}], gen={"input_ids": "int:3:50000"}),
]


def by_name(names, table=None):
    rows = {r[0]: r for r in (table if table is not None else MODELS + FULL)}
    unknown = [n for n in names if n not in rows]
    if unknown:
        raise SystemExit(f"unknown model(s): {', '.join(unknown)}; known: {', '.join(rows)}")
    return [rows[n] for n in names]
