#!/usr/bin/env python3
"""Differential test: onnxify's parser against CPython 3.11 on generated programs.

Seeds are the top-level statements of data/grammar_tour.py (every construct of the grammar) and
the snippets of data/syntax_errors.txt. Each case is a seed changed by one to three random token
edits (delete, duplicate, swap, insert or replace with tokens of Python's vocabulary, including
indentation, line breaks, quotes, backslashes and non-ASCII characters), so most cases probe the
edge between valid and invalid code. For every case:
  - CPython accepts  => onnxify accepts, and its dump with positions equals CPython's (positions
                        inside f-string replacement fields excepted, as in corpus_test.py);
  - CPython rejects  => onnxify rejects.
It also reports how often the error message equals CPython's (information, not a failure).

Environment: ONNXIFY (binary), ONNXIFY_DIFF_CASES (default 3000), ONNXIFY_DIFF_SEED (default 1),
ONNXIFY_DIFF_CORPUS=1 to add top-level statements of 300 standard-library files to the seeds.
"""
import ast
import os
import random
import re
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ATTRS = ("lineno", "col_offset", "end_lineno", "end_col_offset")

VOCAB = (
    "False None True and as assert async await break class continue def del elif else except "
    "finally for from global if import in is lambda nonlocal not or pass raise return try while "
    "with yield match case _ print self x y f"
).split() + [
    "(", ")", "[", "]", "{", "}", ":", ",", ";", ".", "...", "->", "+", "-", "*", "/", "|", "&", "<",
    ">", "=", "%", "~", "^", "@", "==", "!=", "<=", ">=", "<<", ">>", "**", "//", ":=", "+=", "**=",
    "!", "$", "?", "`", "\\", "\\\n", "\n", "\n    ", "\n\t", "    ", "\t", "\f", "\r\n", "#", "# c\n",
    "0", "1", "0x1f", "0o7", "0b1", "1.5", "1e5", "2j", "1_000", "09", "1__0", "0x", "1e",
    "'", '"', "'''", '"""', "'s'", '"s"', "b'b'", "r'\\d'", "f'{x}'", "f'{'", "f'}'", "u'u'", "rb'x'",
    "'\\x4'", "'\\N{BULLET}'", "'\\777'", "é", "π", "€", "\u00a0", "ﬁ", "\ufeff",
]
TOKEN = re.compile(r"""(?x)
    [rRbBuUfF]{0,2}('''|\"\"\"|'|")  # a string start (the rest of the string follows as tokens)
  | \d[\w.]*                        # numbers
  | \w+                             # names
  | \*\*=|//=|>>=|<<=|\.\.\.|:=|->|[-+*/%&|^@<>=!]=|\*\*|//|<<|>>
  | \n[ \t]*                        # a line break with the next line's indentation
  | [ \t\f]+
  | .
""", re.S)


def seeds():
    out = []
    tour = open(os.path.join(HERE, "data", "grammar_tour.py"), encoding="utf-8").read()
    tree = ast.parse(tour)
    for node in tree.body:
        seg = ast.get_source_segment(tour, node)
        if seg:
            out.append(seg + "\n")
    if os.environ.get("ONNXIFY_DIFF_CORPUS"):
        files = []
        for d, dirs, names in os.walk("/usr/lib/python3.11"):
            dirs.sort()
            files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".py")]
        for path in random.Random(0).sample(files, 300):
            text = open(path, encoding="utf-8", errors="replace").read()
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            for node in tree.body:
                seg = ast.get_source_segment(text, node)
                if seg and len(seg) < 3000:
                    out.append(seg + "\n")
    errors = open(os.path.join(HERE, "data", "syntax_errors.txt"), encoding="utf-8").read()
    for block in errors.split("\n### ")[1:]:
        source = block.split("\n", 1)[1].split("\n--- expected\n")[0]
        out.append(source + "\n")
    return out


def mutate(rng, source):
    toks = [m.group(0) for m in TOKEN.finditer(source)]
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(5)
        i = rng.randrange(len(toks) + 1) if toks else 0
        if op == 0 and toks:
            del toks[min(i, len(toks) - 1)]
        elif op == 1 and toks:
            j = min(i, len(toks) - 1)
            toks.insert(j, toks[j])
        elif op == 2 and len(toks) > 1:
            j = min(i, len(toks) - 2)
            toks[j], toks[j + 1] = toks[j + 1], toks[j]
        elif op == 3:
            toks.insert(i, rng.choice(VOCAB) + rng.choice(["", " "]))
        elif toks:
            toks[min(i, len(toks) - 1)] = rng.choice(VOCAB)
    return "".join(toks)


def cpython(source):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source.encode("utf-8", "surrogatepass"))
    except SyntaxError as e:
        return ("error", e.msg)
    except (ValueError, MemoryError, RecursionError) as e:
        return ("skip", str(e))
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue):
            for inner in ast.walk(node.value):
                for a in ATTRS:
                    try:
                        delattr(inner, a)
                    except AttributeError:
                        pass
    try:
        return ("ok", ast.dump(tree, include_attributes=True))
    except (ValueError, RecursionError) as e:  # e.g. a huge int CPython cannot print
        return ("skip", str(e))


def main():
    onnxify = os.environ.get("ONNXIFY", "build/onnxify")
    count = int(os.environ.get("ONNXIFY_DIFF_CASES", "3000"))
    rng = random.Random(int(os.environ.get("ONNXIFY_DIFF_SEED", "1")))
    base = seeds()
    cases = [mutate(rng, rng.choice(base)) for _ in range(count)]
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, c in enumerate(cases):
            p = os.path.join(tmp, f"case{i}.py")
            with open(p, "wb") as f:
                f.write(c.encode("utf-8", "surrogatepass"))
            paths.append(p)
        lst = os.path.join(tmp, "list.txt")
        with open(lst, "w") as f:
            f.write("\n".join(paths) + "\n")
        run = subprocess.run([onnxify, "parse", "--files-from", lst, "--dump", "--positions",
                              "--skip-fstring-field-positions"], capture_output=True, text=True,
                             errors="surrogateescape")
    ours = run.stdout.split("\n")
    stats = {"ok": 0, "error": 0, "skip": 0}
    same_message = 0
    failures = []
    for i, case in enumerate(cases):
        kind, expected = cpython(case)
        stats[kind] += 1
        mine = ours[i] if i < len(ours) else "<no output>"
        if kind == "ok" and mine != expected:
            failures.append((case, "CPython accepts; onnxify " +
                             ("rejects: " + mine if mine.startswith("error:") else "differs:\n  " +
                              diff(mine, expected))))
        elif kind == "error":
            if not mine.startswith("error:"):
                failures.append((case, f"CPython rejects ({expected}); onnxify accepts"))
            elif mine.split(": error: ", 1)[-1] == expected:
                same_message += 1
    for case, why in failures[:25]:
        print(f"FAIL {case!r}\n  {why}")
    print(f"{count} generated cases: CPython accepted {stats['ok']}, rejected {stats['error']}, "
          f"skipped {stats['skip']}; {len(failures)} disagreements; onnxify's message equals "
          f"CPython's for {same_message} of {stats['error']} rejections")
    return 1 if failures else 0


def diff(a, b):
    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    return f"onnxify ...{a[max(0, i - 80):i + 80]}\n  CPython ...{b[max(0, i - 80):i + 80]}"


if __name__ == "__main__":
    sys.exit(main())
