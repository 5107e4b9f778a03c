name, age, score = "Ann", 31, 0.876
print(f"{name} is {age}", f"{name!r:>8}", f"{age:05d}", f"{score:.1%}", f"{score:e}", f"{age * 2 + 1}")
print(f"{'quoted'}", f'{"double"}', f"{name.upper()}", f"{[n for n in range(3)]}", f"{ {'k': 1}['k'] }")
width = 10
print(f"[{name:^{width}}]", f"[{name:<{width}}]", f"[{score:{width}.{3}f}]", f"{age:#b}", f"{age:x}")
print(f"{1_000_000:,}", f"{1234.5:_}", f"{-5:+d}", f"{5: d}", f"{3.0:g}", f"{2.5:.0f}", f"{1e-9:.2g}")
x = 7
print(f"{x=}", f"{x = }", f"{x*2=}", f"{name=!s}", f"{score=:.2f}")
print(f"{'{'}{'}'}", f"{{}}", f"{{{x}}}", f"a{{b}}c", f"{x}" f"{x}" "lit")
items = [("a", 1), ("bb", 22)]
for k, v in items:
    print(f"{k:<4}|{v:>4}|")
print(f"{3+4j}", f"{None}", f"{True:>6}", f"{[1,2]!s:>10}", f"{'ß'!a}", f"{b'x'}")
nested = {"w": 3}
print(f"{'x':>{nested['w']}}", f"{x:{'>' if x else '<'}5}")
print(f"""multi
{x}
line""")
