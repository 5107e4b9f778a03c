"""transformers: every model_type with a base model class (MODEL_MAPPING_NAMES), built from its
config class at a small size with random weights.

The config: the config class's defaults, shrunk by `shrink` (a rule per attribute name, applied to
every attribute the default config has, sub-configs included: 2 layers, width 64, 2 heads, FFN 128,
vocabulary 100, 128 positions, 64x64 images in 8x8 patches, ...), plus OVERRIDES where a model_type
needs more. The model is the expression `XModel(XConfig(**{...}))` with the shrunk values as
literals, evaluated in the `transformers` namespace by eager PyTorch, by both torch.onnx.export
modes (bench/zoo/torch_export.py) and by onnxify (`-m transformers`), so all see one architecture.

Inputs follow the model class's main_input_name (input_ids: int64[B,S]; pixel_values:
float32[B,C,H,W] from the config's num_channels and image_size; input_values: float32[B,T] raw
audio; input_features: float32[B,F,T] or [B,T,F] mel features), plus, where forward takes them,
decoder_input_ids / pixel_values / input_ids / ... (candidates tried in eager in a fixed order: the
main input alone, then with each other known input, then with all of them), and use_cache=False
where forward has use_cache. Each input set is tried with every dim symbolic first, then with the
batch alone symbolic (the first candidate eager runs at both shapes is the case)."""
import ast
import inspect
import re

from common import candidate, held_out, static_variant

TEXT_SHAPES = [{"B": 2, "S": 16, "T": 5}, {"B": 1, "S": 9, "T": 3}]

# Attribute rules: (regex on the attribute name, target). An int attribute above the target is set
# to it (nothing is made bigger); lists are handled below.
RULES = [
    (r"^(num_kv_shared_layers)$", 0),
    (r"^(window_size)$", 2),
    (r"^(num_frames)$", 4),
    (r"^(num_hidden_layers|n_layers?|num_layers|encoder_layers|decoder_layers|num_encoder_layers|"
     r"num_decoder_layers|depth|num_blocks|n_blocks|.*_num_layers|num_.*_layers)$", 2),
    (r"^(hidden_size|d_model|n_embd|n_embed|embed_dim|dim|d_embed|word_embed_proj_dim|embedding_size|"
     r"projection_dim|proj_dim|text_embed_dim|vision_embed_dim|hidden_dim_model)$", 64),
    (r"^(num_attention_heads|n_heads?|num_heads|encoder_attention_heads|decoder_attention_heads|"
     r"num_key_value_heads|n_kv_heads|num_kv_heads|multi_query_group_num|num_attention_heads_.*)$", 2),
    (r"^(head_dim|d_kv|kv_channels|attention_head_size|d_head)$", 32),
    (r"^(qk_nope_head_dim|qk_rope_head_dim|v_head_dim|qk_head_dim)$", 16),
    (r"^(kv_lora_rank|q_lora_rank)$", 32),
    (r"^(intermediate_size|ffn_dim|encoder_ffn_dim|decoder_ffn_dim|d_ff|n_inner|hidden_dim|"
     r"moe_intermediate_size|shared_expert_intermediate_size|expert_intermediate_size|d_inner|"
     r".*_intermediate_size|.*_ffn_dim)$", 128),
    (r"^(num_experts|num_local_experts|n_routed_experts|moe_num_experts|num_experts_total)$", 4),
    (r"^(num_experts_per_tok|moe_topk|top_k|num_selected_experts|n_group|topk_group)$", 1),
    (r"^(ffn_hidden_size|d_inner_ffn)$", 128),
    (r"^(rotary_dim)$", 16),
    (r"^(num_queries)$", 20),
    (r"^(mamba_n_heads)$", 4),
    (r"^(mamba_d_head)$", 32),
    (r"^(mamba_d_ssm)$", 128),
    (r"^(mamba_d_state|ssm_state_size|state_size|d_state)$", 16),
    (r"^(mamba_chunk_size)$", 16),
    (r"^vocab_size$", 100),
    (r"^(max_position_embeddings|n_positions|max_seq_len|max_sequence_length|max_length|seq_length|"
     r"max_target_positions)$", 128),
    (r"^(max_source_positions)$", 32),
    (r"^(image_size|img_size)$", 64),
    (r"^patch_size$", 8),
    (r"^(num_mel_bins|input_feat_size|n_mels)$", 16),
]
VOCAB = 100
IDS_GEN_HI = 90  # random token ids lie in [3, 90); special ids at or above the vocabulary move to 90..99
TOKEN_ID = re.compile(r"(token_id|token_ids|token_index)$")
LIST_DEPTHS = re.compile(r"^(depths|num_layers|layers|block_layers|num_blocks|stage_depths|layer_depths)$")
# Parameters a default config leaves None although the model needs a value.
NONE_BREAKS = {"num_experts_per_tok": 1, "head_dim": 32}
# Never shrunk: derived counts or sizes a rule's pattern would catch by accident.
EXCLUDE = re.compile(r"feat_extract|conv_|codevector|num_buckets|max_relative|position_buckets|distance")
META_KEYS = {"transformers_version", "architectures", "_name_or_path", "torch_dtype", "dtype", "output_attentions",
             "output_hidden_states", "return_dict", "_attn_implementation_autoset", "_commit_hash"}

