"""torch.distributions for models that use distributions in eval: Normal, Categorical, OneHotCategorical,
Bernoulli, Uniform, Independent and kl_divergence between two of a kind (Normal, Categorical, Bernoulli,
Independent), with PyTorch 2.14's formulas for mean, mode,
stddev, variance, log_prob, entropy, cdf, icdf (Normal) and probs / logits.

Decided for onnxify: sample() and rsample() in forward are a clear error. A random draw cannot match
PyTorch's generator, so an exported sampler could never be checked against eager; a policy or VAE head
exports its distribution's parameters (loc/scale, probs/logits) or its mean / mode, and samples outside
the model. While the model is built (`nn.Parameter(Exponential(rate).sample(shape))`) a draw is a
random placeholder of the sample's shape, like torch.rand's: the checkpoint gives the parameter. Argument validation (validate_args, on by default in PyTorch) needs the values and is not done;
the formulas are exact on valid arguments."""
import math
import numbers

import torch
import torch.nn.functional as F
from torch.nn._functional_loss import _broadcast_tensors

__all__ = ["Distribution", "ExponentialFamily", "Exponential", "Normal", "Categorical", "OneHotCategorical", "Bernoulli", "Uniform",
           "Independent", "kl_divergence", "register_kl", "constraints"]


def _as_tensor(v, like=None):
    if isinstance(v, torch.Tensor):
        return v
    dtype = like.dtype if isinstance(like, torch.Tensor) else torch.get_default_dtype()
    return torch.tensor(float(v), dtype=dtype)


def broadcast_all(*values):
    like = next((v for v in values if isinstance(v, torch.Tensor)), None)
    tensors = [_as_tensor(v, like) for v in values]
    return _broadcast_tensors(*tensors)


def _clamp_probs(probs):
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def _sum_rightmost(value, dim):
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:-dim]) + (-1,)).sum(-1)


from torch.distributions import constraints  # noqa: E402  the module (pyro reads and subclasses it)


class Distribution:
    has_rsample = False
    has_enumerate_support = False
    _validate_args = False
    arg_constraints = {}
    support = None

    @staticmethod
    def set_default_validate_args(value):
        pass

    def __init__(self, batch_shape=torch.Size(), event_shape=torch.Size(), validate_args=None):
        self._batch_shape = torch.Size(batch_shape)
        self._event_shape = torch.Size(event_shape)

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    def _unsupported(self, what):
        from torch._onnxify_support import unsupported
        return unsupported(f"torch.distributions.{type(self).__name__}.{what}",
                           "onnxify draws from Normal, MultivariateNormal, Uniform, Exponential, Bernoulli, "
                           "Categorical, OneHotCategorical, Independent and TransformedDistribution; export this "
                           "distribution's parameters (or its mean / mode) and sample outside the model")

    def _extended_shape(self, sample_shape=torch.Size()):
        return torch.Size(sample_shape) + self._batch_shape + self._event_shape

    # sample()/rsample(): while the model is built a random placeholder (the checkpoint gives what it
    # becomes); in forward the distribution's own sampler (_sample, as PyTorch draws it: recorded as
    # ONNX random ops that draw anew on every run), else a clear error.
    def _draw(self, what, sample_shape):
        if torch._C._building():
            return torch.rand(self._extended_shape(sample_shape))
        if type(self)._sample is Distribution._sample:
            return self._unsupported(what)
        return self._sample(torch.Size(sample_shape))

    def _sample(self, sample_shape):
        raise NotImplementedError

    def sample(self, sample_shape=torch.Size()):
        return self._draw("sample", sample_shape)

    def rsample(self, sample_shape=torch.Size()):
        return self._draw("rsample", sample_shape)

    def sample_n(self, n):
        return self._draw("sample_n", (n,))

    @property
    def stddev(self):
        return self.variance.sqrt()

    def perplexity(self):
        return torch.exp(self.entropy())

    def __repr__(self):
        return type(self).__name__ + "()"


class ExponentialFamily(Distribution):
    pass


class Normal(ExponentialFamily):
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.size(), torch.Size(), validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def log_prob(self, value):
        var = self.scale ** 2
        log_scale = math.log(self.scale) if isinstance(self.scale, numbers.Real) else self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        return 0.5 * (1 + torch.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value):
        return self.loc + self.scale * torch.erfinv(2 * value - 1) * math.sqrt(2)

    def _sample(self, sample_shape):
        shape = self._extended_shape(sample_shape)
        eps = torch.randn(shape, dtype=self.loc.dtype)
        return self.loc.expand(shape) + eps * self.scale.expand(shape)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(self.scale)


