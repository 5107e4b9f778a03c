data = [("b", 2), ("a", 2), ("c", 1), ("a", 1), ("b", 1)]
print(sorted(data, key=lambda t: t[1]), sorted(data), sorted(data, key=lambda t: t[0], reverse=True))
words = "The quick brown Fox jumps over the lazy dog".split()
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len), sorted(set(map(len, words))))
nums = [3, -1, 4, -1, 5, -9, 2, 6]
nums.sort(key=abs); print(nums)
nums.sort(key=lambda v: (v % 3, v)); print(nums)
print(sorted([[2, 1], [1, 2], [1]]), sorted("hello", reverse=True), sorted([0.5, -1, 2, True]))