# model_type -> extra overrides, only where the generic shrink cannot get a buildable config. Keep
# it small; each entry says why.
OVERRIDES = {
    # the text and layout embeddings are summed: 4 * coordinate_size + 2 * shape_size == hidden_size
    "layoutlmv3": {"coordinate_size": 12, "shape_size": 8},
    # hidden_size * expand == num_heads * head_dim; the groups divide the heads
    "mamba2": {"num_heads": 4, "head_dim": 32, "n_groups": 1},
}


def _module():
    import transformers
    return transformers


def list_names():
    from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES
    import transformers
    import torch
    types = sorted(MODEL_MAPPING_NAMES)
    keep = [t for t in types if not held_out(t)]  # by name, before anything about them is read
    return {"names": keep, "total": len(types), "held_out": len(types) - len(keep),
            "versions": {"transformers": transformers.__version__, "torch": torch.__version__}}


def class_names(model_type):
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES
    from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES
    model = MODEL_MAPPING_NAMES[model_type]
    if isinstance(model, (tuple, list)):
        model = model[0]
    return model, CONFIG_MAPPING_NAMES[model_type]


def _is_literal(v):
    try:
        return ast.literal_eval(repr(v)) == v
    except Exception:
        return False


def _shrink_value(key, v, layers_before):
    """The small value for one attribute, or the value itself."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        if EXCLUDE.search(key):
            return v
        for pattern, target in RULES:
            if re.match(pattern, key):
                return min(v, target) if v > 0 else v
        return v
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        if LIST_DEPTHS.match(key):
            return type(v)(min(x, 1) for x in v)
        if key in ("image_size", "img_size"):
            return type(v)(min(x, 64) for x in v)
        if key == "patch_size":
            return type(v)(min(x, 8) for x in v)
        if key in ("num_heads", "num_attention_heads"):  # per stage, the width doubling: 2, 4, 8, ...
            return type(v)(min(x, 2 ** (i + 1)) for i, x in enumerate(v))
        for pattern, target in RULES:  # a per-layer list of a sized attribute (intermediate_size, ...)
            if re.match(pattern, key) and not EXCLUDE.search(key):
                v = type(v)(min(x, target) if x > 0 else x for x in v)
                break
    if isinstance(v, (list, tuple)) and layers_before and len(v) == layers_before and layers_before > 2:
        return type(v)(v[:2])  # a per-layer list (layer_types, ...): the first two layers
    return v


def _config_classes():
    from transformers import PreTrainedConfig
    return PreTrainedConfig


def declared_defaults(cls):
    """{parameter: default} of the config class's __init__, or None when it takes only **kwargs."""
    import inspect
    try:
        params = inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):
        return None
    named = {k: p.default for k, p in params.items()
             if k != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
    return named or None


def shrink(cfg):
    """{attribute: small value} for a default-constructed config. Only the __init__ parameters are
    set, and only those with a value for a default: a parameter whose default is None is computed
    by the config from the others (head_dim, layer_types, ...) and follows them. A sub-config
    becomes a dict of its own overrides plus its differences from its class's defaults and its
    model_type, passed only where it has overrides."""
    Base = _config_classes()
    declared = declared_defaults(type(cfg))
    attrs = {k: v for k, v in vars(cfg).items() if not k.startswith("_") and k not in META_KEYS}
    for alias, real in (getattr(cfg, "attribute_map", None) or {}).items():
        if declared and alias in declared and alias not in attrs:
            try:
                attrs[alias] = getattr(cfg, alias)
            except Exception:
                pass
    layers_before = next((attrs[k] for k in ("num_hidden_layers", "n_layer", "num_layers", "n_layers")
                          if isinstance(attrs.get(k), int)), None)
    out = {}
    for k, v in attrs.items():
        if isinstance(v, Base):
            sub = shrink(v)
            if not sub:
                continue
            try:
                defaults = type(v)().to_dict()
            except Exception:
                defaults = {}
            mine = v.to_dict()
            diff = {kk: vv for kk, vv in mine.items() if kk not in META_KEYS and defaults.get(kk, object()) != vv
                    and _is_literal(vv) and not isinstance(vv, dict) and kk != "model_type"}
            sub_layers = next((getattr(v, kk) for kk in ("num_hidden_layers", "n_layer", "num_layers", "n_layers")
                               if isinstance(getattr(v, kk, None), int)), None)
            for kk, vv in list(diff.items()):  # per-layer lists the parent gave: the first two layers
                if isinstance(vv, (list, tuple)) and sub_layers and sub_layers > 2 and len(vv) == sub_layers:
                    diff[kk] = type(vv)(vv[:2])
            d = {**diff, **sub}
            mt = getattr(v, "model_type", None) or mine.get("model_type")
            if mt:
                d["model_type"] = mt
            out[k] = d
            continue
        per_layer = (isinstance(v, (list, tuple)) and layers_before and layers_before > 2 and len(v) == layers_before
                     and declared is not None and k in declared)
        if declared is not None and (k not in declared or declared[k] is None) and not per_layer:
            if k in NONE_BREAKS and v is None:
                out[k] = NONE_BREAKS[k]
            continue
        new = _shrink_value(k, v, layers_before)
        if new != v and _is_literal(new):
            out[k] = new
    # Special token ids outside the small vocabulary move into it (distinct, from the top).
    vocab = out.get("vocab_size", attrs.get("vocab_size"))
    if isinstance(vocab, int):
        free = iter(range(vocab - 1, IDS_GEN_HI - 1, -1)) if vocab > IDS_GEN_HI else iter(range(vocab - 1, 2, -1))
        moved = {}
        for k, v in attrs.items():
            if not TOKEN_ID.search(k):
                continue
            vals = v if isinstance(v, list) else [v]
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in vals):
                continue
            new = []
            for x in vals:
                if x >= vocab or (x >= IDS_GEN_HI and vocab <= IDS_GEN_HI):
                    if x not in moved:
                        moved[x] = next(free, vocab - 1)
                    new.append(moved[x])
                else:
                    new.append(x)
            if new != vals:
                out[k] = new if isinstance(v, list) else new[0]
    if attrs.get("use_cache"):
        out["use_cache"] = False
    return out


