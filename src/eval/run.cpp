// Running scripts, and turning uncaught Python exceptions into the one diagnostic format.
#include <pthread.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "eval/eval.h"
#include "eval/internal.h"

namespace onnxify::eval {

static std::string exception_type_name(Interp& I, const Value& exc) {
  Type* t = I.type_of(exc);
  Value mod = dict_get_str(t->dict, I.names.__module__);
  std::string m = mod && is_str(mod) ? as_str(mod)->s : "builtins";
  if (m == "builtins" || m == "__main__") return t->qualname;
  return m + "." + t->qualname;
}

static std::string exception_line(Interp& I, const Value& exc) {
  std::string name = exception_type_name(I, exc);
  std::string text;
  try {
    text = str_string(I, exc);
  } catch (...) {
    text = "<exception str() failed>";
  }
  return text.empty() ? name : name + ": " + text;
}

Diagnostic exception_diagnostic(Interp& I, const Value& exc) {
  if (!is_exc(exc)) return Diagnostic::error("uncaught exception");
  auto* e = as<Exc>(exc);
  SourceRange where;
  if (!e->traceback.empty()) where = e->traceback.front().range;
  Diagnostic d = Diagnostic::error(exception_line(I, exc), where);
  // The traceback, innermost first: where each enclosing function was when the exception passed.
  // Long ones show their first frames and the outermost; recursion at one line is folded.
  const auto& tb = e->traceback;
  auto repeated = [&](const TraceEntry& t) {
    if (t.repeats) d.with_note(Diagnostic::note(fmt::format("previous line repeated {} more times", t.repeats)));
  };
  auto called_from = [&](const TraceEntry& t) {
    d.with_note(Diagnostic::note(
        fmt::format("called from {}", t.function == "<module>" ? "module code" : t.function + "()"), t.range));
    repeated(t);
  };
  if (!tb.empty()) repeated(tb[0]);
  constexpr size_t kShown = 8;
  size_t omitted = e->traceback_omitted;
  size_t last_middle = tb.size() < 2 ? 0 : tb.size() - 1;  // entries [1, last_middle) are the middle
  size_t middle_shown = last_middle > 1 + kShown ? kShown : (last_middle > 1 ? last_middle - 1 : 0);
  for (size_t i = 1; i < 1 + middle_shown; ++i) called_from(tb[i]);
  for (size_t i = 1 + middle_shown; i < last_middle; ++i) omitted += 1 + tb[i].repeats;
  if (omitted) d.with_note(Diagnostic::note(fmt::format("... and {} more frames", omitted)));
  if (tb.size() >= 2) called_from(tb.back());
  // Chained exceptions.
  Value cause = e->cause && !e->cause.is_none() ? e->cause : (!e->suppress_context ? e->context : Value());
  if (cause && is_exc(cause)) {
    auto* c = as<Exc>(cause);
    SourceRange cr = c->traceback.empty() ? SourceRange{} : c->traceback.front().range;
    d.with_note(Diagnostic::note(fmt::format("{}: {}", e->cause && !e->cause.is_none() ? "caused by" : "while handling",
                                             exception_line(I, cause)),
                                 cr));
  }
  if (isinstance(I, exc, I.exc.RecursionError)) {
    if (I.native_stack_ran_out)
      d.with_help(fmt::format("the evaluator's native stack ran out before the recursion budget of {} calls; a "
                              "smaller --max-depth N (or ONNXIFY_MAX_DEPTH) stops such recursion earlier",
                              I.opts.budgets.max_depth));
    else
      d.with_help(fmt::format("the recursion budget is {} calls deep; raise it with --max-depth N (or ONNXIFY_MAX_DEPTH)",
                              I.opts.budgets.max_depth));
  }
  return d;
}

int run_main_script_status(Interp& I, const std::string& path) {
  Value caught;
  try {
    I.loader().run_main(path);
  } catch (PyException& e) {
    caught = e.exc;
  } catch (...) {
    I.flush();
    throw;
  }
  I.flush();
  if (!caught) return 0;
  if (isinstance(I, caught, I.exc.SystemExit)) {
    const auto& args = as_tuple(as<Exc>(caught)->args)->items;
    if (args.empty() || args[0].is_none()) return 0;
    int64_t code;
    if (int_value(args[0], &code)) return code == 0 ? 0 : 1;
    std::string msg = str_string(I, args[0]);
    std::fprintf(stderr, "%s\n", msg.c_str());
    return 1;
  }
  throw exception_diagnostic(I, caught);
}

void run_main_script(Interp& I, const std::string& path) {
  int rc = run_main_script_status(I, path);
  if (rc != 0) throw Diagnostic::error(fmt::format("the script exited with status {}", rc));
}

void run_with_big_stack(const std::function<void()>& fn, size_t stack_bytes) {
  struct Ctx {
    const std::function<void()>* fn;
    std::exception_ptr err;
  } ctx{&fn, nullptr};
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer cannot unpoison stacks larger than 64 MiB when an exception unwinds them
  // (google/sanitizers#189); the native stack check then stops recursion earlier.
  stack_bytes = std::min<size_t>(stack_bytes, 48u << 20);
#endif
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t th;
  auto body = [](void* p) -> void* {
    auto* c = static_cast<Ctx*>(p);
    try {
      (*c->fn)();
    } catch (...) {
      c->err = std::current_exception();
    }
    return nullptr;
  };
  int rc = pthread_create(&th, &attr, body, &ctx);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    fn();
    return;
  }
  pthread_join(th, nullptr);
  if (ctx.err) std::rethrow_exception(ctx.err);
}

void apply_budget_env(Budgets& b) {
  auto num = [](const char* name, int64_t* out) {
    const char* v = std::getenv(name);
    if (!v || !*v) return;
    char* end = nullptr;
    errno = 0;
    long long x = std::strtoll(v, &end, 10);
    if (!end || *end != 0 || x <= 0 || errno == ERANGE)
      throw Diagnostic::error(fmt::format("{} must be a positive integer, not '{}'", name, v));
    *out = x;
  };
  num("ONNXIFY_MAX_STEPS", &b.max_steps);
  num("ONNXIFY_MAX_DEPTH", &b.max_depth);
  int64_t mib = 0;
  num("ONNXIFY_MAX_MEMORY", &mib);
  if (mib > 0) b.max_memory = static_cast<uint64_t>(mib) << 20;
}

}  // namespace onnxify::eval
