TABLE = {"depth": 2, "width": 8}
SCALE = 1.5


def factor():
    return 10


class Block:
    channels = 4

    def run(self, x):
        return x * self.channels
