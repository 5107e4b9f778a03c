// Splitting work across the machine's cores, for the weight transforms whose cost grows with a
// model's bytes (BatchNorm folding into convolution weights, random weights without a checkpoint,
// checkpoint checksums).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace onnxify {

// Calls fn(begin, end) on disjoint ranges that cover [0, n), on up to one thread per core (the
// caller's included), each range at least `grain` items long, so a small loop runs on the caller
// alone and pays no thread start. fn must not throw.
template <class Fn>
void parallel_ranges(int64_t n, int64_t grain, Fn fn) {
  static const int64_t cores = std::max(1u, std::thread::hardware_concurrency());
  int64_t parts = std::min<int64_t>({cores, 16, n / std::max<int64_t>(grain, 1)});
  if (parts <= 1) {
    if (n > 0) fn(int64_t{0}, n);
    return;
  }
  int64_t step = (n + parts - 1) / parts;
  std::vector<std::thread> pool;
  for (int64_t p = 1; p < parts; ++p)
    pool.emplace_back([=, &fn] { fn(p * step, std::min(n, (p + 1) * step)); });
  fn(int64_t{0}, step);
  for (std::thread& t : pool) t.join();
}

// Calls fn(i) for every i in [0, n), in order of i, on up to `threads` threads (the caller's
// included; 0: one per core; never more than 16 or n) that take the next index as they finish:
// for items of uneven cost (one tensor each). threads = 1 runs on the caller alone (too little
// work to pay for threads). fn must not throw.
template <class Fn>
void parallel_items(size_t n, unsigned threads, Fn fn) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<size_t>({threads, 16, n}));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) fn(i);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace onnxify
