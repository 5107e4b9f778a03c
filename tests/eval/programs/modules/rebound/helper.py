class Helper:
    pass


def helper(x):
    return x * 2
