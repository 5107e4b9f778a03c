print("mypkg.sub loading")
from .util import helper
from . import util as u
class Thing:
    def __repr__(self):
        return "Thing from " + __name__
def use():
    return helper("sub") + " " + str(u.VERSION)
if __name__ == "__main__":
    print("sub run as main (should not happen)")
