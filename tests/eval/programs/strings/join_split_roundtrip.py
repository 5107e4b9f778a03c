text = "alpha beta  gamma\tdelta\nepsilon"
parts = text.split()
print(parts, " ".join(parts), "|".join(text.split(" ")), text.split(" ", 2))
csv = "a,b,,d,"
print(csv.split(","), csv.rsplit(",", 1), csv.strip(",").split(","), ",".join(reversed(csv.split(","))))
path = "/usr/lib/python3/dist-packages/x.py"
print(path.rsplit("/", 1), path.split("/")[-1].split("."), path.partition("/lib/"), "/".join(path.split("/")[:3]))
print("".join(c for c in "a1b2c3" if c.isdigit()), "-".join("abc"), " ".join(map(str, [1, 2.5, None])))
print("CamelCaseString".replace("C", "_c").lower().lstrip("_"), "snake_case_here".title().replace("_", ""))
