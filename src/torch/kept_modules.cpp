// KeptModules: the Python API's exports start from modules an earlier export imported (torch.h).
//
// The kept interpreter is only ever read by forked children: fork gives each export a private
// copy-on-write image of it, so whatever the model's code mutates (registries, module globals,
// lru_caches filled with symbolic sizes, the recorder's graph) is gone when the child exits, and
// the next export starts from the same state a fresh import would leave. The child sends its
// result back through a pipe as bytes (below) and leaves with _exit: it never returns into the
// caller's process (a Python interpreter), whose other threads do not exist in it.
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "eval/code_cache.h"
#include "eval/file_stamps.h"
#include "eval/loader.h"
#include "ir/onnx_versions.h"
#include "support/exit_release.h"
#include "support/fd_io.h"
#include "support/progress.h"
#include "torch/driver.h"

#include <fmt/core.h>

namespace onnxify::torch {

namespace {

// ---- the child's result as bytes ------------------------------------------------------------------
// Diagnostics keep their source files (path and text, once each), so the caller renders the same
// lines and carets as an export in its own process.

class ResultWriter {
 public:
  void u64(uint64_t v) { bytes_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& s) {
    u64(s.size());
    bytes_ += s;
  }
  void strs(const std::vector<std::string>& v) {
    u64(v.size());
    for (const std::string& s : v) str(s);
  }
  void diagnostic(const Diagnostic& d) {
    u64(static_cast<uint64_t>(d.severity()));
    str(d.message());
    str(d.file_name());
    str(d.help());
    const SourceRange& r = d.range();
    u64(file_index(r.file));
    u64(r.begin.line), u64(r.begin.col), u64(r.end.line), u64(r.end.col);
    u64(d.notes().size());
    for (const Diagnostic& n : d.notes()) diagnostic(n);
  }
  void diagnostics(const std::vector<Diagnostic>& v) {
    u64(v.size());
    for (const Diagnostic& d : v) diagnostic(d);
  }
  // How a job ended: every result starts with it.
  void outcome(Failure f, const DiagnosticList& d) {
    u64(static_cast<uint64_t>(f));
    diagnostics(d.items());
  }
  // The files, then everything else: the reader makes the files first.
  std::string finish() {
    ResultWriter head;
    head.u64(files_.size());
    for (const SourceFile* f : files_) head.str(f->path()), head.str(std::string(f->text()));
    return head.bytes_ + bytes_;
  }

