"""time (onnxify's stdlib subset): clocks are unknown (poison) — their values differ from run to run
and must not decide anything in a model."""
import _onnxify

for _name in ("time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "process_time",
              "process_time_ns", "thread_time", "localtime", "gmtime", "ctime", "asctime", "strftime"):
    globals()[_name] = _onnxify.poison("time." + _name, "the clock is not available to evaluated code", False)
del _name


def sleep(secs):
    return None
