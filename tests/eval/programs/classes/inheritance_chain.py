class Animal:
    sound = "..."
    def __init__(self, name):
        self.name = name
    def speak(self):
        return f"{self.name} says {self.sound}"
    def kind(self):
        return type(self).__name__
class Dog(Animal):
    sound = "woof"
class Puppy(Dog):
    def speak(self):
        return super().speak() + " (tiny)"
for a in [Animal("x"), Dog("rex"), Puppy("bit")]:
    print(a.speak(), a.kind(), isinstance(a, Dog), issubclass(type(a), Animal))
print(Puppy.__mro__, Puppy.__bases__, Dog.__subclasses__(), Animal.__base__)
print(issubclass(Puppy, (int, Dog)), issubclass(bool, int), isinstance(True, int), issubclass(Dog, object))
