# The head of a generated model file: modules it cannot import are mocks, and module code branches on them.
from unittest.mock import mock_open, MagicMock


class Settings(dict):
    __getattr__ = dict.__getitem__


open = mock_open()
yaml = logging = sys = argparse = MagicMock()
settings = options = conf = Settings(depth=3)
argparse.ArgumentParser.return_value.parse_args.return_value = settings
yaml.safe_load.return_value = settings
sys.argv = settings

if sys.version_info[0] == 2:
    text_type = "unicode"
elif sys.version_info.major == 3:
    text_type = "same"
else:
    text_type = "str"
print(text_type)
try:
    ok = sys.version_info >= (3, 6)
except TypeError as e:
    print("ordering a mock:", e)

log = logging.getLogger(__name__)
log.setLevel(logging.INFO)
log.info("building %d layers", 3)
print(type(log).__name__, log is logging.getLogger("other"), logging.INFO == logging.INFO)

parser = argparse.ArgumentParser(description="train")
parser.add_argument("--depth", type=int, default=2)
parsed = parser.parse_args()
print(parsed is settings, parsed.depth, sys.argv is settings)

with open("config.yml", "r") as handle:
    loaded = yaml.safe_load(handle)
print(loaded is settings, handle.read(), open.call_args)

if sys.platform == "win32" or not sys.stdout.isatty:
    print("windows or no tty")
else:
    print("posix branch")
width = 4 if logging else 8
print(width, len(sys.path), [p for p in sys.path], "x" in sys.modules)
print(argparse.ArgumentParser.call_count, argparse.mock_calls[:2])
print(log.info.call_args_list)