class MultivariateNormal(Distribution):
    """A Gaussian with a full covariance, by its lower Cholesky factor L (given as scale_tril, or
    factored from covariance_matrix or precision_matrix with torch.linalg.cholesky, which onnxify
    unrolls over a static event size): log_prob solves L y = x - loc by substitution."""
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        given = [m for m in (covariance_matrix, precision_matrix, scale_tril) if m is not None]
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if scale_tril is not None:
            L = scale_tril
        elif covariance_matrix is not None:
            L = torch.linalg.cholesky(covariance_matrix)
        else:
            L = torch.linalg.cholesky(torch.linalg.inv(precision_matrix))
        batch_shape = torch.broadcast_shapes(L.shape[:-2], loc.shape[:-1])
        event_shape = loc.shape[-1:]
        self.loc = loc.expand(batch_shape + event_shape)
        self._unbroadcasted_scale_tril = L
        super().__init__(batch_shape, event_shape, validate_args)

    @property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape + self._event_shape)

    @property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return torch.matmul(L, L.transpose(-2, -1)).expand(self._batch_shape + self._event_shape + self._event_shape)

    @property
    def precision_matrix(self):
        return torch.linalg.inv(self.covariance_matrix)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    @property
    def stddev(self):
        return self.variance.sqrt()

    def _sample(self, sample_shape):
        shape = self._extended_shape(sample_shape)
        eps = torch.randn(shape, dtype=self.loc.dtype)
        return self.loc + torch.matmul(self._unbroadcasted_scale_tril, eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        diff = value - self.loc
        y = torch.linalg.solve_triangular(self._unbroadcasted_scale_tril, diff.unsqueeze(-1), upper=False)
        maha = y.squeeze(-1).pow(2).sum(-1)
        k = self._event_shape[0]
        return -0.5 * (k * math.log(2 * math.pi) + maha) - self._half_log_det()

    def entropy(self):
        k = self._event_shape[0]
        h = 0.5 * k * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return h.expand(self._batch_shape) if len(self._batch_shape) else h


class Categorical(Distribution):
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
            self.logits = torch.log(_clamp_probs(self.probs))
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            self.probs = F.softmax(self.logits, dim=-1)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        super().__init__(self._param.size()[:-1], torch.Size(), validate_args)

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mean(self):
        return torch.full(tuple(self.probs.shape[:-1]), float("nan"), dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return torch.full(tuple(self.probs.shape[:-1]), float("nan"), dtype=self.probs.dtype)

    def _sample(self, sample_shape):
        # PyTorch's draw: n samples with replacement per row of the flattened batch, transposed.
        n = 1
        for d in sample_shape:
            n = n * d
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples = torch.multinomial(probs_2d, n, True).T
        return samples.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        value = value.long().unsqueeze(-1)
        value, log_pmf = _broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        min_real = torch.finfo(self.logits.dtype).min
        logits = torch.clamp(self.logits, min=min_real)
        return -(logits * self.probs).sum(-1)


class OneHotCategorical(Distribution):
    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:], validate_args)

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def mean(self):
        return self._categorical.probs

    @property
    def mode(self):
        probs = self._categorical.probs
        return F.one_hot(probs.argmax(dim=-1), probs.shape[-1]).to(probs.dtype)

    @property
    def variance(self):
        return self._categorical.probs * (1 - self._categorical.probs)

    def _sample(self, sample_shape):
        probs = self._categorical.probs
        indices = self._categorical.sample(sample_shape)
        return F.one_hot(indices, probs.shape[-1]).to(probs.dtype)

    def log_prob(self, value):
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self):
        return self._categorical.entropy()


class Bernoulli(ExponentialFamily):
    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            p = _clamp_probs(self.probs)
            self.logits = torch.log(p) - torch.log1p(-p)
        else:
            (self.logits,) = broadcast_all(logits)
            self.probs = torch.sigmoid(self.logits)
        super().__init__(self.probs.size(), torch.Size(), validate_args)

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def _sample(self, sample_shape):
        return torch.bernoulli(self.probs.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value.to(logits.dtype), reduction="none")

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")


class Uniform(Distribution):
    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = broadcast_all(low, high)
        super().__init__(self.low.size(), torch.Size(), validate_args)

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def mode(self):
        return torch.full_like(self.high, float("nan"))

    @property
    def stddev(self):
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def _sample(self, sample_shape):
        shape = self._extended_shape(sample_shape)
        rand = torch.rand(shape, dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value):
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return torch.log(lb.mul(ub)) - torch.log(self.high - self.low)

    def cdf(self, value):
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def entropy(self):
        return torch.log(self.high - self.low)


