"""An "installed package" for test_imports.py: its top-level code asks the platform (which onnxify
cannot know), as real packages probe their native backends at import time."""
import platform

if platform.system() == "Linux":
    BACKEND = "posix"
else:
    BACKEND = "other"


def double(x):
    return x * 2
