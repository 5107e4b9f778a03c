# json: dumps formats (indent, separators, sort_keys, ensure_ascii) and loads, as CPython's json.
import json

cfg = {"name": "tiny", "depths": [2, 2, 6, 2], "dims": (48, 96), "drop": 0.1, "use_bn": True, "head": None,
       "nested": {"b": 1, "a": [1.5, -2e-7, 1e16, 3.0]}, 7: "int key", "uni": "caf\u00e9 \u2603 \U0001F600"}
print(json.dumps(cfg))
print(json.dumps(cfg, indent=2, sort_keys=False))
print(json.dumps(cfg["nested"], sort_keys=True, separators=(",", ":")))
print(json.dumps(cfg["uni"], ensure_ascii=False), json.dumps("tab\tquote\"back\\slash\n\x01"))
print(json.dumps([float("nan"), float("inf"), -float("inf")]), json.dumps({}), json.dumps([]), json.dumps([[]], indent=4))
text = '{"a": [1, 2.5, -0, 1e3, true, false, null], "b": {"c": "x\\u00e9\\ud83d\\ude00\\n"}, "d": -12.25e-2}'
obj = json.loads(text)
print(obj, type(obj["a"][3]).__name__, obj["b"]["c"] == "x\u00e9\U0001F600\n")
print(json.loads("  [1, 2]  "), json.loads('"s"'), json.loads("3"), json.loads("NaN") != json.loads("NaN"))
print(json.loads(json.dumps(cfg, indent="\t")) == json.loads(json.dumps(cfg)))
print(json.loads('{"x": 1, "x": 2}'), json.loads('{"k": 1}', object_pairs_hook=list))
for bad in ('{"a" 1}', "[1, 2", '{"a": 1,}', "01", '"abc', "[1] x", "", '{"a": tru}'):
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print(type(e).__name__, e.msg, e.pos, e.lineno, e.colno, "|", e)
try:
    json.dumps({"a": {1, 2}})
except TypeError as e:
    print(e)
print(json.dumps(cfg, default=str, skipkeys=True))
