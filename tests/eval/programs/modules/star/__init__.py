__all__ = ["public_a", "public_b"]
public_a = 1
public_b = 2
public_c = 3
_hidden = 4
