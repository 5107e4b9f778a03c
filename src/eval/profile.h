// A sampling profiler of the Python code the evaluator runs, for finding where an export's time
// goes in a library's code (`ONNXIFY_PROFILE=N onnxify export ...`: the N functions with the most
// samples, by time spent in them and by time under them).
//
// Every millisecond a signal to the evaluating thread records the chain of Python frames it is in
// (Interp::frame, innermost first); nothing else is done in the handler, so the cost is a few
// pointer reads per sample. Sampling stops when its buffer is full (tens of seconds of CPU).
// Frames' code objects live as long as the interpreter (Interp::keep), so the report, made before
// the interpreter goes, can name them.
#pragma once

#include <cstdio>
#include <memory>

namespace onnxify::eval {

class Interp;

class PyProfiler {
 public:
  // Starts sampling the calling thread's frames in `I`; nullptr when another profiler is running or
  // the timer cannot be made (the export then runs unprofiled).
  static std::unique_ptr<PyProfiler> start(Interp& I, int interval_us = 1000);
  // As ONNXIFY_PROFILE=N asks: a profiler whose destruction reports the N functions on stderr, or
  // nullptr when the variable is not set.
  static std::unique_ptr<PyProfiler> from_env(Interp& I);
  ~PyProfiler();  // stops sampling (and reports, for one made by from_env)
  PyProfiler(const PyProfiler&) = delete;
  PyProfiler& operator=(const PyProfiler&) = delete;

  // The `top` functions by self samples and by inclusive samples, with their source locations.
  void report(std::FILE* out, size_t top);

  struct State;

 private:
  explicit PyProfiler(std::unique_ptr<State> s);
  void stop();
  std::unique_ptr<State> s_;
  size_t report_top_ = 0;  // from_env: report this many at destruction
};

}  // namespace onnxify::eval
