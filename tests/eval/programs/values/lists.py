l = [3, 1, 4, 1, 5, 9, 2, 6]
print(len(l), l.count(1), l.index(4), min(l), max(l), sum(l), sorted(l), l)
l.append(7); l.extend([8, 0]); l.insert(0, -1); l.insert(100, 100); l.insert(-1, 50)
print(l)
print(l.pop(), l.pop(0), l.pop(-2), l)
l.remove(1); print(l)
l.reverse(); print(l)
l.sort(); print(l)
l.sort(key=lambda v: (v % 3, v), reverse=True); print(l)
c = l.copy(); c.clear(); print(c, len(l))
m = [[0] * 3 for _ in range(2)]
m[0][1] = 5
print(m, [[0] * 2] * 2)
alias = [[0] * 2] * 2
alias[0][0] = 1
print(alias)
print([1, 2] + [3], [0] * 3, [1, [2, [3]]] == [1, [2, [3]]], [1, 2] < [1, 3], [2] > [1, 99], [] < [0])
words = ["banana", "Apple", "cherry", "apple"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len), sorted(words, key=len, reverse=True))
stable = sorted([("b", 2), ("a", 2), ("c", 1)], key=lambda p: p[1])
print(stable)
x = [1, 2, 3]
x += [4]
x *= 2
print(x, list(map(lambda v: v * 2, x[:3])), [v for v in x if v % 2 == 0], list(reversed(x))[:2])
print(list(enumerate(["a", "b"], start=5)), list(zip("abc", range(3))), [i * j for i in range(3) for j in range(3) if i != j])
lst = [5, 3, 8]
lst[1] = lst[1] * 10
lst[-1] += 1
print(lst, lst.__len__(), lst.__getitem__(0), lst.__contains__(30))
