"""Diagnostics, exceptions and warnings of the onnxify package.

Every problem onnxify finds is a :class:`Diagnostic`: the same record the command line prints in
its one format (``file:line:col: error: message``, the source line, a caret, notes, help). A call
that fails raises :class:`ConversionError` (the CLI's exit status 1: the model could not be
converted) or :class:`BadInputError` (exit status 2: a bad argument or an unreadable file), each
carrying every diagnostic of the run. Warnings of a successful export go through :mod:`warnings`
as :class:`ExportWarning`.
"""
from __future__ import annotations

import dataclasses
import warnings
from typing import Any, Iterable, Optional, Tuple

__all__ = ["Diagnostic", "OnnxifyError", "ConversionError", "BadInputError", "ExportWarning"]


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One error, warning or note, with where it points.

    ``line`` and ``column`` are 1-based and the column counts characters, as in the header
    ``file:line:column: error: message``; ``end_line``/``end_column`` close the range (exclusive).
    They are ``None`` when the diagnostic has no source location (``file`` may still name a file,
    e.g. a checkpoint). ``text`` is the whole diagnostic as the command line prints it.
    """

    severity: str  # "error", "warning" or "note"
    message: str
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    end_line: Optional[int]
    end_column: Optional[int]
    notes: Tuple["Diagnostic", ...]
    help: Optional[str]
    text: str

    @classmethod
    def _from_core(cls, d: dict) -> "Diagnostic":
        fields = dict(d)
        fields["notes"] = tuple(cls._from_core(n) for n in d["notes"])
        return cls(**fields)

    def __str__(self) -> str:
        return self.text.rstrip("\n")


class OnnxifyError(Exception):
    """Base class of onnxify's errors; ``diagnostics`` holds every problem found."""

    exit_status = 1

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics: Tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__("".join(d.text for d in self.diagnostics).rstrip("\n"))


class ConversionError(OnnxifyError):
    """The model could not be converted (the CLI's exit status 1): an unsupported construct, a
    Python exception in the model's code, a checkpoint that does not fit the model, ... One run
    reports every problem it found, each a :class:`Diagnostic` in ``diagnostics``."""

    exit_status = 1


class BadInputError(OnnxifyError, ValueError):
    """A bad argument or unreadable input (the CLI's exit status 2): a missing file, a malformed
    input spec, an unknown target, a checkpoint that cannot be read."""

    exit_status = 2


class ExportWarning(UserWarning):
    """A warning about a written file (random weights, hooks that never run, ...); ``diagnostic``
    is the full record."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic
        super().__init__(str(diagnostic))


def _check(result: dict[str, Any]) -> dict[str, Any]:
    """Raises the exception a core result's failure code stands for; returns the result otherwise."""
    failure = result["failure"]
    if failure == 0:
        return result
    diagnostics = [Diagnostic._from_core(d) for d in result["diagnostics"]]
    raise (BadInputError if failure == BadInputError.exit_status else ConversionError)(diagnostics)


def _warn(result: dict[str, Any], stacklevel: int) -> Tuple[Diagnostic, ...]:
    out = tuple(Diagnostic._from_core(d) for d in result.get("warnings", ()))
    for d in out:
        warnings.warn(ExportWarning(d), stacklevel=stacklevel + 1)
    return out


def _bad_input(message: str, help: Optional[str] = None) -> BadInputError:
    """A BadInputError found on the Python side (before the core runs), in the same format."""
    text = f"onnxify: error: {message}\n" + (f"help: {help}\n" if help else "")
    return BadInputError([Diagnostic("error", message, None, None, None, None, None, (), help, text)])
