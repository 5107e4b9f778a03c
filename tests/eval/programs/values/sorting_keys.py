people = [("ann", 30, 1.7), ("bob", 25, 1.8), ("cid", 30, 1.6), ("dee", 25, 1.65)]
print(sorted(people, key=lambda p: (-p[1], p[2])))
print(sorted(people, key=lambda p: p[0][::-1]), [p[0] for p in sorted(people, key=lambda p: p[2], reverse=True)])
from operator import itemgetter
print(sorted(people, key=itemgetter(1, 0)), min(people, key=itemgetter(2))[0], max(people, key=lambda p: p[1])[0])
print(sorted([1.5, -2, 3, -0.5], key=abs), sorted(["10", "9", "100"], key=int), sorted(["10", "9", "100"]))
