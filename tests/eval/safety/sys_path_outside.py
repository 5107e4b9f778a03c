# A program may extend sys.path, but imports read only the script's folder and the --path folders.
import sys

sys.path.insert(0, "/usr/lib/python3/dist-packages")
import torchvision

print(torchvision.__version__)
