# expect-error
class ConfigError(Exception):
    pass
def load(cfg):
    if "layers" not in cfg:
        raise ConfigError(f"missing key 'layers' in {sorted(cfg)}")
    return cfg["layers"]
print(load({"layers": 3}))
load({"width": 1, "depth": 2})
