"""torch.linalg, torch.fft and torch.unique as far as ONNX expresses them (issue 15): determinants,
inverses and solves (unrolled Gauss-Jordan), norms, discrete Fourier transforms (ONNX DFT) and
unique values (ONNX Unique). tests/torch/e2e/test_linalg_fft.py exports each and compares it with
PyTorch eager."""
import math

import torch
import torch.nn as nn


class Inverses(nn.Module):
    """Every spelling of the inverse, used the way a model would (a learned map and its inverse)."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, a):
        inv = torch.inverse(a)
        back = torch.linalg.inv(a) @ self.proj(a)
        return inv, back, a.inverse().sum(-1), torch.linalg.inv_ex(a)[0]


class Determinants(nn.Module):
    def forward(self, a):
        sign, logabs = torch.linalg.slogdet(a)
        return (torch.det(a), torch.linalg.det(a), a.det() * 2, sign, logabs, torch.logdet(a @ a.transpose(-1, -2)),
                torch.slogdet(a).logabsdet)


class Solves(nn.Module):
    """linalg.solve with a batch of vectors, a batch of matrices, and a right side that broadcasts."""

    def forward(self, a, b, m):
        x = torch.linalg.solve(a, b)
        y = torch.linalg.solve(a, m)
        z = torch.linalg.solve(a[0], m)
        return x, y, z, torch.linalg.solve_ex(a, b)[0]


class TriangularSolves(nn.Module):
    """linalg.solve_triangular of a size past cholesky's unrolling: lower and upper, unit diagonal
    (the gated delta rule's 64 x 64 solve), from the right, a right side broadcast over A's batch."""

    def forward(self, a, m):
        lower, upper = a.tril(), a.triu()
        return (torch.linalg.solve_triangular(lower, m, upper=False),
                torch.linalg.solve_triangular(upper, m, upper=True),
                torch.linalg.solve_triangular(lower, m, upper=False, unitriangular=True),
                torch.linalg.solve_triangular(upper, m.transpose(-2, -1), upper=True, left=False),
                torch.linalg.solve_triangular(lower, m[0], upper=False))


class ComplexRotary(nn.Module):
    """Rotary embeddings as LLaMA's reference code and transformers' llama4 / deepseek_v2 write them:
    torch.polar tables moved with .to(device) / .detach(), view_as_complex of the pairs, a product
    with the table reshaped (unsqueeze, None-indexing, view/transpose/expand), view_as_real back."""

    def __init__(self, dim=8, heads=2):
        super().__init__()
        self.heads = heads
        inv = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv, persistent=False)

    def forward(self, q):  # q: [B, S, H, D]
        t = torch.arange(q.shape[1], dtype=torch.float32)
        freqs = torch.outer(t, self.inv_freq)
        cis = torch.polar(torch.ones_like(freqs), freqs).detach().to(q.device)  # [S, D/2]
        cis = cis * 0.5
        cis = cis.unsqueeze(0).to(torch.complex64)  # [1, S, D/2]
        q_ = torch.view_as_complex(q.float().reshape(*q.shape[:-1], -1, 2))
        out = torch.view_as_real(q_ * cis[:, :, None, :]).flatten(3).type_as(q)
        rolled = cis.view(1, q.shape[1], -1).transpose(1, 2).expand(q.shape[0], -1, -1).clone()
        return out, torch.view_as_real(rolled.permute(0, 2, 1)), cis.squeeze(0).real, q_.numel()


class ComplexKernels(nn.Module):
    """Complex constants made in __init__ and complex values in forward through torch functions
    (__torch_function__ of torch.fft's complex tensors): a DCT-II basis computed from an FFT times a
    complex exponential of torch.tensor(1j), torch.exp / torch.mul / torch.cat / torch.stack of
    complex tensors, a real part kept as a buffer."""

    def __init__(self, n=6):
        super().__init__()
        eye = torch.eye(n)
        spectrum = torch.fft.fft(torch.cat([eye, eye.flip([1])], dim=-1), dim=-1)[:, :n]
        phase = torch.tensor(-1j, dtype=torch.complex64) * torch.pi * torch.arange(n)[None, :] / (2 * n)
        self.register_buffer("basis", torch.mul(spectrum, torch.exp(phase)).real.T.contiguous())
        # a complex buffer filled in place afterwards (transformers' init of llama4's rotary table)
        self.register_buffer("turns", torch.polar(torch.ones(n), torch.zeros(n)), persistent=False)
        self.turns.copy_(torch.polar(torch.ones(n), torch.arange(n) * 0.3))

    def forward(self, x):  # x: [B, n]
        z = torch.complex(x, x.flip(-1))
        z._seen = True  # attributes code stores on tensors (transformers' _is_hf_initialized)
        assert getattr(z, "_seen", False) and getattr(z, "_never_set", None) is None
        twisted = torch.exp(torch.mul(z, torch.tensor([0.5j], dtype=torch.complex64)))
        both = torch.cat([twisted, torch.add(x, z)], dim=-1)
        return (nn.functional.linear(x, self.basis), torch.view_as_real(both), torch.stack([z, z.conj()], 1).imag,
                torch.view_as_real(z * self.turns))


class Norms(nn.Module):
    def forward(self, x):
        return (
            torch.linalg.vector_norm(x),
            torch.linalg.vector_norm(x, ord=1, dim=-1),
            torch.linalg.vector_norm(x, ord=math.inf, dim=(1, 2), keepdim=True),
            torch.linalg.vector_norm(x, ord=-math.inf, dim=1),
            torch.linalg.vector_norm(x, ord=0, dim=2),
            torch.linalg.vector_norm(x, ord=3.0, dim=-1),
            torch.linalg.matrix_norm(x),
            torch.linalg.matrix_norm(x, ord=1),
            torch.linalg.matrix_norm(x, ord=-1, keepdim=True),
            torch.linalg.matrix_norm(x, ord=math.inf),
            torch.linalg.matrix_norm(x, ord=-math.inf, dim=(0, 2)),
            torch.linalg.norm(x),
            torch.linalg.norm(x, dim=1),
            torch.linalg.norm(x[0], ord="fro"),
            torch.linalg.norm(x[0, 0], ord=1),
            torch.linalg.norm(x, ord=math.inf, dim=(-2, -1)),
        )


class MatrixPowers(nn.Module):
    def forward(self, a):
        return (torch.linalg.matrix_power(a, 3), torch.linalg.matrix_power(a, 0), torch.linalg.matrix_power(a, -2),
                torch.linalg.multi_dot([a[0], a[1], a[0]]), torch.linalg.vecdot(a, a.flip(-1)),
                torch.linalg.cross(a, a.flip(-1)), torch.linalg.diagonal(a, offset=1), torch.linalg.matmul(a, a))


class Spectrum(nn.Module):
    """Spectral features of a signal: magnitudes, phases, a low-pass filter and the round trip."""

    def forward(self, x):
        spec = torch.fft.rfft(x, dim=-1)
        mag = spec.abs()
        phase = torch.fft.rfft(x, n=9, norm="ortho").angle()
        keep = (torch.arange(spec.shape[-1]) < 3).to(x.dtype)
        low = torch.fft.irfft(spec * keep, n=x.shape[-1])
        back = torch.fft.irfft(torch.fft.rfft(x, norm="forward"), n=x.shape[-1], norm="forward")
        odd = torch.fft.irfft(spec, n=7)
        return mag, phase, low, back, odd


class ComplexRoundTrip(nn.Module):
    """fft/ifft of a real signal and of a complex one, every norm mode, the parts and the pairs."""

    def forward(self, x):
        outs = []
        for norm in (None, "backward", "ortho", "forward"):
            z = torch.fft.fft(x, norm=norm)
            outs.append(torch.view_as_real(z))
            w = torch.fft.ifft(z * z.conj() + 1.0, norm=norm)
            outs += [w.real, w.imag]
        z = torch.fft.fft(x, n=10, dim=1)
        outs.append((z - z * 0.5).abs())
        outs.append(torch.fft.ifft(torch.view_as_complex(torch.stack([x, -x], -1)), dim=-2).real)
        return tuple(outs)


class FourierBlock(nn.Module):
    """A frequency-domain residual block: the real and imaginary parts of rfft2 go through a 1x1
    convolution as channels and are put back together with torch.complex (and torch.polar)."""

    def __init__(self):
        super().__init__()
        self.mix = nn.Conv2d(4, 4, 1)

    def forward(self, x):
        h, w = x.shape[-2:]
        y = torch.fft.rfft2(x, norm="ortho")
        y = self.mix(torch.cat([y.real, y.imag], 1))
        re, im = torch.chunk(y, 2, 1)
        z = torch.fft.irfft2(torch.complex(re, im), s=(h, w), norm="ortho")
        p = torch.polar(re.abs() + 1, im)
        return x + z, p.real, p.imag, torch.view_as_real(torch.complex(re, torch.zeros(1)))


class Spectra2d(nn.Module):
    """2-d transforms as a Fourier-layer would use them: rfft2, keep the low modes, irfft2."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(2, 3, 6, 5))

    def forward(self, x):
        f = torch.fft.rfft2(x)
        g = f * self.w[0] + f * self.w[1] * 0.5
        y = torch.fft.irfft2(g, s=(x.shape[-2], x.shape[-1]))
        z = torch.view_as_real(torch.fft.fft2(x, norm="ortho"))
        n = torch.fft.ifftn(torch.fft.fftn(x, dim=(1, 2)), dim=(1, 2)).real
        shifted = torch.fft.fftshift(torch.fft.fft2(x).abs(), dim=(-2, -1))
        back = torch.fft.ifftshift(shifted, dim=(-2, -1))
        round_trip = torch.fft.ifft2(torch.fft.fft2(x) * 0.5).real
        nd = torch.fft.irfftn(torch.fft.rfftn(x, dim=(2, 3), norm="ortho") * 2.0, s=(6, 8), dim=(2, 3), norm="ortho")
        return y, z, n, shifted, back, torch.fft.rfftfreq(8, d=0.5), torch.fft.fftfreq(5), round_trip, nd


class Uniques(nn.Module):
    """Unique labels with their inverse and counts, unique rows, and runs of equal values."""

    def forward(self, labels, x):
        u, inv, counts = torch.unique(labels, return_inverse=True, return_counts=True)
        rows, row_inv = torch.unique(labels, dim=0, return_inverse=True)
        values = x.unique()
        runs, run_of, lengths = torch.unique_consecutive(labels, return_inverse=True, return_counts=True)
        per_class = torch.zeros(u.shape[0]).index_add(0, inv.flatten(), torch.ones(inv.numel()))
        return u, inv, counts, rows, row_inv, values, runs, run_of, lengths, labels.unique_consecutive(), per_class


class Spectrogram(nn.Module):
    """A magnitude spectrogram (torch.stft with a Hann window) and the other window functions."""

    def __init__(self):
        super().__init__()
        self.register_buffer("window", torch.hann_window(12))

    def forward(self, x):
        spec = torch.stft(x, 16, hop_length=4, win_length=12, window=self.window, return_complex=True).abs()
        pairs = torch.stft(x, 8, return_complex=False, center=False, window=torch.hamming_window(8))
        mono = torch.stft(x[0], 8, hop_length=3, normalized=True, return_complex=True, pad_mode="constant").real
        windows = (torch.hann_window(5, periodic=False), torch.blackman_window(7), torch.bartlett_window(6),
                   torch.bartlett_window(5, periodic=False), torch.hamming_window(1))
        return (spec, pairs, mono) + windows
