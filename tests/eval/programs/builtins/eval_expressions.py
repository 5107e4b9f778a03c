# eval() of expression text built by the program itself, as config-driven model code writes it:
# names from the module, the caller's locals, explicit globals and locals, classes looked up by name
# and called, lambdas and comprehensions inside the text, errors raised by the text, syntax errors.
import math


class Conv:
    def __init__(self, channels, kernel=3):
        self.channels, self.kernel = channels, kernel

    def __repr__(self):
        return f"Conv({self.channels}, {self.kernel})"


class ReLU:
    def __repr__(self):
        return "ReLU()"


def build(cfg):
    cfg = dict(cfg)
    return eval(cfg.pop("type"))(**cfg)


def scaled(name, factor):
    width = 16
    return eval(name + " * factor + width")


print(build({"type": "Conv", "channels": 8}), build({"type": "ReLU"}))
print(eval("  math.sqrt(16) + 1"), scaled("2", 3), eval("[c * 2 for c in range(4)]"))
print(eval("x + y", {"x": 1}, {"y": 2}), eval("len(z)", {}, {"z": "abcd"}))
print(eval("(lambda q: q ** 2)(7)"), eval("Conv")(2, kernel=1))
try:
    eval("1 / 0")
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
try:
    eval("undefined_name_here")
except NameError as e:
    print("NameError", e)
try:
    eval("1 +")
except SyntaxError:
    print("SyntaxError")
try:
    eval(42)
except TypeError as e:
    print("TypeError", e)
