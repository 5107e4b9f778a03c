// Generators on fibers (ucontext), generator expressions as state machines, and the generator type.
//
// Why fibers: a tree-walking evaluator keeps its state on the C++ stack, so suspending at a
// `yield` deep inside expressions and statements needs that stack to survive; giving each running
// generator a stack of its own does that with no change to the evaluator. Stacks are reserved
// lazily (mmap, untouched pages cost nothing), reused from a pool, and bounded: the recursion
// guard checks the fiber's own stack limit, so deep recursion inside a generator is a
// RecursionError, not an overflow. On x86-64 the switch is a few instructions of our own (glibc's
// swapcontext makes a sigprocmask system call on every switch, which made generator-heavy code
// several times slower); elsewhere ucontext is used. Python handlers never run inside a C++ catch block (the
// evaluator copies the exception out first), so switching fibers inside an `except` body cannot
// interleave the C++ runtime's exception bookkeeping.
#include "eval/generator.h"

#include <sys/mman.h>
#include <ucontext.h>

#include <cstdint>

#include <unordered_set>

#include "eval/internal.h"
#include "eval/recursion.h"

#include "support/sanitizer.h"

#ifdef ONNXIFY_ASAN
extern "C" void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size);
extern "C" void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, size_t* size_old);
#endif

