"""`onnxify inspect`: the module tree with parameter shapes and counts, and what export needs."""
import torch


def _count(t):
    n = 1
    for d in t.shape:
        n *= d
    return n


def _type(t):
    return f"{str(t.dtype).replace('torch.', '')}[{', '.join(str(d) for d in t.shape)}]"


def _fmt(n):
    return f"{n:,}"


def _mib(nbytes):
    return f"{nbytes / (1 << 20):.1f} MiB"


def _unsupported(model):
    """(qualified name, class name) of every module onnxify has only a placeholder for."""
    return [(name, type(m).__name__) for name, m in model.named_modules()
            if getattr(type(m), "_onnxify_placeholder", False)]


def describe(model, module_name, expr, forward_params):
    lines = []
    params = list(model.named_parameters())
    buffers = list(model.named_buffers())
    state = model.state_dict(keep_vars=True)
    n_params = sum(_count(p) for _, p in params)
    p_bytes = sum(_count(p) * p.element_size() for _, p in params)
    n_buffers = sum(_count(b) for _, b in buffers)
    persistent = sum(1 for name, _ in buffers if name in state)
    lines.append(f"model: {type(model).__name__} (--model '{expr}' in {module_name})")
    lines.append(f"parameters: {_fmt(n_params)} in {len(params)} tensors ({_mib(p_bytes)}); "
                 f"buffers: {_fmt(n_buffers)} in {len(buffers)} tensors ({persistent} in the state_dict)")
    unsupported = _unsupported(model)
    if unsupported:
        # Placeholders build no parameters: say so, rather than print totals that look complete.
        named = ", ".join(f"{n or '(root)'} ({c})" for n, c in unsupported)
        lines.append(f"warning: {len(unsupported)} module{'s' if len(unsupported) > 1 else ''} onnxify cannot convert "
                     f"yet: {named}; export fails where forward calls them, and their parameters are not in the "
                     f"totals above")
    sig = ", ".join(forward_params)
    needed = [p for p in forward_params if "=" not in p and not p.startswith("*")]
    lines.append(f"forward({sig})")
    if needed:
        flags = " ".join(f"--input {p}=SPEC" for p in needed)
        lines.append(f"export with: {flags}   (SPEC: a tensor type like float32[N,3,224,224], or a literal)")
    lines.append("")

    def subtree_count(m):
        return sum(_count(p) for p in m.parameters())

    rows = []  # (text, count or "")

    def walk(name, m, depth):
        pad = "  " * depth
        extra = m.extra_repr()
        head = f"{type(m).__name__}({extra})" if extra else type(m).__name__
        if getattr(type(m), "_onnxify_placeholder", False):
            head += "  [not supported by onnxify]"
        total = subtree_count(m)
        rows.append((f"{pad}{name + ': ' if name else ''}{head}", _fmt(total) if total else ""))
        for pname, p in m._parameters.items():
            if p is not None:
                rows.append((f"{pad}    {pname} {_type(p)}", ""))
        for bname, b in m._buffers.items():
            if b is not None:
                kind = "buffer" if bname not in m._non_persistent_buffers_set else "buffer, not in state_dict"
                rows.append((f"{pad}    {bname} {_type(b)} ({kind})", ""))
        for cname, c in m._modules.items():
            if c is not None:
                walk(cname, c, depth + 1)

    walk("", model, 0)
    width = min(max(len(t) for t, _ in rows), 96)
    lines.append(f"{'module':<{width}}  {'parameters':>12}")
    for text, count in rows:
        lines.append(f"{text:<{width}}  {count:>12}".rstrip() if count else text)
    return "\n".join(lines) + "\n"
