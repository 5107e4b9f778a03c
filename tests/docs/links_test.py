"""The repository explains itself: no link in README.md or docs/ points outside it.

Checked in every Markdown file at the top level and under docs/: each link or image target
([text](target), <target>, [ref]: target) and each file path written in backticks that starts with
"../" must be a file or folder inside the repository that exists; web addresses (http, https,
ftp, mailto) are outside by definition. Code blocks are skipped (commands there are not links), but
a path in them that climbs out of the repository ("../") is still refused.
Run: .venv/bin/python tests/docs/links_test.py (exit 0 when every link is inside).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
BARE_URL = re.compile(r"\b(?:https?|ftp)://\S+")
CODE_PATH = re.compile(r"`(\.\./[^`\s]*)`")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)


def markdown_files():
    out = [os.path.join(ROOT, f) for f in sorted(os.listdir(ROOT)) if f.endswith(".md")]
    for folder, _, files in os.walk(os.path.join(ROOT, "docs")):
        out += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".md")]
    return out


def problems(path):
    text = open(path, encoding="utf-8").read()
    rel = os.path.relpath(path, ROOT)
    found = []
    for block in FENCE.finditer(text):
        for line in block.group(0).splitlines():
            if "../" in line:
                found.append(f"{rel}: a code block climbs out of the repository: {line.strip()}")
    prose = FENCE.sub("", text)
    targets = LINK.findall(prose) + REF.findall(prose)
    bare = AUTOLINK.sub("", LINK.sub("", REF.sub("", prose)))
    for url in AUTOLINK.findall(prose) + BARE_URL.findall(bare):
        found.append(f"{rel}: '{url}' is a web address, outside the repository")
    for target in targets:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            found.append(f"{rel}: '{target}' is a web address, outside the repository")
            continue
        if target.startswith("#"):
            continue
        file = target.split("#")[0]
        resolved = os.path.normpath(os.path.join(ROOT if file.startswith("/") else os.path.dirname(path),
                                                 file.lstrip("/")))
        if not (resolved + os.sep).startswith(ROOT + os.sep) and resolved != ROOT:
            found.append(f"{rel}: '{target}' points outside the repository")
        elif not os.path.exists(resolved):
            found.append(f"{rel}: '{target}' does not exist")
    for target in CODE_PATH.findall(prose):
        resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
        if not resolved.startswith(ROOT + os.sep):
            found.append(f"{rel}: `{target}` points outside the repository")
    return found


def test_links_stay_inside():
    files = markdown_files()
    assert any(f.endswith("README.md") for f in files)
    found = [p for f in files for p in problems(f)]
    assert not found, "\n".join(found)


def test_checker_catches_outside_links(tmp_path):
    # The checker itself: each kind of outside link in a throwaway file is reported.
    doc = tmp_path / "x.md"
    doc.write_text("see [design](../shared/DESIGN.md), [web](https://example.org), `../shared/DESIGN.md`,\n"
                   "[gone](no_such_file.md)\n```\ncd ../elsewhere\n```\n")
    global ROOT
    saved, ROOT = ROOT, str(tmp_path)
    try:
        found = problems(str(doc))
    finally:
        ROOT = saved
    assert len(found) == 5, found


if __name__ == "__main__":
    bad = [p for f in markdown_files() for p in problems(f)]
    print("\n".join(bad) or f"{len(markdown_files())} files: every link stays inside the repository")
    sys.exit(1 if bad else 0)
