#include "support/progress.h"

#include <fmt/core.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

namespace onnxify {

ProgressLine::ProgressLine(bool enabled, std::chrono::milliseconds delay)
    : start_(std::chrono::steady_clock::now()), delay_(delay) {
  if (enabled && ::isatty(STDERR_FILENO)) ticker_ = std::thread([this] { run(); });
}

ProgressLine::~ProgressLine() {
  if (!ticker_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  ticker_.join();
  if (shown_) {
    std::fputs("\r\033[K", stderr);  // erase the line: what the caller prints next stands alone
    std::fflush(stderr);
  }
}

void ProgressLine::phase(std::string what, double fraction) {
  if (!ticker_.joinable()) return;
  std::lock_guard<std::mutex> lock(mu_);
  what_ = std::move(what);
  fraction_ = fraction;
}

void ProgressLine::run() {
  std::unique_lock<std::mutex> lock(mu_);
  // Redraw a few times a second: the elapsed time moves even when the phase does not.
  while (!cv_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; }))
    if (std::chrono::steady_clock::now() - start_ >= delay_) draw();
}

void ProgressLine::draw() {
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string line = fmt::format("onnxify: {}", what_.empty() ? "working" : what_);
  if (fraction_ >= 0) line += fmt::format(" {:3.0f}%", fraction_ * 100);
  line += fmt::format(" ... {:.1f} s", s);
  // One terminal row at most (a wrapped line cannot be redrawn in place): long paths lose their
  // middle. Bytes, not characters: a multi-byte path is only cut a little early.
  winsize ws{};
  size_t cols = ::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20 ? ws.ws_col - 1 : 79;
  if (line.size() > cols) {
    size_t keep = cols - 3;
    line = line.substr(0, keep / 2) + "..." + line.substr(line.size() - (keep - keep / 2));
  }
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace onnxify
