#include "support/exit_release.h"

#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "support/sanitizer.h"

namespace onnxify {
namespace {

std::atomic<bool> g_enabled{false};
std::mutex g_mutex;
std::vector<int> g_fds;

// What the detached process closes last, sorted; written before it starts, never after.
constexpr int kMaxHeld = 16;
struct Held {
  int n = 0;
  int fds[kMaxHeld];
} g_held;

// The detached process: it runs on its own stack in this process's memory, with its own copy of
// the descriptor table, so only raw system calls (no allocation, no locks, nothing that touches
// thread-local state the parent still uses). It first closes every descriptor but the held ones:
// the parent's pipes and terminals, whose readers wait for their end of file, are let go at once,
// before the slow last close of the held files.
int close_everything(void* arg) {
  const Held& h = *static_cast<const Held*>(arg);
  unsigned from = 0;
  for (int i = 0; i < h.n; ++i) {
    unsigned fd = static_cast<unsigned>(h.fds[i]);
    if (fd > from) ::syscall(SYS_close_range, from, fd - 1, 0u);
    from = fd + 1;
  }
  ::syscall(SYS_close_range, from, ~0u, 0u);
  ::syscall(SYS_close_range, 0u, ~0u, 0u);
  ::syscall(SYS_exit, 0);
  return 0;
}

// Valgrind stops on a clone that shares memory without being a thread; it says so in LD_PRELOAD.
bool under_valgrind() {
  const char* preload = ::getenv("LD_PRELOAD");
  return preload && std::strstr(preload, "vgpreload");
}

// The kept references, taken out of the list.
std::vector<int> take_kept() {
  std::vector<int> fds;
  std::lock_guard<std::mutex> lock(g_mutex);
  fds.swap(g_fds);
  return fds;
}

}  // namespace

void release_at_exit_enable() { g_enabled = true; }

void release_at_exit_or_close(int fd) {
  if (fd < 0) return;
  if (g_enabled) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_fds.push_back(fd);
    return;
  }
  ::close(fd);
}

void release_at_exit() {
  std::vector<int> fds = take_kept();
  if (fds.empty()) return;
#ifndef ONNXIFY_ASAN  // ASan does not follow a process that shares memory without being a thread
  if (!under_valgrind() && fds.size() <= kMaxHeld) {
    std::sort(fds.begin(), fds.end());
    g_held.n = static_cast<int>(fds.size());
    std::copy(fds.begin(), fds.end(), g_held.fds);
    constexpr size_t kStack = 64 << 10;
    void* stack = ::mmap(nullptr, kStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    // No exit signal: nobody waits for it, and it is reparented when this process exits, which is
    // next. When it cannot start, the closes below are the last ones and free the files here.
    if (stack != MAP_FAILED)
      ::clone(close_everything, static_cast<char*>(stack) + kStack, CLONE_VM | CLONE_UNTRACED, &g_held);
  }
#endif
  for (int fd : fds) ::close(fd);
}

void release_held_now() {
  for (int fd : take_kept()) ::close(fd);
}

}  // namespace onnxify
