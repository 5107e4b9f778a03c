"""A stand-in for Pillow (not available during conversion). Model packages import PIL at module
level and branch on its version (torchvision: hasattr(Image, "Resampling")); this answers those
probes as Pillow 9.4 would. Anything else from PIL is an unknown value, reported only if used."""
__version__ = "9.4.0"


def __getattr__(name):
    import _onnxify
    if name.startswith("__"):
        raise AttributeError(name)
    if name == "Image":  # `from PIL import Image` asks the package first: the stand-in submodule
        import PIL.Image
        return PIL.Image
    return _onnxify.poison(f"PIL.{name}", "PIL is not available during conversion")
