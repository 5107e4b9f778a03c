from itertools import islice, chain, groupby, tee, zip_longest, count
def chunked(it, n):
    it = iter(it)
    while chunk := list(islice(it, n)):
        yield chunk
print(list(chunked(range(7), 3)))
def sliding(it, n):
    its = tee(it, n)
    for i, t in enumerate(its):
        for _ in range(i): next(t, None)
    return zip(*its)
print(list(sliding("abcde", 3)))
def unique_justseen(it):
    return [k for k, _ in groupby(it)]
print(unique_justseen("AAAABBBCCDAABBB"))
def roundrobin(*its):
    sentinel = object()
    return [x for x in chain.from_iterable(zip_longest(*its, fillvalue=sentinel)) if x is not sentinel]
print(roundrobin("ABC", "D", "EF"), list(zip(count(1), "ab")))
