"""regex (the PyPI package, a superset of re): its matcher is a compiled extension module onnxify
cannot run, and libraries import it at module level for ordinary patterns (transformers'
docstring tools: `import regex as re`). This is onnxify's re under regex's names; what only regex
has (fuzzy matching, set operations, \\p{...} classes) fails as an unsupported pattern does in re."""
from re import *  # noqa: F401,F403
from re import __all__ as _re_all
import re as _re

__all__ = list(_re_all) + ["V0", "VERSION0", "Regex"]
# VERSION0 is regex's re-compatible behaviour, the only one there is here.
V0 = VERSION0 = 0
Regex = _re.compile
error = _re.error
Pattern = _re.Pattern
Match = _re.Match
__version__ = "2024.11.6"
