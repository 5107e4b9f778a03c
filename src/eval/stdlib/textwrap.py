"""Text wrapping (onnxify's stdlib subset)."""
__all__ = ["wrap", "fill", "dedent", "indent", "shorten"]


def dedent(text):
    lines = text.split("\n")
    margin = None
    for line in lines:
        stripped = line.lstrip(" \t")
        if not stripped:
            continue
        indent = line[:len(line) - len(stripped)]
        if margin is None:
            margin = indent
        elif indent.startswith(margin):
            pass
        elif margin.startswith(indent):
            margin = indent
        else:
            common = ""
            for a, b in zip(margin, indent):
                if a != b:
                    break
                common += a
            margin = common
    out = []
    for line in lines:
        if not line.strip(" \t"):
            out.append(line.lstrip(" \t") if line.strip() == "" else line)
        elif margin:
            out.append(line[len(margin):])
        else:
            out.append(line)
    return "\n".join("" if not l.strip(" \t") else l for l in out)


def indent(text, prefix, predicate=None):
    if predicate is None:
        def predicate(line):
            return line.strip()
    return "".join(prefix + line if predicate(line) else line for line in text.splitlines(True))


def wrap(text, width=70, **kwargs):
    words = text.split()
    lines = []
    cur = ""
    for w in words:
        if not cur:
            cur = w
        elif len(cur) + 1 + len(w) <= width:
            cur += " " + w
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return lines


def fill(text, width=70, **kwargs):
    return "\n".join(wrap(text, width, **kwargs))


def shorten(text, width, **kwargs):
    placeholder = kwargs.get("placeholder", " [...]")
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    words = text.split()
    out = ""
    for w in words:
        cand = (out + " " + w) if out else w
        if len(cand) + len(placeholder) > width:
            break
        out = cand
    return out + placeholder
