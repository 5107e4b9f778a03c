w, p = 10, 3
x = 3.14159265
print(f"{x:{w}.{p}f}|", f"{'nested':>{w}}|", f"{x!r:>20}", f"{'a' 'b'}", f"{{literal}}", f"{3 + 4 = }")
items = {"a": 1, "b": 2}
print(f"{items['a']}", f"{[i * 2 for i in range(3)]}", f"{len(items):03d}", f"{x:.2e}", f"{1e6:,.1f}")
name = "World"
print(f"Hello, {name.upper()}!", f"{name!s:*^11}", f"{name=}", f"{ {'k': 1}['k'] }", f"{(lambda v: v * 2)(4)}")
print(f"{12:#x} {12:#o} {12:#b} {12:08.3f} {-12:+} {12: } {0.5:%}")
