# expect-error
print('start abstract_instantiate')
import abc
class A(abc.ABC):
    @abc.abstractmethod
    def f(self): ...
A()
print('not reached')
