"""torch._higher_order_ops.associative_scan: the inclusive scan of `combine_fn` along `dim` over a
tensor or a tuple/list of tensors of one length along it. Code imports it behind a version check
and calls it only under torch.compile (transformers' mamba scans): here it is PyTorch's reference
scan (one slice at a time, dim dropped), unrolled over a length known at conversion time; its
result equals the parallel one's for an associative combine_fn, as PyTorch requires of it."""
import torch


def associative_scan(combine_fn, xs, dim, reverse=False, combine_mode="pointwise"):
    if combine_mode not in ("pointwise", "generic"):
        raise ValueError(f"Combine_mode must either 'pointwise' or 'generic', but got {combine_mode}")
    single = isinstance(xs, torch.Tensor)
    leaves = [xs] if single else list(xs)
    if not leaves or not all(isinstance(t, torch.Tensor) for t in leaves):
        raise ValueError("xs must be a tensor or a tuple/list of tensors")
    n = leaves[0].shape[dim]
    if not isinstance(n, int):
        from torch._onnxify_support import unsupported
        return unsupported("torch._higher_order_ops.associative_scan",
                           "a scan over a dim whose size is only known when the model runs")
    if any(t.shape[dim] != n for t in leaves):
        raise RuntimeError("All xs leaves must have the same size along the scan dim")
    order = range(n - 1, -1, -1) if reverse else range(n)
    steps = []
    for i in order:
        cur = [t.select(dim, i) for t in leaves]
        if steps:  # the scan so far on the left, reversed or not, as PyTorch's reference scan
            prev = steps[-1]
            out = combine_fn(prev[0] if single else type(xs)(prev), cur[0] if single else type(xs)(cur))
            cur = [out] if single else list(out)
        steps.append(cur)
    if reverse:
        steps.reverse()
    outs = [torch.stack([s[k] for s in steps], dim) for k in range(len(leaves))]
    return outs[0] if single else type(xs)(outs)
