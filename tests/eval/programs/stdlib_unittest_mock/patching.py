from unittest.mock import patch, MagicMock, NonCallableMagicMock, PropertyMock, Mock, DEFAULT, sentinel
import mockpkg.settings as settings
from mockpkg.settings import Block

with patch("mockpkg.settings.factor") as fake:
    fake.return_value = 3
    print(settings.factor(), type(fake).__name__, fake.call_count)
print(settings.factor())
with patch("mockpkg.settings.SCALE", 2.5) as value:
    print(settings.SCALE, value)
print(settings.SCALE)
with patch("mockpkg.settings.MISSING", 1, create=True):
    print(settings.MISSING)
print(hasattr(settings, "MISSING"))
try:
    with patch("mockpkg.settings.MISSING", 1):
        pass
except AttributeError as e:
    print("AttributeError:", str(e).split("> ")[-1])
try:
    patch("noDots")
except TypeError as e:
    print("TypeError:", e)


@patch("mockpkg.settings.factor")
@patch("mockpkg.settings.SCALE", 9.0)
@patch.object(Block, "channels", 100)
@patch("mockpkg.settings.Block.run")
def decorated(a, run_mock, factor_mock):
    run_mock.return_value = "ran"
    factor_mock.return_value = -1
    return (a, settings.SCALE, settings.factor(), Block().run(1), Block.channels, type(run_mock).__name__)


print(decorated("arg"))
print(settings.SCALE, settings.factor(), Block().run(1), Block.channels)

with patch.object(Block, "run", return_value=5) as run:
    print(Block().run(2), run.call_args)
with patch.object(Block, "run", autospec=None, new_callable=Mock) as run:
    print(type(run).__name__)
with patch.object(settings, "TABLE", {"x": 1}):
    print(settings.TABLE)
with patch("mockpkg.settings.TABLE", spec=True) as t:
    print(type(t).__name__)
with patch("mockpkg.settings.Block", spec=True) as B:
    print(type(B).__name__, type(B()).__name__)

with patch.dict(settings.TABLE, {"depth": 5, "extra": 1}) as d:
    print(d is settings.TABLE, sorted(settings.TABLE.items()))
print(sorted(settings.TABLE.items()))
with patch.dict("mockpkg.settings.TABLE", clear=True, only=0):
    print(settings.TABLE)
print(sorted(settings.TABLE.items()))


@patch.dict(settings.TABLE, width=64)
def wide():
    return settings.TABLE["width"]


print(wide(), settings.TABLE["width"])
p = patch("mockpkg.settings.factor", return_value=77)
started = p.start()
print(settings.factor(), started is settings.factor)
p.stop()
print(settings.factor())
q = patch.object(settings, "SCALE", 0.0)
q.start()
r = patch.dict(settings.TABLE, depth=0)
r.start()
print(settings.SCALE, settings.TABLE["depth"])
patch.stopall()
print(settings.SCALE, settings.TABLE["depth"])
with patch.multiple(settings, SCALE=DEFAULT, factor=sentinel.f) as made:
    print(sorted(made), type(made["SCALE"]).__name__, settings.factor)
print(settings.SCALE)


class Holder:
    pass


with patch.object(Holder, "size", new_callable=PropertyMock, create=True) as size:
    size.return_value = 12
    h = Holder()
    print(h.size, size.call_count)
    h.size = 3
    print(size.call_args, size.mock_calls)
print(hasattr(Holder, "size"))


class Suite:
    def test_one(self):
        return settings.SCALE

    def helper(self):
        return settings.SCALE


Suite = patch.object(settings, "SCALE", -3.0)(Suite)
print(Suite().test_one(), Suite().helper())
