// Generators. A generator function's body runs on a stack of its own (a fiber), so `yield` can
// suspend it anywhere — inside nested expressions, loops, try/finally, `yield from` chains — with
// real lazy semantics (infinite generators, send, throw, close). Generator expressions need no
// stack: their body is a fixed loop nest, so they are a resumable state machine run on the caller's
// stack (the common case in model code: all(... for ...), sum(... for ...)).
#pragma once

#include <exception>
#include <vector>

#include "eval/frame.h"

namespace onnxify::eval {

struct Fiber;

struct Generator : Object {
  enum State : uint8_t { Created, Running, Suspended, Done };
  State state = Created;
  bool is_genexpr = false;
  Frame frame;              // the body's frame (its slots are `slots`)
  std::vector<Value> slots;
  Value func;               // the generator function (keeps code and globals alive)
  Value name, qualname;

  // Fiber-based generators.
  Fiber* fiber = nullptr;
  Value transfer;           // the value yielded out, or sent in
  Value thrown;             // an exception to raise at the yield point when resumed
  bool kill = false;        // unwind the body without running Python code (abandoned generator)
  Value retval;             // `return x` in the body
  std::exception_ptr error; // what the body raised

  // Generator expressions: one live iterator per `for` clause.
  std::vector<Value> iters;
  int level = 0;
  const CompExpr* comp = nullptr;

  ~Generator() override;
};

// Called by the evaluator.
Value make_generator(Interp& I, Function* fn, std::vector<Value> slots);
Value make_genexpr(Interp& I, Frame& outer, const CompExpr* ce, const Value& first_iter);
Value generator_yield(Interp& I, Frame& f, Value v);        // returns the value sent in
Value generator_yield_from(Interp& I, Frame& f, const Value& iterable);

// gen.send(v): the next yielded value, or Null when the generator finished (its return value is
// then in gen->retval).
Value generator_send(Interp& I, Generator* g, const Value& v);

}  // namespace onnxify::eval
