"""An "installed package" for test_imports.py: its top-level code asks how many CPUs the machine has
(which onnxify does not tell evaluated code), as real packages size thread pools at import time."""
import os

if os.cpu_count() > 1:
    BACKEND = "threads"
else:
    BACKEND = "serial"


def double(x):
    return x * 2
