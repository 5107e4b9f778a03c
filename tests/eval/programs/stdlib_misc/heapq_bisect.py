import heapq, bisect
h = [5, 1, 8, 3, 2]; heapq.heapify(h); print(h)
heapq.heappush(h, 0); print(heapq.heappop(h), heapq.heappop(h), h)
print(heapq.nlargest(2, [4, 9, 1, 7]), heapq.nsmallest(3, [4, 9, 1, 7]), list(heapq.merge([1, 4], [2, 3])))
print(heapq.heappushpop([1, 5], 3), heapq.nsmallest(2, ["bb", "a", "ccc"], key=len))
a = [1, 3, 3, 5]
print(bisect.bisect_left(a, 3), bisect.bisect_right(a, 3), bisect.bisect(a, 4))
bisect.insort(a, 4); bisect.insort_left(a, 0); print(a, bisect.bisect_left(a, 10))
print(bisect.bisect([1, 2, 3], 2, key=None) if True else 0)
