from abc import ABC, abstractmethod
class Base(ABC):
    @abstractmethod
    def run(self): ...
    @property
    @abstractmethod
    def name(self): ...
    def describe(self):
        return f"{self.name}: {self.run()}"
class Impl(Base):
    def run(self): return 42
    @property
    def name(self): return "impl"
print(Impl().describe(), sorted(Base.__abstractmethods__), Impl.__abstractmethods__)
try:
    Base()
except TypeError as e:
    print(e)
class Partial(Base):
    def run(self): return 1
try:
    Partial()
except TypeError as e:
    print(e)
