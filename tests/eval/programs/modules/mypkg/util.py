print("mypkg.util loading as", __name__)
VERSION = (1, 2)
def helper(x):
    return f"helped {x}"