 private:
  uint64_t file_index(const std::shared_ptr<const SourceFile>& f) {
    if (!f) return 0;
    auto [it, added] = index_.try_emplace(f.get(), files_.size() + 1);
    if (added) files_.push_back(f.get());
    return it->second;
  }
  std::string bytes_;
  std::map<const SourceFile*, uint64_t> index_;
  std::vector<const SourceFile*> files_;
};

class ResultReader {
 public:
  explicit ResultReader(const std::string& b) : b_(b) {
    uint64_t n = u64();
    for (uint64_t i = 0; i < n; ++i) {
      std::string path = str();
      files_.push_back(std::make_shared<SourceFile>(path, str()));
    }
  }
  uint64_t u64() {
    need(sizeof(uint64_t));
    uint64_t v;
    std::memcpy(&v, b_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::string str() {
    uint64_t n = u64();
    need(n);
    std::string s = b_.substr(at_, n);
    at_ += n;
    return s;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> v(count());
    for (std::string& s : v) s = str();
    return v;
  }
  Diagnostic diagnostic(int depth = 0) {
    if (depth > 64) throw std::runtime_error("nested too deep");
    uint64_t sev = u64();
    if (sev > static_cast<uint64_t>(Severity::Note)) throw std::runtime_error("bad severity");
    std::string message = str(), file = str(), help = str();
    SourceRange r;
    uint64_t f = u64();
    if (f > files_.size()) throw std::runtime_error("bad file index");
    if (f) r.file = files_[f - 1];
    r.begin.line = static_cast<uint32_t>(u64()), r.begin.col = static_cast<uint32_t>(u64());
    r.end.line = static_cast<uint32_t>(u64()), r.end.col = static_cast<uint32_t>(u64());
    Diagnostic d(static_cast<Severity>(sev), std::move(message), std::move(r));
    if (!file.empty()) d.with_file(std::move(file));
    if (!help.empty()) d.with_help(std::move(help));
    for (uint64_t k = count(); k > 0; --k) d.with_note(diagnostic(depth + 1));
    return d;
  }
  std::vector<Diagnostic> diagnostics() {
    std::vector<Diagnostic> v;
    for (uint64_t k = count(); k > 0; --k) v.push_back(diagnostic());
    return v;
  }
  void outcome(Failure* f, DiagnosticList* d) {
    uint64_t failure = u64();
    if (failure > static_cast<uint64_t>(Failure::Convert)) throw std::runtime_error("bad failure code");
    *f = static_cast<Failure>(failure);
    for (Diagnostic& x : diagnostics()) d->add(std::move(x));
  }
  bool done() const { return at_ == b_.size(); }

 private:
  void need(uint64_t n) const {
    if (n > b_.size() - at_) throw std::runtime_error("truncated");
  }
  uint64_t count() {
    uint64_t n = u64();
    need(n);  // every item takes at least a byte: a corrupt count fails here, not in an allocation
    return n;
  }
  const std::string& b_;
  size_t at_ = 0;
  std::vector<std::shared_ptr<const SourceFile>> files_;
};

std::string encode(const ExportResult& r, const std::vector<std::string>& imported) {
  ResultWriter w;
  w.outcome(r.failure, r.diagnostics);
  w.diagnostics(r.warnings);
  w.str(r.output_path);
  w.u64(r.num_nodes);
  w.strs(r.input_names);
  w.strs(r.output_names);
  w.strs(imported);
  return w.finish();
}

ExportResult decode(const std::string& bytes, std::vector<std::string>* imported) {
  ResultReader in(bytes);
  ExportResult r;
  in.outcome(&r.failure, &r.diagnostics);
  r.warnings = in.diagnostics();
  r.output_path = in.str();
  r.num_nodes = in.u64();
  r.input_names = in.strs();
  r.output_names = in.strs();
  *imported = in.strs();
  if (!in.done()) throw std::runtime_error("trailing bytes");
  return r;
}

// The child's bytes until it closes the pipe. When `cancel_fd` turns readable first (the one who
// asked is gone), the child is killed and *cancelled set.
std::string read_result(int fd, int cancel_fd, pid_t child, bool* cancelled) {
  std::string out;
  char buf[1 << 16];
  while (true) {
    if (cancel_fd >= 0) {
      pollfd p[2] = {{fd, POLLIN, 0}, {cancel_fd, POLLIN, 0}};
      int ready = ::poll(p, 2, -1);
      if (ready < 0 && errno == EINTR) continue;
      if (ready > 0 && !(p[0].revents & (POLLIN | POLLHUP)) && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
        ::kill(child, SIGKILL);
        *cancelled = true;
        cancel_fd = -1;  // read what is left until the pipe closes
      }
    }
    if (cancel_fd < 0) {
      read_to_end(fd, &out);
      return out;
    }
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return out;
    out.append(buf, static_cast<size_t>(n));
  }
}

// What the kept state was made under, besides the files (stamped): two exports with the same key
// import the same modules from the same roots under the same limits.
std::string state_key(const ExportOptions& o) {
  std::string k;
  auto add = [&k](const std::string& part) { (k += part) += '\0'; };
  char buf[PATH_MAX];
  add(::getcwd(buf, sizeof buf) ? buf : "");
  add(o.module.empty() ? (::realpath(o.source.c_str(), buf) ? buf : o.source) : "");
  add(o.module);
  add(o.framework);  // which framework modules may be imported (ModuleLoader::frameworks)
  add("paths");
  for (const std::string& p : o.paths) add(p);
  add("env");
  for (const std::string& p : o.env_paths) add(p);
  add(o.cache ? eval::default_code_cache_dir() : "no cache");
  for (const char* v : {"ONNXIFY_MAX_STEPS", "ONNXIFY_MAX_DEPTH", "ONNXIFY_MAX_MEMORY"}) {
    const char* e = std::getenv(v);
    add(e ? e : "-");
  }
  return k;
}

// Runs a child's job with every failure in `failure` and `diagnostics` (never an exception
// escaping into a copy of the caller's stack).
void contained(Failure* failure, DiagnosticList* diagnostics, const std::function<void()>& job) {
  auto fail = [&](Diagnostic d) {
    *failure = Failure::Convert;
    diagnostics->add(std::move(d));
  };
  try {
    job();
  } catch (const Diagnostic& d) {
    fail(d);
  } catch (const DiagnosticList& l) {
    *failure = Failure::Convert;
    *diagnostics = l;
  } catch (const std::bad_alloc&) {
    fail(Diagnostic::error("out of memory"));
  } catch (const std::exception& e) {
    fail(Diagnostic::error(std::string("internal error: ") + e.what()));
  } catch (...) {
    fail(Diagnostic::error("internal error: an exception no diagnostic describes"));
  }
}

// The export in the child: its own progress line, the modules it imported before forward.
std::string child_export(const std::shared_ptr<Session>& s, ExportOptions o, const ExportPlan& plan, bool progress,
                         const std::set<std::string>& had, const std::string& output_path) {
  ExportResult r;
  r.output_path = output_path;
  std::vector<std::string> imported;
  contained(&r.failure, &r.diagnostics, [&] {
    std::optional<ProgressLine> line;
    o.progress = nullptr;
    if (progress) {
      line.emplace(true);
      o.progress = [&line](const std::string& what, double fraction) { line->phase(what, fraction); };
    }
    s->opts = o;
    s->note_modules = true;
    run_export(s, o, plan, true, r);
    for (const std::string& name : s->modules_at_forward)
      if (!had.count(name) && name != s->module_name) imported.push_back(name);
  });
  s->I->flush();
  return encode(r, imported);
}

std::string encode_inspect(const InspectResult& r) {
  ResultWriter w;
  w.outcome(r.failure, r.diagnostics);
  w.str(r.text);
  return w.finish();
}

InspectResult decode_inspect(const std::string& bytes) {
  ResultReader in(bytes);
  InspectResult r;
  in.outcome(&r.failure, &r.diagnostics);
  r.text = in.str();
  if (!in.done()) throw std::runtime_error("trailing bytes");
  return r;
}

// inspect in the child (as child_export).
std::string child_inspect(const std::shared_ptr<Session>& s, ExportOptions o) {
  InspectResult r;
  contained(&r.failure, &r.diagnostics, [&] {
    o.progress = nullptr;
    s->opts = o;
    run_inspect(*s, o, true, r);
  });
  s->I->flush();
  return encode_inspect(r);
}

}  // namespace

// ---- a thread with a big stack that runs one job at a time -----------------------------------------
// The evaluator recurses on the C++ stack (eval::run_with_big_stack) and keeps per-thread state
// (the current heap, torch's recorder, type caches): the kept interpreter is made, used and freed
// on this one thread.
class KeptModules::Worker {
 public:
  Worker() {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kStackBytes);
    int rc = pthread_create(&thread_, &attr, &Worker::main, this);
    pthread_attr_destroy(&attr);
    if (rc != 0) throw std::runtime_error("cannot start the thread that keeps imported modules");
  }
  ~Worker() {
    {
      std::lock_guard<std::mutex> l(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    pthread_join(thread_, nullptr);
  }
  // Runs fn on the thread and waits for it; an exception it throws is rethrown here.
  void run(const std::function<void()>& fn) {
    std::unique_lock<std::mutex> l(mu_);
    job_ = &fn;
    error_ = nullptr;
    cv_.notify_all();
    cv_.wait(l, [this] { return job_ == nullptr; });
    if (error_) std::rethrow_exception(error_);
  }

 private:
#if defined(__SANITIZE_ADDRESS__)
  static constexpr size_t kStackBytes = 48u << 20;  // as eval::run_with_big_stack under ASan
#else
  static constexpr size_t kStackBytes = 512u << 20;
#endif
  static void* main(void* self) {
    auto* w = static_cast<Worker*>(self);
    std::unique_lock<std::mutex> l(w->mu_);
    while (true) {
      w->cv_.wait(l, [w] { return w->stop_ || w->job_ != nullptr; });
      if (w->job_ == nullptr) return nullptr;
      l.unlock();
      std::exception_ptr err;
      try {
        (*w->job_)();
      } catch (...) {
        err = std::current_exception();
      }
      l.lock();
      w->error_ = err;
      w->job_ = nullptr;
      w->cv_.notify_all();
    }
  }
  pthread_t thread_{};
  std::mutex mu_;
  std::condition_variable cv_;
  const std::function<void()>* job_ = nullptr;
  std::exception_ptr error_;
  bool stop_ = false;
};

struct KeptModules::State {
  std::string key;
  eval::FileStamps stamps;
  std::shared_ptr<Session> session;
  std::vector<std::string> ahead;  // modules the last export imported: imported here before the next
  ~State() {
    if (session) session->I->stamps = nullptr;
  }
};

namespace {
std::atomic<bool> g_own_fork{false};  // set around KeptModules' own fork(); stays set in its child
}  // namespace

bool KeptModules::in_own_fork() { return g_own_fork; }

// Each export runs in a fork of this process: what every export builds the same way is built here
// once (libonnx's schema registry, which lowering and the verifier read).
KeptModules::KeptModules() { ir::load_onnx_schemas(); }

KeptModules::~KeptModules() { drop(); }

void KeptModules::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  drop();
}

void KeptModules::drop() {
  if (worker_ && state_) worker_->run([this] { state_.reset(); });
  state_.reset();
  worker_.reset();  // a new interpreter gets a new thread (fresh per-thread state)
}

namespace {

// The caller's progress line, drawn in this process while it imports.
struct ParentProgress {
  std::optional<ProgressLine> line;
  std::function<void(const std::string&, double)> fn;
  explicit ParentProgress(bool on) {
    if (!on) return;
    line.emplace(true);
    fn = [this](const std::string& what, double fraction) { line->phase(what, fraction); };
  }
};

}  // namespace

KeptModules::Prepared KeptModules::prepare(const ExportOptions& o, bool progress, const std::string& key) {
  Prepared out = Prepared::kFailed;
  if (!worker_) worker_ = std::make_unique<Worker>();
  worker_->run([&] {
    ParentProgress pp(progress);
    try {
      if (!state_) {
        if (pp.fn) pp.fn("importing " + (o.module.empty() ? o.source : o.module), -1);
        ExportOptions so = o;
        so.progress = nullptr;
        auto st = std::make_unique<State>();
        st->key = key;
        st->session = std::make_shared<Session>(so);
        st->session->I->stamps = &st->stamps;
        st->session->import_source();
        state_ = std::move(st);
        out = Prepared::kFresh;
        return;
      }
      // What the last export imported while building its model, imported here in its order. One
      // that does not import cleanly (unknown, or raising) would leave this state unlike the
      // child's: the state is dropped and the name not imported ahead again.
      eval::Interp& I = *state_->session->I;
      std::vector<std::string> ahead = std::move(state_->ahead);
      for (const std::string& name : ahead) {
        if (eval::dict_get(I, I.modules.get(), name)) continue;
        if (pp.fn) pp.fn("importing " + name, -1);
        eval::Value m;
        try {
          m = I.loader().import_module(name, nullptr, 0, false, SourceRange{});
        } catch (...) {
        }
        if (!m || eval::is_poison(m)) {
          skip_.insert(name);
          state_.reset();
          out = Prepared::kRetry;
          return;
        }
      }
      out = Prepared::kReused;
    } catch (...) {
      state_.reset();  // SOURCE did not import
    }
  });
  return out;
}

KeptModules::Prepared KeptModules::ready(const ExportOptions& o, bool progress) {
  std::string key = state_key(o);
  if (state_ && (state_->key != key || !state_->stamps.changed().empty())) drop();
  Prepared p = prepare(o, progress, key);
  if (p == Prepared::kRetry) {
    drop();
    p = prepare(o, progress, key);
  }
  return p;
}

ExportResult KeptModules::export_model(const ExportOptions& o, bool progress, int cancel_fd) {
  std::lock_guard<std::mutex> lock(mu_);
  ExportResult r;
  ExportPlan plan;
  if (!plan_export(o, &plan, &r)) return r;

  Prepared p = ready(o, progress);
  if (p == Prepared::kFailed) {
    // SOURCE did not import (or could not be kept): the export in this process reports it as usual.
    drop();
    return export_here(o, progress);
  }

  bool forked = false;
  worker_->run([&] {
    eval::Interp& I = *state_->session->I;
    std::set<std::string> had;
    for (const eval::DictEntry& e : I.modules->entries)
      if (!e.key.is_null() && eval::is_str(e.key)) had.insert(eval::as_str(e.key)->s);
    ChildRun c = run_child([&] { return child_export(state_->session, o, plan, progress, had, r.output_path); },
                           cancel_fd);
    if (!(forked = c.forked)) return;
    std::vector<std::string> imported;
    try {
      r = decode(c.result(), &imported);
    } catch (const std::exception&) {
      r = ExportResult();
      r.failure = Failure::Convert;
      r.diagnostics.add(c.failure("export"));
    }
    for (const std::string& name : imported)
      if (!skip_.count(name)) state_->ahead.push_back(name);
  });
  if (!forked) {
    // No child (out of processes or memory): this process exports from scratch.
    drop();
    return export_here(o, progress);
  }
  r.reused_modules = p == Prepared::kReused;
  return r;
}

InspectResult KeptModules::inspect_model(const ExportOptions& o, int cancel_fd) {
  std::lock_guard<std::mutex> lock(mu_);
  Prepared p = ready(o, false);
  InspectResult r;
  bool forked = false;
  if (p != Prepared::kFailed) {
    worker_->run([&] {
      ChildRun c = run_child([&] { return child_inspect(state_->session, o); }, cancel_fd);
      if (!(forked = c.forked)) return;
      try {
        r = decode_inspect(c.result());
      } catch (const std::exception&) {
        r = InspectResult();
        r.failure = Failure::Convert;
        r.diagnostics.add(c.failure("inspection"));
      }
    });
  }
  if (!forked) {
    drop();
    eval::run_with_big_stack([&] { r = torch::inspect_model(o); });
  }
  return r;
}

KeptModules::ChildRun KeptModules::run_child(const std::function<std::string()>& job, int cancel_fd) {
  ChildRun c;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return c;
  std::fflush(nullptr);  // nothing buffered is written twice
  g_own_fork = true;
  pid_t pid = ::fork();
  if (pid != 0) g_own_fork = false;
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return c;
  }
  if (pid == 0) {
    ::close(fds[0]);
    release_at_exit_enable();
    std::string bytes = job();
    release_at_exit();
    ::_exit(write_fully(fds[1], bytes.data(), bytes.size()) ? 0 : 3);
  }
  c.forked = true;
  ::close(fds[1]);
  c.bytes = read_result(fds[0], cancel_fd, pid, &c.cancelled);
  ::close(fds[0]);
  rusage usage{};
  while (::wait4(pid, &c.status, 0, &usage) < 0 && errno == EINTR) {
  }
  last_child_peak_kib_ = usage.ru_maxrss;
  return c;
}

const std::string& KeptModules::ChildRun::result() const {
  if (cancelled || !WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("no result");
  return bytes;
}

Diagnostic KeptModules::ChildRun::failure(const char* what) const {
  std::string how = cancelled ? std::string("was stopped: the command that asked for it is gone")
                    : WIFSIGNALED(status)
                        ? fmt::format("was killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)))
                    : WIFEXITED(status) && WEXITSTATUS(status) != 0
                        ? fmt::format("exited with status {}", WEXITSTATUS(status))
                        : "sent an unreadable result";
  Diagnostic d = Diagnostic::error(fmt::format("{}the process that ran the {} {}", cancelled ? "" : "internal error: ",
                                               what, how));
  if (!cancelled)
    d.with_help(fmt::format("run the {} in one process (the API's cache=False, the command line without --server) "
                            "and please report the model",
                            what));
  return d;
}

ExportResult KeptModules::export_here(const ExportOptions& o, bool progress) {
  ExportResult r;
  ParentProgress pp(progress);
  ExportOptions fo = o;
  fo.progress = pp.fn;
  eval::run_with_big_stack([&] {
    r = torch::export_model(fo);
    r.retained.reset();
  });
  return r;
}

}  // namespace onnxify::torch
