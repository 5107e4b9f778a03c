#!/usr/bin/env python3
"""data/grammar_tour.py (every construct of Python 3.11's grammar) and the source-decoding cases
(BOM, coding declarations, CRLF, form feeds, no final newline, \\N{...} names, non-ASCII
identifiers): onnxify's dump with positions must equal CPython's ast.dump(..., include_attributes=True)."""
import ast
import os
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))

# Files whose bytes matter: written verbatim.
DECODING_CASES = {
    "bom.py": b"\xef\xbb\xbfx = '\xc3\xa9'\n",
    "latin1_cookie.py": b"# -*- coding: latin-1 -*-\nx = '\xe9'  # \xe9\n",
    "cookie_line2.py": b"#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-1 :\ny = '\xff'\n",
    "cp1252_cookie.py": b"# coding=cp1252\nx = '\x80\x93'\n",
    "utf8_cookie_bom.py": b"\xef\xbb\xbf# coding: utf-8\nx = 1\n",
    "crlf.py": b"x = '''a\r\nb'''\r\nif x:\r\n    y = 1 + \\\r\n        2\r\n",
    "lone_cr.py": b"x = 1\ry = '''a\rb'''\r",
    "no_final_newline.py": b"if x:\n    y = 1",
    "continuation_before_blank_line.py": b"x = 1\n\\\n\n",
    "form_feed.py": b"\x0cx = 1\nif x:\n\x0c    y = 2\n    z = 3\n",
    "tabs.py": b"if x:\n\ty = 1\n\tif y:\n\t\tz = 2\n",
    "identifiers.py": "\u00e9t\u00e9 = 1\n\ufb01 = \u00e9t\u00e9\nK\u0301 = 2\n\u212b = 3\n\u03c0 = 3.14\n".encode(),
    "names.py": b"s = '\\N{EM DASH}\\N{latin small letter a}\\N{NBSP}\\N{HANGUL SYLLABLE GAG}\\N{CJK UNIFIED IDEOGRAPH-4E00}'\n",
    "empty.py": b"",
    "only_comments.py": b"# a\n\n   # b\n",
    "type_comments.py": b"x = []  # type: List[int]\ndef f(a):  # type: (int) -> None\n    pass\n",
    "fstring_nested_lines.py": b'x = f"""{a!r:>{w}}\n{b=}\n{c:{d}.{e}}"""\n',
}


def dump_cpython(path):
    with open(path, "rb") as f:
        source = f.read()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.dump(ast.parse(source), include_attributes=True)


def main():
    onnxify = os.environ.get("ONNXIFY", "build/onnxify")
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(HERE, "data", "grammar_tour.py")]
        for name, data in DECODING_CASES.items():
            p = os.path.join(tmp, name)
            with open(p, "wb") as f:
                f.write(data)
            paths.append(p)
        for p in paths:
            r = subprocess.run([onnxify, "parse", p, "--dump", "--positions"], capture_output=True, text=True)
            expected = dump_cpython(p)
            if r.returncode != 0 or r.stdout.rstrip("\n") != expected:
                failures += 1
                print(f"FAIL {os.path.basename(p)}: status {r.returncode} {r.stderr}")
                ours = r.stdout
                i = next((k for k in range(min(len(ours), len(expected))) if ours[k] != expected[k]), 0)
                print(f"  onnxify ...{ours[max(0, i - 100):i + 100]}\n  CPython ...{expected[max(0, i - 100):i + 100]}")
    print(f"{len(paths)} files: {len(paths) - failures} identical to CPython (with positions), {failures} different")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
