import itertools as it
print(list(it.product("ab", repeat=2)), list(it.product([1, 2], "x")))
print(list(it.permutations([1, 2, 3], 2)), len(list(it.permutations(range(5)))))
print(list(it.combinations("abcd", 2)), list(it.combinations_with_replacement("ab", 3)))
print(list(it.accumulate([1, 2, 3, 4])), list(it.accumulate([3, 1, 4], max)), list(it.accumulate([1, 2], initial=10)))
print(list(it.chain.from_iterable(["ab", "cd"])), list(it.compress("abcdef", [1, 0, 1, 0, 1, 1])))
print(list(it.pairwise("abcd")), list(it.starmap(pow, [(2, 3), (3, 2)])), list(it.zip_longest("ab", "xyz", fillvalue="-")))