def _find(cfg, key, default=None):
    """An attribute of the config or of its text/vision/audio/encoder sub-config."""
    if getattr(cfg, key, None) is not None:
        return getattr(cfg, key)
    for sub in ("text_config", "vision_config", "audio_config", "encoder_config", "encoder", "speech_config"):
        s = getattr(cfg, sub, None)
        if s is not None and getattr(s, key, None) is not None:
            return getattr(s, key)
    return default


def _image_spec(cfg):
    channels = _find(cfg, "num_channels", 3)
    size = _find(cfg, "image_size", 64)
    if isinstance(size, (list, tuple)):
        h, w = size[0], size[-1]
    else:
        h = w = size if isinstance(size, int) else 64
    return channels, h, w


def input_sets(model_cls, cfg):
    """[({input: spec}, shapes, gen)], in the order they are tried."""
    params = inspect.signature(model_cls.forward).parameters
    main = getattr(model_cls, "main_input_name", "input_ids")
    vocab = _find(cfg, "vocab_size", VOCAB)
    hi = max(4, min(vocab if isinstance(vocab, int) else VOCAB, IDS_GEN_HI))
    c, h, w = _image_spec(cfg)
    kinds = {
        "input_ids": ({"input_ids": "int64[B,S]"}, {"input_ids": f"int:3:{hi}"}),
        "decoder_input_ids": ({"decoder_input_ids": "int64[B,T]"}, {"decoder_input_ids": f"int:3:{hi}"}),
        "pixel_values": ({"pixel_values": f"float32[B,{c},H,W]"}, {}),
        "input_values": ({"input_values": "float32[B,A]"}, {}),
        "attention_mask": ({"attention_mask": "int64[B,S]"}, {"attention_mask": "int:1:2"}),
    }
    feat = _find(cfg, "num_mel_bins") or _find(cfg, "input_feat_size") or _find(cfg, "feature_size") or 80
    frames = 2 * _find(cfg, "max_source_positions", 32) if _find(cfg, "max_source_positions") else 64
    shapes = [dict(TEXT_SHAPES[0], H=h, W=w, A=4000, F=frames), dict(TEXT_SHAPES[1], H=h + 32, W=w, A=3200, F=frames - 16)]
    features = [({"input_features": f"float32[B,{feat},F]"}, {}), ({"input_features": f"float32[B,F,{feat}]"}, {})]
    if main == "input_features":
        mains = features
    elif main == "input_values":  # raw audio [B,T], one channel [B,1,T], or a spectrogram [B,T,F]
        maxlen = _find(cfg, "max_length")
        mains = [kinds[main], ({"input_values": "float32[B,1,A]"}, {}), ({"input_values": f"float32[B,F,{feat}]"}, {})]
        if isinstance(maxlen, int):
            mains.append(({"input_values": f"float32[B,{maxlen},{feat}]"}, {}))
    elif main == "pixel_values" and isinstance(_find(cfg, "num_frames"), int):  # video: [B,T,C,H,W] first
        mains = [({"pixel_values": f"float32[B,{_find(cfg, 'num_frames')},{c},H,W]"}, {}), kinds[main]]
    elif main == "pixel_values" and _find(cfg, "image_size") is None:  # no size in the config: 64, else 224
        mains = [kinds[main], ({"pixel_values": f"float32[B,{c},224,224]"}, {})]
    elif main in kinds:
        mains = [kinds[main]]
    else:
        return [], f"main input {main!r} has no generic spec"
    extras = [k for k in ("decoder_input_ids", "pixel_values", "input_ids", "attention_mask") if k in params and k != main]
    literals = {"use_cache": "False"} if "use_cache" in params else {}
    sets = []
    for spec, gen in mains:
        sets.append(({**spec, **literals}, dict(gen)))
        for e in extras:
            sets.append(({**spec, **kinds[e][0], **literals}, {**gen, **kinds[e][1]}))
        if len(extras) > 1:
            allspec, allgen = dict(spec), dict(gen)
            for e in extras:
                allspec.update(kinds[e][0])
                allgen.update(kinds[e][1])
            sets.append(({**allspec, **literals}, allgen))
    out = []
    for spec, gen in sets:
        used = {d for v in spec.values() if "[" in v for d in re.findall(r"[A-Z]", v[v.index("["):])}
        sh = [{d: v for d, v in s.items() if d in used} for s in shapes]
        out.append((spec, sh, gen))
    return out, None


