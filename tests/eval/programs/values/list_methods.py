a = [5, 3, 8, 1]
a.append(9); a.extend([2, 7]); a.insert(0, 0); a.insert(-1, 6); a.insert(100, 10)
print(a, a.index(8), a.count(3), a.pop(), a.pop(0), a)
a.remove(3); a.sort(); print(a); a.sort(reverse=True); print(a); a.reverse(); print(a)
b = a.copy(); b[1:3] = ["x", "y", "z"]; print(b, a)
del b[::2]; print(b)
c = [1, 2, 3] * 2 + [4]; c *= 2; print(c, len(c), c[-3:], c[::-4], c[1:-1:3])
words = ["banana", "Apple", "cherry", "apple"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len, reverse=True))
m = [[1, 2], [3, 4]]; n = [row[:] for row in m]; n[0][0] = 99; print(m, n)
print([1, 2] < [1, 3], [1, 2] < [1, 2, 0], [] == [], [1, [2]] == [1, [2]])
x = list(range(10)); x[2:8:2] = "abc"; print(x)
