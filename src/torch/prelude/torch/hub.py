"""torch.hub: downloading is not possible during conversion (weights come from --weights)."""


def _no_download(what):
    raise RuntimeError(f"{what}: onnxify cannot download anything; pass the checkpoint with --weights FILE")


def load_state_dict_from_url(url, model_dir=None, map_location=None, progress=True, check_hash=False, file_name=None):
    _no_download(f"torch.hub.load_state_dict_from_url('{url}')")


def download_url_to_file(url, dst, hash_prefix=None, progress=True):
    _no_download(f"torch.hub.download_url_to_file('{url}')")


def load(repo_or_dir, model, *args, **kwargs):
    _no_download(f"torch.hub.load('{repo_or_dir}', '{model}')")


def get_dir():
    return "<torch.hub dir>"


def set_dir(d):
    pass


def _get_torch_home():
    return "<torch home>"


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.hub", name)
