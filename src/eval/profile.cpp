#include "eval/profile.h"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <unordered_map>
#include <vector>

#include "eval/frame.h"
#include "eval/interp.h"
#include "support/source.h"

namespace onnxify::eval {

namespace {
constexpr size_t kWords = size_t{1} << 21;  // code pointers, each sample's chain ended by nullptr
constexpr size_t kMaxDepth = 256;            // deeper chains keep their innermost frames
}  // namespace

struct PyProfiler::State {
  Interp* I = nullptr;
  timer_t timer{};
  std::unique_ptr<const Code*[]> words{new const Code*[kWords]};
  volatile size_t used = 0;
  volatile size_t samples = 0, dropped = 0;
  struct sigaction previous {};
  double cpu_ms = 0;  // the thread's CPU time while sampling (start: minus its value then)
};

namespace {

std::atomic<PyProfiler::State*> g_active{nullptr};

double thread_cpu_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// Async-signal-safe: reads the frame chain and stores pointers into the preallocated buffer.
void on_sample(int) {
  PyProfiler::State* s = g_active.load(std::memory_order_relaxed);
  if (!s) return;
  size_t at = s->used;
  size_t depth = 0;
  for (const Frame* f = s->I->frame; f && depth < kMaxDepth; f = f->back, ++depth) {
    if (at + 2 > kWords) {
      s->dropped = s->dropped + 1;
      return;
    }
    if (f->code) s->words[at++] = f->code;
  }
  if (at + 1 > kWords) {
    s->dropped = s->dropped + 1;
    return;
  }
  s->words[at++] = nullptr;
  s->used = at;
  s->samples = s->samples + 1;
}

}  // namespace

PyProfiler::PyProfiler(std::unique_ptr<State> s) : s_(std::move(s)) {}

std::unique_ptr<PyProfiler> PyProfiler::start(Interp& I, int interval_us) {
  auto s = std::make_unique<State>();
  s->I = &I;
  State* expected = nullptr;
  if (!g_active.compare_exchange_strong(expected, s.get())) return nullptr;
  struct sigaction sa {};
  sa.sa_handler = on_sample;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigevent ev{};
  // Wall time, delivered to this thread: CPU-time timers fire only on the scheduler's tick (4 ms
  // here), and the evaluating thread is busy while it evaluates, so its wall time is its CPU time
  // (where it waits on a file, the frame that waits is charged, which is right too).
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGPROF;
  ev._sigev_un._tid = static_cast<pid_t>(::syscall(SYS_gettid));
  if (::sigaction(SIGPROF, &sa, &s->previous) != 0) {
    g_active.store(nullptr);
    return nullptr;
  }
  if (::timer_create(CLOCK_MONOTONIC, &ev, &s->timer) != 0) {
    ::sigaction(SIGPROF, &s->previous, nullptr);
    g_active.store(nullptr);
    return nullptr;
  }
  itimerspec every{};
  every.it_interval.tv_nsec = every.it_value.tv_nsec = static_cast<long>(interval_us) * 1000;
  ::timer_settime(s->timer, 0, &every, nullptr);
  s->cpu_ms = -thread_cpu_ms();
  return std::unique_ptr<PyProfiler>(new PyProfiler(std::move(s)));
}

void PyProfiler::stop() {
  if (g_active.load() != s_.get()) return;
  ::timer_delete(s_->timer);
  g_active.store(nullptr);
  s_->cpu_ms += thread_cpu_ms();
  ::sigaction(SIGPROF, &s_->previous, nullptr);
}

std::unique_ptr<PyProfiler> PyProfiler::from_env(Interp& I) {
  const char* top = std::getenv("ONNXIFY_PROFILE");
  if (!top) return nullptr;
  std::unique_ptr<PyProfiler> p = start(I);
  if (p) p->report_top_ = static_cast<size_t>(std::max(1, std::atoi(top)));
  return p;
}

PyProfiler::~PyProfiler() {
  if (report_top_) report(stderr, report_top_);
  stop();
}

void PyProfiler::report(std::FILE* out, size_t top) {
  stop();
  struct Count {
    size_t self = 0, total = 0;
  };
  std::unordered_map<const Code*, Count> counts;
  size_t python = 0;
  std::vector<const Code*> chain;
  for (size_t i = 0; i < s_->used; ++i) {
    if (const Code* c = s_->words[i]) {
      chain.push_back(c);
      continue;
    }
    if (!chain.empty()) {
      ++python;
      ++counts[chain.front()].self;
      // Inclusive: once per sample however often a function recurses.
      for (size_t k = 0; k < chain.size(); ++k)
        if (std::find(chain.begin(), chain.begin() + static_cast<std::ptrdiff_t>(k), chain[k]) ==
            chain.begin() + static_cast<std::ptrdiff_t>(k))
          ++counts[chain[k]].total;
    }
    chain.clear();
  }
  size_t n = s_->samples;
  std::fprintf(out, "onnxify: profile: %zu samples, the evaluating thread used %.0f ms of CPU, %.1f%% of samples in Python code%s\n",
               n, s_->cpu_ms, n ? 100.0 * static_cast<double>(python) / static_cast<double>(n) : 0.0,
               s_->dropped ? " (buffer full: later samples dropped)" : "");
  if (n == 0) return;
  std::vector<std::pair<const Code*, Count>> rows(counts.begin(), counts.end());
  auto name = [](const Code* c) {
    std::string where = c->unit && c->unit->file ? c->unit->file->path() : "?";
    std::string q = c->qualname ? std::string(c->qualname->view()) : c->name ? std::string(c->name->view()) : "?";
    return q + " (" + where + ":" + std::to_string(c->where.line) + ")";
  };
  auto table = [&](const char* title, auto key) {
    std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) { return key(a.second) > key(b.second); });
    std::fprintf(out, "onnxify: profile: by %s\n   self%%  total%%  function\n", title);
    for (size_t i = 0; i < std::min(top, rows.size()); ++i)
      std::fprintf(out, "  %6.1f  %6.1f  %s\n", 100.0 * static_cast<double>(rows[i].second.self) / static_cast<double>(n),
                   100.0 * static_cast<double>(rows[i].second.total) / static_cast<double>(n), name(rows[i].first).c_str());
  };
  table("time in the function itself", [](const Count& c) { return c.self; });
  table("time in the function and what it calls", [](const Count& c) { return c.total; });
}

}  // namespace onnxify::eval
