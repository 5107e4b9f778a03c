# argparse at module level, as training/export scripts hold it: defaults when no arguments are given,
# and parse_args on explicit lists (types, actions, nargs, abbreviations, choices, errors).
import argparse

parser = argparse.ArgumentParser(description="a tiny model")
parser.add_argument("--dim", type=int, default=64, help="width")
parser.add_argument("--depths", type=int, nargs="+", default=[2, 2])
parser.add_argument("--drop-rate", type=float, default=0.1)
parser.add_argument("--act", choices=["relu", "gelu"], default="gelu")
parser.add_argument("--use-bn", action="store_true")
parser.add_argument("--no-bias", dest="bias", action="store_false")
parser.add_argument("-v", "--verbose", action="count", default=0)
parser.add_argument("--tag", action="append")
parser.add_argument("--scale", type=float, default="0.5")
group = parser.add_argument_group("data")
group.add_argument("--size", type=int, default=224)
args = parser.parse_args([])
print(args)
print(args.dim, args.depths, args.drop_rate, args.use_bn, args.bias, args.verbose, args.tag, args.scale, args.size)
a2 = parser.parse_args(["--dim", "32", "--depths", "1", "2", "3", "--drop=0.2", "--act", "relu", "--use-bn", "-vv",
                        "--tag", "x", "--tag", "y", "--no-bias", "--size=128"])
print(a2)
print(vars(a2)["depths"], "dim" in a2, a2 == argparse.Namespace(**vars(a2)))
p2 = argparse.ArgumentParser(prog="prog")
p2.add_argument("src")
p2.add_argument("dst", nargs="?", default="out")
p2.add_argument("rest", nargs="*")
p2.add_argument("-n", type=int, default=1)
print(p2.parse_args(["a"]), p2.parse_args(["a", "b", "c", "d", "-n", "-3"]), p2.parse_args(["-n5", "x"]))
ns, extra = p2.parse_known_args(["a", "--unknown", "1"])
print(ns, extra)
p2.set_defaults(n=9, mode="fast")
print(p2.parse_args(["z"]), p2.get_default("n"))
for bad in (["--dim", "x"], ["--act", "tanh"], ["--bogus"]):
    try:
        parser.parse_args(bad)
    except SystemExit as e:
        print("exit", e.code)
try:
    p2.parse_args([])
except SystemExit as e:
    print("exit", e.code)
