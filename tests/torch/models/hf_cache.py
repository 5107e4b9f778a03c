"""transformers' own decoders with a KV cache as graph inputs and outputs (written here; the models
are transformers' unmodified classes): the wrapper turns per-layer (key, value) tensors into the
DynamicCache the model takes, and returns the logits and the updated cache as tensors, so one ONNX
file serves the prompt (past length 0) and every decode step."""
import torch
from transformers import DynamicCache, GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM


class WithCache(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, past):
        cache = DynamicCache(ddp_cache_data=past)
        out = self.model(input_ids=input_ids, past_key_values=cache, use_cache=True)
        layers = out.past_key_values.layers
        return out.logits, tuple((layer.keys, layer.values) for layer in layers)


def gpt2_with_cache():
    return WithCache(GPT2LMHeadModel(GPT2Config(vocab_size=100, n_layer=2, n_embd=32, n_head=4, n_positions=64)))


def llama_with_cache():
    return WithCache(LlamaForCausalLM(LlamaConfig(vocab_size=100, num_hidden_layers=2, hidden_size=32,
                                                  num_attention_heads=4, num_key_value_heads=2,
                                                  intermediate_size=64)))
