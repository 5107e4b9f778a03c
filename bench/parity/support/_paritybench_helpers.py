"""The names ParityBench's generated files import from `_paritybench_helpers`, written for this
harness (plain Python, so both CPython and onnxify's evaluator can run it; onnxify gets this folder
as a --path root). Only what building and calling a module needs: configs, the stand-in layer, and
no-op test scaffolding (the harness never runs the files' unittest classes)."""
import torch
import torch.nn


class _mock_config(dict):
    """A config object: attribute reads are key reads (`cfg.hidden` is cfg['hidden'])."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name)


class DummyBlock(torch.nn.ReLU):
    """What a constructor argument that is 'some layer' becomes when no sizes are known."""
    expansion = 1


def _mock_layer(in_features=None, out_features=None, *args, **kwargs):
    """A layer factory argument: a Linear when both sizes are given, else a ReLU-like block."""
    if in_features and out_features:
        return torch.nn.Linear(in_features, out_features, **kwargs)
    return DummyBlock()


def patch_functional():
    """Some projects import torch.functional as F and call torch.nn.functional's functions on it
    (or the reverse); give each module the other's lower-case public names."""
    a = torch.functional
    b = torch.nn.functional
    try:
        names_a = [n for n in dir(a) if n[:1].islower()]
        names_b = [n for n in dir(b) if n[:1].islower()]
    except Exception:
        return
    for n in names_a:
        if not hasattr(b, n):
            try:
                setattr(b, n, getattr(a, n))
            except Exception:
                pass
    for n in names_b:
        if not hasattr(a, n):
            try:
                setattr(a, n, getattr(b, n))
            except Exception:
                pass


class _paritybench_base:
    """The files' unittest classes derive from this; the harness calls TESTCASES directly."""


def _fails_compile():
    return lambda f: f
