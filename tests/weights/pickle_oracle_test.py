#!/usr/bin/env python3
"""Oracle test for the unpickler: CPython pickles values at every protocol 0-5; onnxify's
unpickler must read each back to a value whose repr() equals CPython's repr of pickle.loads.
Also checks the opcode table against pickletools.opcodes.

    weights_pickle_oracle: /usr/bin/python3 pickle_oracle_test.py PATH/TO/weights_pickle_tool"""
import collections
import os
import pickle
import pickletools
import subprocess
import sys
import tempfile

tool = sys.argv[1]
failures = []

# 1. The opcode table is CPython's, row for row.
ours = sorted(tuple(line.split()) for line in subprocess.run([tool, "opcodes"], capture_output=True,
                                                              text=True, check=True).stdout.splitlines())
theirs = sorted((op.name, str(ord(op.code.encode("latin-1"))), str(op.proto)) for op in pickletools.opcodes)
if ours != theirs:
    failures.append("opcode table")
    print("FAIL opcode table differs:", set(ours) ^ set(theirs))
else:
    print(f"ok   opcode table: {len(ours)} opcodes")


def values():
    shared = [1, "two"]
    cyc = []
    cyc.append(cyc)
    dcyc = {}
    dcyc["me"] = dcyc
    nested = current = []
    for _ in range(60):
        current.append([])
        current = current[0]
    return [
        None, True, False, 0, 1, -1, 255, 256, 65535, 65536, 2**31 - 1, -2**31, 2**31, 2**63 - 1, -2**63,
        2**64, -2**64 - 1, 10**30, -(10**30), 2**2000,
        0.0, -0.0, 1.5, 1e16, 1e15, 1e-5, 1e-4, 0.1, 1 / 3, float("inf"), float("-inf"), float("nan"), 1e300,
        5e-324, 123456789.125, -2.5e-10,
        "", "abc", "quote's", 'dq"', "both ' \"", "tab\tnl\n\\ cr\r", "héllo", "中文", "\x00\x7f\x80\xa0",
        "\U0001f600", "\ud800", "x" * 300,
        b"", b"\x00\xff'\"", bytes(range(256)), bytearray(b"ab"), b"y" * 300,
        (), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4), [], [1, [2, [3]]], list(range(2500)),
        {}, {"a": 1, "b": [1, 2]}, {1: "x", (1, 2): None, None: 0, 1.5: 2, "k": {"n": ()}},
        {i: str(i) for i in range(1500)}, {1: "a", 1.0: "b", True: "c"},
        collections.OrderedDict(), collections.OrderedDict([("a", 1), ("b", (2,))]),
        set(), {7}, frozenset(), frozenset({"a"}),
        [shared, shared, (shared,)], cyc, dcyc, [cyc, (cyc,)], nested,
    ]


with tempfile.TemporaryDirectory() as tmp:
    cases = []
    for i, v in enumerate(values()):
        for proto in range(0, pickle.HIGHEST_PROTOCOL + 1):
            path = os.path.join(tmp, f"{i}-p{proto}.pkl")
            data = pickle.dumps(v, protocol=proto)
            with open(path, "wb") as f:
                f.write(data)
            cases.append((path, repr(pickle.loads(data)), v, proto))
    out = subprocess.run([tool, "repr"] + [c[0] for c in cases], capture_output=True, text=True, check=True)
    lines = out.stdout.split("\n")[:-1]
    assert len(lines) == len(cases), (len(lines), len(cases))
    for (path, want, v, proto), got in zip(cases, lines):
        if got != want:
            failures.append(f"{os.path.basename(path)}")
            print(f"FAIL protocol {proto} {want[:80]!r}:\n  got  {got[:200]!r}")
    print(f"ok   {len(cases) - len([f for f in failures if f.endswith('.pkl')])} of {len(cases)} value pickles")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("all unpickler oracle checks passed")
