"""A stand-in for Pillow in the torchvision robustness test: torchvision's module-level code branches
on Pillow's version (hasattr(Image, "Resampling")), which an unknown PIL cannot answer."""
__version__ = "9.4.0"
