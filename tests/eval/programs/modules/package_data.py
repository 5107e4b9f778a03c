# A package's data files read through its loader, as timm's pruned-model tables
# (pkgutil.get_data) and importlib.resources users do; files inside the import roots only.
import importlib.util
import pkgutil

import mypkg

raw = pkgutil.get_data("mypkg", "table.txt")
print(type(raw).__name__, raw.decode().strip().split("***"))
spec = importlib.util.find_spec("mypkg")
print(spec.loader.is_package("mypkg"), spec.loader.get_filename("mypkg").rsplit("/", 2)[-2:])
print(spec.loader.get_source("mypkg").splitlines()[0][:20])
try:
    pkgutil.get_data("mypkg", "no_such_file.txt")
except FileNotFoundError as e:
    print("FileNotFoundError", e.errno, e.filename.rsplit("/", 1)[-1])
