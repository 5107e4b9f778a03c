from dataclasses import dataclass, field, fields, asdict
from typing import List, Optional, Tuple
import math
@dataclass
class StageConfig:
    expand_ratio: float
    kernel: int
    stride: int
    input_channels: int
    out_channels: int
    num_layers: int
    @staticmethod
    def adjust_channels(channels: int, width_mult: float, min_value: Optional[int] = None) -> int:
        v = channels * width_mult
        min_value = min_value or 8
        new_v = max(min_value, int(v + 4) // 8 * 8)
        if new_v < 0.9 * v:
            new_v += 8
        return new_v
    @staticmethod
    def adjust_depth(num_layers: int, depth_mult: float):
        return int(math.ceil(num_layers * depth_mult))
@dataclass
class ModelConfig:
    stages: List[StageConfig] = field(default_factory=list)
    dropout: float = 0.2
    last_channel: Optional[int] = None
def build(width_mult=1.0, depth_mult=1.0):
    base = [(1, 3, 1, 32, 16, 1), (6, 3, 2, 16, 24, 2), (6, 5, 2, 24, 40, 2), (6, 3, 2, 40, 80, 3)]
    adj = StageConfig.adjust_channels
    stages = [StageConfig(e, k, s, adj(i, width_mult), adj(o, width_mult), StageConfig.adjust_depth(n, depth_mult))
              for e, k, s, i, o, n in base]
    return ModelConfig(stages, last_channel=adj(1280, width_mult))
for w, d in [(1.0, 1.0), (1.1, 1.2), (0.5, 0.8), (2.0, 3.1)]:
    cfg = build(w, d)
    print(w, d, [(s.input_channels, s.out_channels, s.num_layers) for s in cfg.stages], cfg.last_channel)
print(asdict(build().stages[0]), [f.name for f in fields(ModelConfig)])