class Exponential(ExponentialFamily):
    has_rsample = True

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(self.rate.size(), torch.Size(), validate_args)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return torch.zeros_like(self.rate)

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def _sample(self, sample_shape):
        return self.rate.new_empty(self._extended_shape(sample_shape)).exponential_() / self.rate

    def log_prob(self, value):
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        return 1 - torch.exp(-self.rate * value)

    def icdf(self, value):
        return -torch.log1p(-value) / self.rate

    def entropy(self):
        return 1.0 - torch.log(self.rate)


class Independent(Distribution):
    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        shape = base_distribution.batch_shape + base_distribution.event_shape
        event_dim = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__(shape[:len(shape) - event_dim], shape[len(shape) - event_dim:], validate_args)

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    @property
    def mean(self):
        return self.base_dist.mean

    @property
    def mode(self):
        return self.base_dist.mode

    @property
    def variance(self):
        return self.base_dist.variance

    def _sample(self, sample_shape):
        return self.base_dist.sample(sample_shape)

    def log_prob(self, value):
        return _sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self):
        return _sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)


_KL = {}


def register_kl(type_p, type_q):
    def decorator(fn):
        _KL[(type_p, type_q)] = fn
        return fn
    return decorator


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t = torch.where((q.probs == 0).expand_as(t), torch.full_like(t, float("inf")), t)
    t = torch.where((p.probs == 0).expand_as(t), torch.zeros_like(t), t)
    return t.sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    inf = float("inf")
    t1 = p.probs * (F.softplus(-q.logits) - F.softplus(-p.logits))
    t1 = torch.where(q.probs == 0, torch.full_like(t1, inf), t1)
    t1 = torch.where(p.probs == 0, torch.zeros_like(t1), t1)
    t2 = (1 - p.probs) * (F.softplus(q.logits) - F.softplus(p.logits))
    t2 = torch.where(q.probs == 1, torch.full_like(t2, inf), t2)
    t2 = torch.where(p.probs == 1, torch.zeros_like(t2), t2)
    return t1 + t2


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return _sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


def kl_divergence(p, q):
    fn = _KL.get((type(p), type(q)))
    if fn is None:
        fn = _kl_for_subclasses(type(p), type(q))
    if fn is None:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type {type(p).__name__} and q type "
                                  f"{type(q).__name__}")
    return fn(p, q)


def _kl_for_subclasses(type_p, type_q):
    """As PyTorch dispatches register_kl: the registered pair of base classes nearest to the types
    (p's side first), so a subclass of Normal uses the Normal-Normal rule."""
    best, best_rank = None, None
    for (base_p, base_q), fn in _KL.items():
        if issubclass(type_p, base_p) and issubclass(type_q, base_q):
            rank = (type_p.__mro__.index(base_p), type_q.__mro__.index(base_q))
            if best_rank is None or rank < best_rank:
                best, best_rank = fn, rank
    return best


# transforms, biject_to / transform_to and TransformedDistribution (pyro star-imports and subclasses them)
from torch.distributions import transforms  # noqa: E402
from torch.distributions.transforms import *  # noqa: E402,F401,F403
from torch.distributions.constraint_registry import biject_to, transform_to  # noqa: E402,F401
from torch.distributions.transformed_distribution import TransformedDistribution  # noqa: E402,F401
__all__ += transforms.__all__ + ["biject_to", "transform_to", "TransformedDistribution"]


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.distributions", name)

# The submodules PyTorch's package imports, so `torch.distributions.normal.Normal(...)` works without
# importing the submodule first (gemma3n). (`import a.b`, not `from a import b`: this module's
# __getattr__ would answer the latter with an unknown value before the submodule is looked for.)
import torch.distributions.bernoulli  # noqa: E402,F401
import torch.distributions.categorical  # noqa: E402,F401
import torch.distributions.distribution  # noqa: E402,F401
import torch.distributions.exp_family  # noqa: E402,F401
import torch.distributions.exponential  # noqa: E402,F401
import torch.distributions.independent  # noqa: E402,F401
import torch.distributions.kl  # noqa: E402,F401
import torch.distributions.normal  # noqa: E402,F401
import torch.distributions.one_hot_categorical  # noqa: E402,F401
import torch.distributions.uniform  # noqa: E402,F401
import torch.distributions.utils  # noqa: E402,F401
