"""export, inspect and parse: the command line's subcommands as functions.

Each function takes the arguments of its subcommand, runs the same C++ code in this process (with
the GIL released) and returns what the command prints, as Python data. Nothing here imports torch.
"""
from __future__ import annotations

import dataclasses
import os
import sys
from typing import Mapping, Optional, Sequence, Tuple, Union

from . import _core
from ._errors import Diagnostic, _bad_input, _check, _warn

__all__ = ["ExportResult", "export", "inspect", "parse", "release_modules", "resolve_source"]

PathLike = Union[str, "os.PathLike[str]"]
# An --input SPEC: a tensor type ("float32[N,3,224,224]"; names are symbolic sizes) or a Python
# literal, given as its text ("3") or as the value itself (3, True, None, (1, 2)).
InputSpec = Union[str, int, float, bool, None, tuple, list]


@dataclasses.dataclass(frozen=True)
class ExportResult:
    """What :func:`export` wrote: the file, its node count, its graph inputs and outputs in order,
    and the warnings (also issued through :mod:`warnings`)."""

    path: str
    nodes: int
    inputs: Tuple[str, ...]
    outputs: Tuple[str, ...]
    warnings: Tuple[Diagnostic, ...]
    # Whether the export started from the modules an earlier export in this process imported
    # (``cache=True``; see :func:`release_modules`).
    reused_modules: bool = False


def _is_module_name(s: str) -> bool:
    return bool(s) and all(part.isidentifier() for part in s.split("."))


def resolve_source(source: PathLike, paths: Sequence[PathLike] = ()) -> Tuple[str, Optional[str]]:
    """The model's source file and the import root it lies under, for ``source`` given as a file
    path or as an installed module's dotted name (``"torchvision.models.resnet"``).

    A name is looked up the way ``import`` finds it, without importing anything: in ``paths``, then
    in this Python's ``sys.path``, as ``a/b/c.py`` or ``a/b/c/__init__.py`` below a root. The root
    it was found under is returned too, so the export imports the file by its dotted name and runs
    its packages' ``__init__.py`` first (the CLI's ``--path``). A path that exists is a path.
    """
    text = os.fspath(source)
    if os.path.exists(text) or not _is_module_name(text):
        return text, None
    parts = text.split(".")
    roots = [os.fspath(p) for p in paths] + [p or os.getcwd() for p in sys.path]
    for root in roots:
        if not os.path.isdir(root):
            continue
        base = os.path.join(root, *parts)
        for candidate in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate, root
    raise _bad_input(f"cannot read '{text}': no such file, and no module of that name on the import path",
                     "give a path to the model's .py file, or the dotted name of a module this Python can import")


def _package_roots() -> list:
    """The folders of this Python's sys.path, in order (its standard library, site-packages, .pth
    and PYTHONPATH entries), without the current folder: what the CLI asks the user's interpreter
    for (--python), so a model's `import timm` resolves to what this Python imports. Searched after
    the source's own roots, with the same import-fault containment as every root."""
    return [d for d in sys.path if d and os.path.isdir(d)]


def _spec(value: InputSpec) -> str:
    return value if isinstance(value, str) else repr(value)


def _progress(progress: Optional[bool]) -> bool:
    if progress is not None:
        return bool(progress)
    stderr = sys.stderr
    try:
        return stderr is not None and stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _framework(framework: str) -> str:
    if framework not in ("auto", "torch", "keras", "tensorflow"):
        raise ValueError(f"framework={framework!r}: expected 'auto', 'torch', 'keras' or 'tensorflow'")
    return framework


def _layout(layout: str) -> str:
    if layout not in ("model", "channels-first", "channels-last"):
        raise ValueError(f"layout={layout!r}: expected 'model', 'channels-first' or 'channels-last'")
    return layout


