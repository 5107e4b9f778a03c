"""Abstract base classes for numbers (onnxify's stdlib subset)."""
from abc import ABCMeta, abstractmethod

__all__ = ["Number", "Complex", "Real", "Rational", "Integral"]


class Number(metaclass=ABCMeta):
    __slots__ = ()
    __hash__ = None


class Complex(Number):
    __slots__ = ()

    def __bool__(self):
        return self != 0


Complex.register(complex)


class Real(Complex):
    __slots__ = ()

    @property
    def real(self):
        return +self

    @property
    def imag(self):
        return 0

    def conjugate(self):
        return +self


Real.register(float)


class Rational(Real):
    __slots__ = ()


class Integral(Rational):
    __slots__ = ()


Integral.register(int)
