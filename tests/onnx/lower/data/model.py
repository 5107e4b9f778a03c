# Source lines the lowering goldens point their nodes at (loc(...) in the IR files), so the
# diagnostics quote real Python.
class Block(nn.Module):
    def forward(self, x, mask):
        y = self.norm(x)
        y = F.gelu(y)
        y = F.hardswish(y) + F.silu(y)
        y = self.gn(y)
        p, idx = F.max_pool2d(y, 2, 2, return_indices=True)
        u = F.max_unpool2d(p, idx, 2, 2, output_size=y.shape[2:])
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        z = F.interpolate(u, scale_factor=2, mode="bicubic")
        c = F.one_hot(labels)
        s = x.scatter_add(1, idx, src)
        return u, a, z, c, s