def export(source: PathLike, model: str, inputs: Optional[Mapping[str, InputSpec]] = None, *,
           weights: Optional[PathLike] = None, weights_key: Optional[str] = None, dtype: Optional[str] = None,
           output: Optional[PathLike] = None, target: str = "onnxruntime", opset: int = 17,
           paths: Sequence[PathLike] = (), keep: Sequence[str] = (), decompose: Sequence[str] = (),
           trt_version: str = "10.15", max_unroll: int = 10000, emit_ir: Optional[PathLike] = None,
           dims: Optional[Mapping[str, Union[int, str]]] = None, progress: Optional[bool] = None,
           cache: bool = True, framework: str = "auto", layout: str = "model") -> ExportResult:
    """Converts a PyTorch model's source (and checkpoint) to an ONNX file, as ``onnxify export``.

    source:      the model's Python file, or an installed module's dotted name
                 (``"torchvision.models.resnet"``; see :func:`resolve_source`).
    model:       a Python expression giving the model, evaluated in the source's namespace
                 (``"resnet18()"``, ``"Net(width=64)"``).
    inputs:      forward()'s parameters by name: a tensor type such as ``"float32[N,3,224,224]"``
                 (identifiers are symbolic sizes, integers static) or a Python literal (``3``,
                 ``True``, ``None``, or its text). Parameters left out take their defaults.
    weights:     a checkpoint (``torch.save`` file, ``.safetensors``, a Keras weights file or a TensorFlow
                 checkpoint, as the CLI's ``--weights``); without one, deterministic
                 random weights (and an :class:`ExportWarning`). ``weights_key``: the dict inside it.
    dtype:       the CLI's ``--dtype``: ``model.to(dtype)`` before the weights are bound.
    output:      the ONNX file to write; default: the source file's name with ``.onnx`` (for a
                 module name, the name: ``torchvision.models.resnet.onnx``), in the current
                 directory, as the CLI names it.
    target, opset, keep, decompose, trt_version, max_unroll, emit_ir, paths: the CLI's
                 ``--target``, ``--opset``, ``--keep``, ``--decompose``, ``--trt-version``,
                 ``--max-unroll``, ``--emit-ir`` and ``--path``. Imports the model's code makes
                 resolve to this Python's installed packages too (the CLI's ``--python``).
    dims:        the CLI's ``--dim``: the least value of a symbolic dim, ``{"N": 1}`` or ``{"N": "1.."}``
                 (default: assumed at least 2 where a decision needs it, with a warning).
    progress:    a progress line on stderr for exports that take more than a second or two; default:
                 when stderr is a terminal.
    cache:       read and write the compiled-module cache (``$XDG_CACHE_HOME/onnxify``, else
                 ``~/.cache/onnxify``): imported modules' sources are compiled once per content and
                 onnxify build; ``False`` is the CLI's ``--no-cache``. And keep the modules the
                 source imports for the next export in this process: each export then builds and
                 records the model in a child process forked from them, so it sees them exactly as
                 a fresh import leaves them (nothing a model's code changes reaches the next
                 export); they are imported again when a file they were read from changes, or the
                 source, ``paths`` or this Python's ``sys.path`` do. :func:`release_modules` frees them.

    layout:      the CLI's ``--layout``: the file's 4-d and 5-d inputs and outputs ``"channels-first"``
                 or ``"channels-last"``; ``"model"`` (default) as the model's code takes them.
    framework:   the CLI's ``--framework``: ``"auto"`` (TensorFlow when the source imports it at top
                 level), ``"torch"``, ``"keras"`` or ``"tensorflow"``.

    The same arguments give the same bytes as the command line. Raises :class:`ConversionError`
    (every problem found, each with file, line and column) or :class:`BadInputError`; warnings go
    through :mod:`warnings`. Runs with the GIL released; with ``cache=False`` in this process,
    freeing everything it built before returning.
    """
    file, root = resolve_source(source, paths)
    roots = [os.fspath(p) for p in paths] + ([root] if root and root not in paths else [])
    if output is None and root is not None:
        output = os.fspath(source) + ".onnx"  # as `onnxify export -m MODULE` names it
    result = _check(_core.export_model(
        source=file, model=model, inputs=[(name, _spec(v)) for name, v in (inputs or {}).items()],
        weights=os.fspath(weights) if weights is not None else "", weights_key=weights_key or "", dtype=dtype or "",
        output=os.fspath(output) if output is not None else "", paths=roots, env_paths=_package_roots(),
        opset=int(opset), target=target,
        decompose=list(decompose), keep=list(keep), trt_version=trt_version, max_unroll=int(max_unroll),
        emit_ir=os.fspath(emit_ir) if emit_ir is not None else "",
        dims=[f"{name}={lo}" if str(lo).endswith("..") else f"{name}={lo}.." for name, lo in (dims or {}).items()],
        progress=_progress(progress), cache=bool(cache), framework=_framework(framework),
        layout=_layout(layout)))
    warned = _warn(result, stacklevel=2)
    return ExportResult(result["output"], result["nodes"], tuple(result["inputs"]), tuple(result["outputs"]), warned,
                        bool(result["reused_modules"]))


def release_modules() -> None:
    """Frees the modules :func:`export` keeps between calls (``cache=True``); the next export
    imports its source again."""
    _core.release_modules()


def inspect(source: PathLike, model: str, *, paths: Sequence[PathLike] = (), cache: bool = True) -> str:
    """The model's module tree with parameter shapes and counts, forward()'s signature and the
    inputs an export needs: the text ``onnxify inspect`` prints. ``source`` and ``model`` as for
    :func:`export` (``cache`` too: the model is built in a child of the modules :func:`export`
    keeps, and keeps them for it). Raises :class:`ConversionError` or :class:`BadInputError`."""
    file, root = resolve_source(source, paths)
    roots = [os.fspath(p) for p in paths] + ([root] if root and root not in paths else [])
    return _check(_core.inspect_model(source=file, model=model, paths=roots, env_paths=_package_roots(),
                                      cache=bool(cache)))["text"]


def parse(path: Optional[PathLike] = None, *, code: Optional[Union[str, bytes]] = None,
          filename: str = "<unknown>", positions: bool = False) -> str:
    """The AST of a Python file (``path``) or of source text (``code``, named ``filename`` in
    diagnostics), printed exactly as CPython 3.11's ``ast.dump(ast.parse(source))`` prints it
    (``positions=True``: ``include_attributes=True``); ``onnxify parse --dump``.

    A syntax error raises :class:`ConversionError` whose diagnostic carries CPython's message and
    position; an unreadable file raises :class:`BadInputError`."""
    if (path is None) == (code is None):
        raise TypeError("parse() takes a path or code=..., not both")
    return _check(_core.parse(path=os.fspath(path) if path is not None else None, text=code,
                              filename=filename, positions=positions))["dump"]
