# os.putenv/unsetenv change the environment of child processes, not os.environ (numpy 2.4 calls
# os.putenv while it is imported).
import os

os.putenv("ONNXIFY_TEST_PUTENV", "1")
print("ONNXIFY_TEST_PUTENV" in os.environ, os.getenv("ONNXIFY_TEST_PUTENV"))
os.unsetenv("ONNXIFY_TEST_PUTENV")
os.putenv(b"ONNXIFY_TEST_PUTENV_B", b"x")
for args in [("", "1"), ("A=B", "1"), (1, "1"), ("A", 2), ("A\0", "1"), ("A", "1\0"), (b"", b"")]:
    try:
        os.putenv(*args)
    except (TypeError, ValueError, OSError) as e:
        print(type(e).__name__, e)
for name in ["", "A=B", 3, "A\0", b"B="]:
    try:
        os.unsetenv(name)
    except (TypeError, ValueError, OSError) as e:
        print(type(e).__name__, e)