#if defined(__x86_64__) && defined(__linux__)
#define ONNXIFY_FAST_SWITCH 1
// onnxify_fiber_switch(from, to): saves the callee-saved registers and the SSE/x87 control words
// on the current stack, stores the stack pointer in *from, and resumes the stack `to` (saved the
// same way, or prepared by new_fiber_stack). onnxify_fiber_start is where a new fiber first
// returns to: it calls r13(r12) and never returns.
extern "C" void onnxify_fiber_switch(void** from, void* to);
extern "C" void onnxify_fiber_start();
asm(R"(
  .text
  .globl onnxify_fiber_switch
  .hidden onnxify_fiber_switch
  .type onnxify_fiber_switch, @function
onnxify_fiber_switch:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  fldcw 4(%rsp)
  ldmxcsr (%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size onnxify_fiber_switch, .-onnxify_fiber_switch

  .globl onnxify_fiber_start
  .hidden onnxify_fiber_start
  .type onnxify_fiber_start, @function
onnxify_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  callq *%r13
  ud2
  .cfi_endproc
  .size onnxify_fiber_start, .-onnxify_fiber_start
)");
#endif

namespace onnxify::eval {

void setup_cells(Interp& I, Code* c, Value* fast, const std::vector<Ref<Cell>>* closure, Frame* outer);

namespace {

constexpr size_t kStackSize = 16u << 20;  // reserved, not committed
constexpr size_t kGuard = 64u << 10;
constexpr size_t kMargin = 256u << 10;    // kept free below the recursion limit
constexpr size_t kPoolMax = 8;
constexpr size_t kFiberCharge = 64u << 10;  // charged to the memory budget per live fiber

struct GeneratorKill {};

}  // namespace

struct Fiber {
#ifdef ONNXIFY_FAST_SWITCH
  void* sp = nullptr;         // the fiber's saved stack pointer while it is not running
  void* caller_sp = nullptr;  // the resumer's, while the fiber runs
#else
  ucontext_t ctx;
  ucontext_t caller;
#endif
  char* base = nullptr;  // mapping (guard page at the bottom)
  Interp* interp = nullptr;
  Generator* gen = nullptr;
#ifdef ONNXIFY_ASAN
  void* fake_fiber = nullptr;
  void* fake_caller = nullptr;
  const void* caller_bottom = nullptr;
  size_t caller_size = 0;
#endif
  char* stack_low() const { return base + kGuard; }
  size_t stack_size() const { return kStackSize - kGuard; }
};

namespace {

thread_local std::vector<char*> g_stack_pool;
thread_local std::unordered_set<Generator*> g_live;

char* take_stack() {
  if (!g_stack_pool.empty()) {
    char* s = g_stack_pool.back();
    g_stack_pool.pop_back();
    return s;
  }
  void* p = mmap(nullptr, kStackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  mprotect(p, kGuard, PROT_NONE);
  return static_cast<char*>(p);
}

constexpr size_t kWarm = 256u << 10;  // the top of a pooled stack stays mapped (no page faults on reuse)

void give_stack(char* s) {
  if (g_stack_pool.size() < kPoolMax) {
    // Give pages below the warm top back to the system (deep recursion may have touched them),
    // keeping the reservation.
    madvise(s + kGuard, kStackSize - kGuard - kWarm, MADV_DONTNEED);
    g_stack_pool.push_back(s);
  } else {
    munmap(s, kStackSize);
  }
}

void run_body(Interp& I, Generator* g) {
  try {
    if (g->kill) throw GeneratorKill{};
    Code* c = g->frame.code;
    exec_block(I, g->frame, c->body);
    g->retval = g->frame.retval ? g->frame.retval : Value::none();
  } catch (GeneratorKill&) {
  } catch (PyException& e) {
    add_traceback(I, e.exc, g->frame);
    if (isinstance(I, e.exc, I.exc.StopIteration)) {
      // PEP 479: a StopIteration escaping a generator body becomes a RuntimeError.
      Value r = make_exception(I, I.exc.RuntimeError, "generator raised StopIteration");
      as<Exc>(r)->cause = e.exc;
      as<Exc>(r)->context = e.exc;
      as<Exc>(r)->suppress_context = true;
      g->error = std::make_exception_ptr(PyException{r});
    } else {
      g->error = std::current_exception();
    }
  } catch (...) {
    g->error = std::current_exception();
  }
  g->state = Generator::Done;
}

void fiber_main(Fiber* fb) {
#ifdef ONNXIFY_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &fb->caller_bottom, &fb->caller_size);
#endif
  run_body(*fb->interp, fb->gen);
#ifdef ONNXIFY_ASAN
  __sanitizer_start_switch_fiber(nullptr, fb->caller_bottom, fb->caller_size);
#endif
#ifdef ONNXIFY_FAST_SWITCH
  void* dead;
  onnxify_fiber_switch(&dead, fb->caller_sp);
  __builtin_unreachable();
#else
  setcontext(&fb->caller);
#endif
}

#ifndef ONNXIFY_FAST_SWITCH
void fiber_entry(unsigned lo, unsigned hi) {
  fiber_main(reinterpret_cast<Fiber*>((static_cast<uintptr_t>(hi) << 32) | lo));
}
#endif

// Prepares a new fiber's stack so that the first switch to it starts fiber_main(fb).
void init_fiber_context(Fiber* fb) {
#ifdef ONNXIFY_FAST_SWITCH
  auto* top = reinterpret_cast<uint64_t*>(fb->base + kStackSize);  // 16-byte aligned
  uint64_t* sp = top - 2;  // after the first `ret`, rsp is 16-byte aligned at onnxify_fiber_start
  uint32_t mxcsr;
  uint16_t fpucw;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpucw));
  *--sp = reinterpret_cast<uint64_t>(&onnxify_fiber_start);  // return address
  *--sp = 0;                                                 // rbp
  *--sp = 0;                                                 // rbx
  *--sp = reinterpret_cast<uint64_t>(fb);                    // r12: the argument
  *--sp = reinterpret_cast<uint64_t>(&fiber_main);           // r13: the function
  *--sp = 0;                                                 // r14
  *--sp = 0;                                                 // r15
  *--sp = static_cast<uint64_t>(mxcsr) | (static_cast<uint64_t>(fpucw) << 32);
  fb->sp = sp;
#else
  getcontext(&fb->ctx);
  fb->ctx.uc_stack.ss_sp = fb->stack_low();
  fb->ctx.uc_stack.ss_size = fb->stack_size();
  fb->ctx.uc_link = nullptr;
  uintptr_t p = reinterpret_cast<uintptr_t>(fb);
  makecontext(&fb->ctx, reinterpret_cast<void (*)()>(&fiber_entry), 2, static_cast<unsigned>(p & 0xffffffffu),
              static_cast<unsigned>(p >> 32));
#endif
}

// Switches from the caller into the generator's fiber and back.
void switch_in(Fiber* fb) {
#ifdef ONNXIFY_ASAN
  __sanitizer_start_switch_fiber(&fb->fake_caller, fb->stack_low(), fb->stack_size());
#endif
#ifdef ONNXIFY_FAST_SWITCH
  onnxify_fiber_switch(&fb->caller_sp, fb->sp);
#else
  swapcontext(&fb->caller, &fb->ctx);
#endif
#ifdef ONNXIFY_ASAN
  __sanitizer_finish_switch_fiber(fb->fake_caller, nullptr, nullptr);
#endif
}

// Switches from inside the fiber back to whoever resumed it.
void switch_out(Fiber* fb) {
#ifdef ONNXIFY_ASAN
  __sanitizer_start_switch_fiber(&fb->fake_fiber, fb->caller_bottom, fb->caller_size);
#endif
#ifdef ONNXIFY_FAST_SWITCH
  onnxify_fiber_switch(&fb->sp, fb->caller_sp);
#else
  swapcontext(&fb->ctx, &fb->caller);
#endif
#ifdef ONNXIFY_ASAN
  __sanitizer_finish_switch_fiber(fb->fake_fiber, &fb->caller_bottom, &fb->caller_size);
#endif
}

void release_fiber(Interp& I, Generator* g) {
  if (!g->fiber) return;
  give_stack(g->fiber->base);
  delete g->fiber;
  g->fiber = nullptr;
  g_live.erase(g);
  if (tl_heap && !tl_heap->tearing_down) tl_heap->adjust(g, -static_cast<int64_t>(kFiberCharge));
}

// Runs the body until its next yield or its end. Returns the yielded value, or Null at the end.
Value resume(Interp& I, Generator* g) {
  if (g->state == Generator::Running) raise(I, I.exc.ValueError, "generator already executing");
  if (g->state == Generator::Done) return Value();
  if (!g->fiber) {
    I.heap.adjust(g, static_cast<int64_t>(kFiberCharge));
    auto* fb = new Fiber();
    fb->base = take_stack();
    fb->interp = &I;
    fb->gen = g;
    init_fiber_context(fb);
    g->fiber = fb;
    g_live.insert(g);
  }
  RecursionGuard guard(I, "");
  Value keep = Value::borrow(g);  // the body may drop the last other reference
  Frame* saved_frame = I.frame;
  const char* saved_limit = I.stack_limit;
  int64_t saved_depth = I.depth;
  g->frame.back = I.frame;
  I.frame = &g->frame;
  I.stack_limit = g->fiber->stack_low() + kMargin;
  g->state = Generator::Running;
  switch_in(g->fiber);
  I.frame = saved_frame;
  I.stack_limit = saved_limit;
  I.depth = saved_depth;
  if (g->state == Generator::Done) {
    release_fiber(I, g);
    if (g->error) {
      std::exception_ptr e = g->error;
      g->error = nullptr;
      std::rethrow_exception(e);
    }
    return Value();
  }
  Value out = std::move(g->transfer);
  g->transfer = Value();
  return out;
}

// ---- generator expressions ----------------------------------------------------------------------------

Value genexpr_next(Interp& I, Generator* g) {
  if (g->state == Generator::Done) return Value();
  if (g->state == Generator::Running) raise(I, I.exc.ValueError, "generator already executing");
  Code* c = g->frame.code;
  g->state = Generator::Running;
  Value keep = Value::borrow(g);
  RecursionGuard guard(I, "");
  FrameScope scope(I, g->frame);
  try {
    for (;;) {
      if (g->level < 0) break;
      Value item = next(I, g->iters[g->level]);
      if (item.is_null()) {
        g->iters[g->level] = Value();
        --g->level;
        continue;
      }
      I.tick();
      const CompGen& gen = c->gens[g->level];
      assign(I, g->frame, gen.target, item);
      bool ok = true;
      for (const Expr* cond : gen.ifs) {
        Value cv = eval(I, g->frame, cond);
        if (condition_truth(I, g->frame, cond, cv) != kTrue) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (g->level + 1 < static_cast<int>(c->gens.size())) {
        Value src = eval(I, g->frame, c->gens[g->level + 1].iter);
        g->frame.cur = c->gens[g->level + 1].iter;
        g->iters[g->level + 1] = iter(I, src);
        ++g->level;
        continue;
      }
      Value v = eval(I, g->frame, c->elt);
      g->state = Generator::Suspended;
      return v;
    }
  } catch (PyException& e) {
    g->state = Generator::Done;
    add_traceback(I, e.exc, g->frame);
    throw;
  } catch (...) {
    g->state = Generator::Done;
    throw;
  }
  g->state = Generator::Done;
  g->iters.clear();
  return Value();
}

}  // namespace

Generator::~Generator() {
  if (fiber) {
    Heap* h = tl_heap;
    if (h && !h->tearing_down && h->interp && state == Suspended) {
      // Abandoned while suspended: unwind its stack (releasing what it holds) without running
      // Python code, since a destructor may run at any point of the evaluator.
      kill = true;
      Interp& I = *h->interp;
      try {
        refcnt = 1u << 30;  // keep this object alive while its body unwinds
        resume(I, this);
      } catch (...) {
      }
    }
    if (fiber) {
      give_stack(fiber->base);
      delete fiber;
      fiber = nullptr;
      g_live.erase(this);
    }
  }
}

void close_all_generators(Interp& I) {
  std::vector<Generator*> live(g_live.begin(), g_live.end());
  for (Generator* g : live) {
    if (!g->fiber || g->state != Generator::Suspended) continue;
    g->kill = true;
    Value keep = Value::borrow(g);
    try {
      resume(I, g);
    } catch (...) {
    }
  }
  for (char* s : g_stack_pool) munmap(s, kStackSize);
  g_stack_pool.clear();
}

Value make_generator(Interp& I, Function* fn, std::vector<Value> slots) {
  auto g = I.make<Generator>(I.t.generator, slots.size() * sizeof(Value));
  g->slots = std::move(slots);
  g->func = Value::borrow(fn);
  g->name = fn->name;
  g->qualname = fn->qualname;
  Frame& f = g->frame;
  f.code = fn->code;
  f.fast = g->slots.data();
  f.globals = fn->globals.get();
  f.builtins = fn->builtins;
  f.func = fn;
  f.gen = g.get();
  return g.take_value();
}

Value make_genexpr(Interp& I, Frame& outer, const CompExpr* ce, const Value& first_iter) {
  Code* c = ce->code;
  Value it = iter(I, first_iter);
  auto g = I.make<Generator>(I.t.generator, c->nslots * sizeof(Value));
  g->is_genexpr = true;
  g->comp = ce;
  g->slots.resize(c->nslots);
  g->name = Value::borrow(c->name);
  g->qualname = Value::borrow(c->qualname);
  if (outer.func) g->func = Value::borrow(outer.func);
  Frame& f = g->frame;
  f.code = c;
  f.fast = g->slots.data();
  f.globals = outer.globals;
  f.builtins = outer.builtins;
  f.func = outer.func;
  setup_cells(I, c, f.fast, nullptr, &outer);
  g->iters.resize(c->gens.size());
  g->iters[0] = it;
  g->level = 0;
  g->state = Generator::Created;
  return g.take_value();
}

Value generator_yield(Interp& I, Frame& f, Value v) {
  Generator* g = f.gen;
  if (!g || !g->fiber) raise(I, I.exc.SyntaxError, "'yield' outside function");
  g->transfer = std::move(v);
  g->state = Generator::Suspended;
  switch_out(g->fiber);
  // Resumed.
  if (g->kill) throw GeneratorKill{};
  if (g->thrown) {
    Value e = std::move(g->thrown);
    g->thrown = Value();
    throw PyException{e};
  }
  Value sent = std::move(g->transfer);
  g->transfer = Value();
  return sent ? sent : Value::none();
}

static Value gen_throw_impl(Interp& I, Generator* g, const Value& exc);

// The sub-iterator's next value after sending `sent` (Null when it finished; its result in *result).
static Value subiter_send(Interp& I, const Value& it, const Value& sent, Value* result) {
  if (it.is_obj() && it.obj()->type == I.t.generator && !as<Generator>(it)->is_genexpr) {
    Generator* sub = as<Generator>(it);
    Value r = generator_send(I, sub, sent);
    if (!r) *result = sub->retval ? sub->retval : Value::none();
    return r;
  }
  if (sent.is_none()) {
    Value r = next(I, it);
    if (!r) *result = Value::none();
    return r;
  }
  Value caught, r;
  try {
    r = call_method(I, it, I.names.send, sent);
  } catch (PyException& e) {
    caught = e.exc;
  }
  if (caught) {
    if (!isinstance(I, caught, I.exc.StopIteration)) throw PyException{caught};
    *result = getattr(I, caught, I.names.value);
    return Value();
  }
  return r;
}

static Value subiter_throw(Interp& I, const Value& it, const Value& exc, Value* result) {
  if (it.is_obj() && it.obj()->type == I.t.generator && !as<Generator>(it)->is_genexpr) {
    Generator* sub = as<Generator>(it);
    Value r = gen_throw_impl(I, sub, exc);
    if (!r) *result = sub->retval ? sub->retval : Value::none();
    return r;
  }
  Value th = getattr_opt(I, it, I.names.throw_);
  if (!th) throw PyException{exc};
  Value caught, r;
  try {
    r = call(I, th, exc);
  } catch (PyException& e) {
    caught = e.exc;
  }
  if (caught) {
    if (!isinstance(I, caught, I.exc.StopIteration)) throw PyException{caught};
    *result = getattr(I, caught, I.names.value);
    return Value();
  }
  return r;
}

Value generator_yield_from(Interp& I, Frame& f, const Value& iterable) {
  Value it = iter(I, iterable);
  Value result;
  Value r = subiter_send(I, it, Value::none(), &result);
  while (r) {
    Value thrown, sent;
    try {
      sent = generator_yield(I, f, std::move(r));
    } catch (PyException& e) {
      thrown = e.exc;
    }
    if (!thrown) {
      r = subiter_send(I, it, sent, &result);
      continue;
    }
    if (isinstance(I, thrown, I.exc.GeneratorExit)) {
      Value close = getattr_opt(I, it, I.names.close);
      if (close) call(I, close);
      throw PyException{thrown};
    }
    r = subiter_throw(I, it, thrown, &result);
  }
  return result ? result : Value::none();
}

Value generator_send(Interp& I, Generator* g, const Value& v) {
  if (g->is_genexpr) {
    if (!v.is_none() && g->state == Generator::Created)
      raise(I, I.exc.TypeError, "can't send non-None value to a just-started generator");
    return genexpr_next(I, g);
  }
  if (g->state == Generator::Created && !v.is_none())
    raise(I, I.exc.TypeError, "can't send non-None value to a just-started generator");
  g->transfer = v;
  return resume(I, g);
}

static Value gen_throw_impl(Interp& I, Generator* g, const Value& exc) {
  if (g->is_genexpr || g->state == Generator::Created || g->state == Generator::Done) {
    g->state = Generator::Done;
    release_fiber(I, g);
    throw PyException{exc};
  }
  g->thrown = exc;
  return resume(I, g);
}

// ---- the generator type ------------------------------------------------------------------------------

static Generator* self_gen(const Value& v) { return as<Generator>(v); }

static Value gen_iter(Interp& I, const Value& self) { return self; }
static Value gen_next(Interp& I, const Value& self) { return generator_send(I, self_gen(self), Value::none()); }

[[noreturn]] static void raise_stop(Interp& I, Generator* g) {
  Value rv = g->retval;
  g->retval = Value();
  if (rv && !rv.is_none()) throw PyException{make_exception_args(I, I.exc.StopIteration, {rv})};
  throw PyException{make_exception_args(I, I.exc.StopIteration, {})};
}

static Value gen_send_m(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "send", 1, 1);
  Generator* g = self_gen(self);
  Value r = generator_send(I, g, a[0]);
  if (!r) raise_stop(I, g);
  return r;
}

static Value exc_from_throw_args(Interp& I, const Args& a) {
  check_nargs(I, a, "throw", 1, 3);
  Value typ = a[0];
  if (is_type(typ) && as_type(typ)->is_subtype_of(I.exc.BaseException)) {
    if (a.npos > 1 && !a[1].is_none()) {
      if (isinstance(I, a[1], as_type(typ))) return a[1];
      return call(I, typ, a[1]);
    }
    return call(I, typ);
  }
  if (isinstance(I, typ, I.exc.BaseException)) {
    if (a.npos > 1 && !a[1].is_none())
      raise(I, I.exc.TypeError, "instance exception may not have a separate value");
    return typ;
  }
  raisef(I, I.exc.TypeError, "exceptions must be classes or instances deriving from BaseException, not {}",
         type_name(I, typ));
}

static Value gen_throw_m(Interp& I, const Value& self, const Args& a) {
  Value exc = exc_from_throw_args(I, a);
  Generator* g = self_gen(self);
  if (g->state == Generator::Created) {
    g->state = Generator::Done;
    throw PyException{exc};
  }
  Value r = gen_throw_impl(I, g, exc);
  if (!r) raise_stop(I, g);
  return r;
}

static Value gen_close_m(Interp& I, const Value& self, const Args& a) {
  Generator* g = self_gen(self);
  if (g->is_genexpr) {
    g->state = Generator::Done;
    g->iters.clear();
    return Value::none();
  }
  if (g->state == Generator::Created) {
    g->state = Generator::Done;
    return Value::none();
  }
  if (g->state != Generator::Suspended) return Value::none();
  Value caught;
  Value r;
  try {
    r = gen_throw_impl(I, g, make_exception_args(I, I.exc.GeneratorExit, {}));
  } catch (PyException& e) {
    caught = e.exc;
  }
  if (caught) {
    if (isinstance(I, caught, I.exc.GeneratorExit) || isinstance(I, caught, I.exc.StopIteration)) return Value::none();
    throw PyException{caught};
  }
  if (r) raise(I, I.exc.RuntimeError, "generator ignored GeneratorExit");
  return Value::none();
}

static Value gen_repr(Interp& I, const Value& self) {
  Generator* g = self_gen(self);
  return I.str(fmt::format("<generator object {} at {}>", g->qualname ? str_string(I, g->qualname) : "?",
                           static_cast<const void*>(g)));
}
static Value gen_name(Interp& I, const Value& self) { return self_gen(self)->name; }
static Value gen_qualname(Interp& I, const Value& self) { return self_gen(self)->qualname; }
static Value gen_running(Interp& I, const Value& self) {
  return Value::boolean(self_gen(self)->state == Generator::Running);
}
static Value gen_suspended(Interp& I, const Value& self) {
  return Value::boolean(self_gen(self)->state == Generator::Suspended);
}
static Value gen_frame(Interp& I, const Value& self) { return Value::none(); }

void init_generator_types(Interp& I) {
  TypeSpec s;
  s.name = "generator";
  s.layout = Layout::Generator;
  s.flags = 0;
  s.slots.iter = &gen_iter;
  s.slots.next = &gen_next;
  s.slots.repr = &gen_repr;
  s.methods = {{"send", &gen_send_m}, {"throw", &gen_throw_m}, {"close", &gen_close_m}};
  s.getsets = {{"__name__", &gen_name},        {"__qualname__", &gen_qualname}, {"gi_running", &gen_running},
               {"gi_suspended", &gen_suspended}, {"gi_frame", &gen_frame}};
  init_native_type(I, I.t.generator, s);
}

}  // namespace onnxify::eval
