"""pytest plumbing: each test module declares CASES (harness.Case); all of a module's cases are
built, exported and run in ONNX Runtime in one batch, then each test checks its own case."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
