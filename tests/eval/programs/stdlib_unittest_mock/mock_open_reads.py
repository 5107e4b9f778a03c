from unittest.mock import mock_open, MagicMock, call

opener = mock_open(read_data="line one\nline two\nlast")
with opener("weights.txt") as f:
    print(repr(f.read()))
    print(repr(f.read()))
with opener("weights.txt") as f:
    print(repr(f.readline()), repr(f.readline()), repr(f.readline()), repr(f.readline()))
with opener("weights.txt") as f:
    print(f.readlines())
with opener("weights.txt") as f:
    print([line for line in f])
f = opener("again")
print(next(f), repr(f.read(3)), repr(f.read()))
print(opener.call_count, opener.call_args, opener.mock_calls[:3])
handle = opener.return_value
print(handle is f, handle.write("x"), handle.write.call_args)
try:
    handle.nonexistent
except AttributeError as e:
    print("AttributeError:", e)
empty = mock_open()
print(repr(empty().read()), empty().readlines(), list(empty()))
raw = mock_open(read_data=b"\x00\x01bytes\nmore")
print(raw().read(), raw().readline())
custom = mock_open(read_data="abc")
custom.return_value.read.return_value = "overridden"
print(custom().read())
existing = MagicMock()
same = mock_open(existing, read_data="z")
print(same is existing, existing().read())