def fit_mrope(cfg, overrides):
    """Multimodal rotary sections (rope_parameters["mrope_section"]) sum to half the head size: scaled
    to the small head size (in the config and in each sub-config). True when something changed."""
    changed = False
    subs = [(None, cfg)] + [(k, v) for k, v in vars(cfg).items() if isinstance(v, _config_classes())]
    for key, c in subs:
        for attr in ("rope_parameters", "rope_scaling"):
            rp = getattr(c, attr, None)
            if not isinstance(rp, dict) or not ("rope_type" in rp or "rope_theta" in rp):
                continue  # (per-layer-type parameters: not handled)
            sec = rp.get("mrope_section")
            if not isinstance(sec, (list, tuple)):
                # the modeling code's own default sections (not in the config): its ratio 2:3:3
                if "mrope_section" not in (getattr(c, "ignore_keys_at_rope_validation", None) or ()):
                    continue
                sec = [2, 3, 3]
            hd = getattr(c, "head_dim", None) or (getattr(c, "hidden_size", 0) // max(1, getattr(c, "num_attention_heads", 1)))
            factor = rp.get("partial_rotary_factor") or getattr(c, "partial_rotary_factor", None) or 1.0
            half, sec = int(hd * factor) // 2, list(sec)
            if not half or sum(sec) == half:
                continue
            new = [max(1, x * half // sum(sec)) for x in sec]
            new[-1] += half - sum(new)
            target = overrides if key is None else overrides.setdefault(key, {"model_type": c.model_type})
            target[attr] = dict(rp, mrope_section=new)
            changed = True
    return changed


def candidates(model_type):
    import transformers
    model_name, config_name = class_names(model_type)
    config_cls = getattr(transformers, config_name)
    model_cls = getattr(transformers, model_name)
    overrides = shrink(config_cls())
    for k, v in OVERRIDES.get(model_type, {}).items():
        if v is None:
            overrides.pop(k, None)
        else:
            overrides[k] = v
    cfg = config_cls(**overrides)
    if fit_mrope(cfg, overrides):
        cfg = config_cls(**overrides)
    expr = f"{model_name}({config_name}(**{overrides!r}))"
    sets, why = input_sets(model_cls, cfg)
    if not sets:
        raise RuntimeError(f"NoInputLayout: {why}")
    out = []
    for spec, shapes, gen in sets:
        c = candidate(expr, spec, shapes, gen, module="transformers", note="all dims symbolic")
        out.append(c)
        # then the image/audio dims fixed (a position table or size check), the sequence symbolic;
        # then everything but the batch fixed
        for fixed in (("H", "W", "A", "F"), None):
            s = static_variant(c, only=fixed, note="image/audio dims static" if fixed else "batch symbolic only")
            if s and all(s["inputs"] != o["inputs"] for o in out):
                out.append(s)
    return out
