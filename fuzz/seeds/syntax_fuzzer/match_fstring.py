match x:
    case [a, *b] | {"k": c, **d} if a:
        f"{a!r:>{w}} {b=}"
    case Point(x=0) as p:
        pass
