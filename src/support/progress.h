// A progress line for long conversions: on a terminal only, and only once the work has taken longer
// than a second or two (a quick export prints nothing extra). The driver names each phase as it
// starts; a ticker thread redraws one line on stderr,
//
//   onnxify: binding weights from resnet50.pth ... 2.4 s
//
// and the line is erased when the work ends, so what follows ("wrote model.onnx ...") stands alone.
// Disabled (nothing printed, no thread) when stderr is not a terminal or the caller asked for quiet.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace onnxify {

class ProgressLine {
 public:
  // `enabled`: the caller's decision (the CLI: not -q; the Python API: its `progress` argument);
  // the line is still only drawn when stderr is a terminal.
  explicit ProgressLine(bool enabled, std::chrono::milliseconds delay = std::chrono::milliseconds(1500));
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // The phase now running (thread-safe). `fraction` in [0, 1] adds a percentage; < 0 adds none.
  void phase(std::string what, double fraction = -1);

 private:
  void run();
  void draw();  // with mu_ held

  std::mutex mu_;
  std::condition_variable cv_;
  std::string what_;
  double fraction_ = -1;
  bool stop_ = false;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::milliseconds delay_;
  std::thread ticker_;
};

}  // namespace onnxify
