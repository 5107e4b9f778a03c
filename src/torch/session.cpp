// Session: SOURCE imported as a module, --model evaluated in its namespace, the model put in eval
// mode and its modules named for the recorder.
#include <fmt/core.h>
#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <fstream>

#include "eval/code_cache.h"
#include "eval/compile.h"
#include "eval/containers.h"
#include "syntax/lexer.h"
#include "torch/driver.h"

namespace onnxify::torch {

using eval::Value;

void set_torch_state(Torch* t);

Session::Session(const ExportOptions& o) : opts(o) {
  eval::Options eo;
  eval::apply_budget_env(eo.budgets);
  if (o.cache) eo.code_cache = eval::default_code_cache_dir();
  I = std::make_unique<eval::Interp>(eo);
  T = install(*I);
}

Session::~Session() {
  // Python objects refer to the state (tensors to the recorder's graph): the interpreter goes first.
  module = Value();
  model = Value();
  T->release_values();
  I.reset();
  set_torch_state(nullptr);
  T.reset();
}

namespace {

std::string real_path(const std::string& p) {
  char buf[PATH_MAX];
  if (!::realpath(p.c_str(), buf)) return p;
  return buf;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// A dotted module name for -m: identifiers separated by dots.
bool valid_module_name(const std::string& m) {
  size_t start = 0;
  while (true) {
    size_t dot = m.find('.', start);
    if (!is_identifier(m.substr(start, dot == std::string::npos ? std::string::npos : dot - start))) return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

// Whether a model file is written for TensorFlow: a statement at the file's top level, outside any
// block, imports it (`import tensorflow as tf`, `from tensorflow import keras`). An import inside a
// try or a function is an optional integration: there the program runs as CPython would without
// TensorFlow (ImportError), since what the user's Python has is what it would see. A library's
// import does not count either.
bool imports_tensorflow(const std::string& path) {
  if (path.empty()) return false;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    for (std::string_view kw : {"import ", "from "}) {
      if (line.compare(0, kw.size(), kw) != 0) continue;
      size_t j = line.find_first_not_of(" \t", kw.size());
      if (j != std::string::npos && line.compare(j, 10, "tensorflow") == 0 &&
          (j + 10 == line.size() || !(std::isalnum(static_cast<unsigned char>(line[j + 10])) || line[j + 10] == '_')))
        return true;
    }
  }
  return false;
}

// SOURCE's dotted module name below `root`, or "" when it is not below it.
std::string dotted_name(const std::string& source, const std::string& root) {
  std::string r = real_path(root);
  if (r.empty()) return "";
  if (r.back() != '/') r += '/';
  if (source.compare(0, r.size(), r) != 0) return "";
  std::string rel = source.substr(r.size());
  if (rel.size() < 4 || rel.compare(rel.size() - 3, 3, ".py") != 0) return "";
  rel = rel.substr(0, rel.size() - 3);
  if (rel == "__init__") return "";
  if (rel.size() > 9 && rel.compare(rel.size() - 9, 9, "/__init__") == 0) rel = rel.substr(0, rel.size() - 9);
  std::string out;
  size_t start = 0;
  while (start <= rel.size()) {
    size_t slash = rel.find('/', start);
    std::string part = rel.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (!is_identifier(part)) return "";
    out += (out.empty() ? "" : ".") + part;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return out;
}

// The expression of --model as its own "file", so diagnostics quote what the user typed.
constexpr uint32_t kWrapColumns = eval::kExpressionWrapColumns;

SourceRange model_range(const std::shared_ptr<const SourceFile>& f, const SourceRange& r) {
  SourceRange out;
  out.file = f;
  auto col = [&](uint32_t c) { return c >= kWrapColumns ? c - kWrapColumns : 0; };
  out.begin = {1, r.begin.line == 1 ? col(r.begin.col) : 0};
  out.end = {1, r.end.line == 1 ? col(r.end.col) : static_cast<uint32_t>(f->text().size())};
  if (!r.known()) out.end = {1, static_cast<uint32_t>(f->text().size())};
  return out;
}

bool in_prelude(const SourceRange& r) { return r.file && r.file->path().compare(0, 10, "<onnxify>/") == 0; }

// The diagnostic without notes that point into the embedded prelude (onnxify's own frames).
Diagnostic strip_prelude_notes(const Diagnostic& d) {
  Diagnostic out(d.severity(), d.message(), d.range());
  for (const Diagnostic& n : d.notes())
    if (!in_prelude(n.range())) out.with_note(n);
  if (!d.help().empty()) out.with_help(d.help());
  return out;
}

// The --model frames of a diagnostic quote what the user typed, not compile_expression's wrapper.
Diagnostic in_model_expr(const Diagnostic& d, const std::shared_ptr<const SourceFile>& f) {
  auto fix = [&](const SourceRange& r) { return r.file && r.file->path() == "--model" ? model_range(f, r) : r; };
  bool expr_frame = d.range().file && d.range().file->path() == "--model";
  std::string msg = expr_frame && d.message() == "called from module code" ? "called from --model" : d.message();
  Diagnostic out(d.severity(), msg, fix(d.range()));
  for (const Diagnostic& n : d.notes()) out.with_note(in_model_expr(n, f));
  if (!d.help().empty()) out.with_help(d.help());
  return out;
}

}  // namespace

Diagnostic python_error(eval::Interp& I, const Value& exc) {
  Diagnostic d = eval::exception_diagnostic(I, exc);
  auto* e = eval::as<eval::Exc>(exc);
  if (e->traceback.empty() || !in_prelude(e->traceback.front().range)) return strip_prelude_notes(d);
  // Raised inside the prelude (nn.BatchNorm2d checking its input): reported at the user's innermost
  // frame, as PyTorch's own checks read to a user.
  std::vector<const eval::TraceEntry*> user;
  for (const eval::TraceEntry& t : e->traceback)
    if (t.range.file && !in_prelude(t.range)) user.push_back(&t);
  if (user.empty()) return d;
  std::string type(I.type_of(exc)->name_view());
  std::string text = eval::str_string(I, exc);
  Diagnostic out = Diagnostic::error(text.empty() ? type : type + ": " + text, user[0]->range);
  constexpr size_t kShown = 8;
  for (size_t i = 1; i < user.size() && i <= kShown; ++i)
    out.with_note(Diagnostic::note(fmt::format("called from {}", user[i]->function == "<module>" ? "module code"
                                                                                                  : user[i]->function + "()"),
                                   user[i]->range));
  return out;
}

DiagnosticList Session::failure(const Diagnostic& last) {
  DiagnosticList out;
  for (const Diagnostic& d : T->problems.items()) out.add(d);
  out.add(strip_prelude_notes(last));
  return out;
}

void Session::load_model() {
  import_source();
  build_model();
}

void Session::import_source() {
  eval::Interp& in = *I;
  struct stat st;
  if (!opts.module.empty()) {
    if (!valid_module_name(opts.module))
      throw BadInput{Diagnostic::error(fmt::format("-m '{}' is not a module name", opts.module))
                         .with_help("name an importable module with dots, e.g. -m transformers or -m timm.models")};
  } else {
    if (::stat(opts.source.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw BadInput{Diagnostic::error(fmt::format("cannot read '{}': it is a directory", opts.source))
                         .with_help("name the Python file that defines the model")};
    if (::stat(opts.source.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || !std::ifstream(opts.source).good())
      throw BadInput{Diagnostic::error(fmt::format("cannot read '{}'", opts.source))};
  }
  for (const std::string& p : opts.paths) {
    if (::stat(p.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      throw BadInput{Diagnostic::error(fmt::format("--path '{}' is not a directory", p))};
  }
  std::string src = opts.module.empty() ? real_path(opts.source) : "";
  std::string dir = src.substr(0, src.rfind('/'));
  for (const std::string& p : opts.paths) {
    if (!opts.module.empty()) break;
    module_name = dotted_name(src, p);
    if (!module_name.empty()) break;
  }
  for (const std::string& p : opts.paths) in.loader().search_path.push_back(p);
  if (!opts.module.empty()) {
    // -m MODULE: imported by name from the import roots, as `python -m` finds it (its packages first).
    module_name = opts.module;
  } else if (module_name.empty()) {
    // Not inside a package root: the file is a top-level module named after it, its folder first.
    std::string stem = src.substr(src.rfind('/') + 1);
    stem = stem.substr(0, stem.rfind('.'));
    module_name = is_identifier(stem) ? stem : "__onnxify_model__";
    in.loader().search_path.insert(in.loader().search_path.begin(), dir);
  } else {
    in.loader().search_path.push_back(dir);
  }
  // The user's Python's sys.path (its standard library, then installed packages), after everything
  // named on the command line; a folder also named with --path is searched in --path's place.
  for (const std::string& p : opts.env_paths) {
    bool named = false;
    for (const std::string& q : opts.paths) named = named || real_path(q) == real_path(p);
    if (!named) in.loader().search_path.push_back(p);
  }
  // One containment rule for every root (DESIGN.md decision 10): a module other than the exported
  // one that fails to import is an unknown value, an error only where the model uses it.
  in.loader().contain_failures = true;
  in.loader().main_module = module_name;
  if (opts.framework == "tensorflow" || (opts.framework == "auto" && imports_tensorflow(src)))
    in.loader().frameworks.insert("tensorflow");

  try {
    module = in.loader().import_module(module_name, nullptr, 0, false, SourceRange{});
  } catch (eval::PyException& e) {
    throw failure(python_error(in, e.exc));
  }
  if (eval::is_poison(module) && !opts.module.empty())
    throw BadInput{Diagnostic::error(fmt::format("-m: cannot import '{}': {}", module_name,
                                                 eval::as<eval::Poison>(module)->reason))
                       .with_help("add the folder that holds it with --path (e.g. the virtual environment's "
                                  "site-packages)")};
  if (eval::is_poison(module))
    throw failure(Diagnostic::error(fmt::format("cannot import '{}' from '{}': {}", module_name, opts.source,
                                                eval::as<eval::Poison>(module)->reason)));
  if (!opts.module.empty()) {
    Value file = eval::getattr_opt(in, module, in.names.__file__);
    if (file && eval::is_str(file)) source_path = eval::as_str(file)->s;
  } else {
    source_path = opts.source;
  }
}

void Session::build_model() {
  eval::Interp& in = *I;

  // --model EXPR in the module's namespace.
  if (opts.model_expr.find_first_not_of(" \t\r\n") == std::string::npos)
    throw BadInput{Diagnostic::error("--model is empty")
                       .with_help("--model is a Python expression giving the model, e.g. --model 'Net()' or "
                                  "--model 'resnet50(num_classes=10)'")};
  auto expr_file = std::make_shared<SourceFile>("--model", opts.model_expr);
  std::unique_ptr<eval::CodeUnit> unit;
  try {
    unit = eval::compile_expression(in, expr_file, module_name);
  } catch (const Diagnostic& d) {
    throw BadInput{Diagnostic::error(d.message(), model_range(expr_file, d.range()))};
  }
  eval::Dict* ns = module.obj()->dict;
  // A module whose names come from its __getattr__ (PEP 562; transformers' lazy module makes its
  // classes on first access): each name --model uses that the namespace and the builtins lack is
  // looked up as an attribute of the module, as `from module import Name` would, into a copy of
  // the namespace (the module's own dict is left as it is).
  eval::Ref<eval::Dict> lazy_ns;
  {
    std::vector<syntax::Token> toks;
    syntax::Lexer lexer(opts.model_expr.c_str(), static_cast<uint32_t>(opts.model_expr.size()), {}, true);
    lexer.run(toks);
    for (size_t k = 0; k < toks.size(); ++k) {
      if (toks[k].kind != syntax::TokenKind::Name || (k > 0 && toks[k - 1].kind == syntax::TokenKind::Dot)) continue;
      std::string name = opts.model_expr.substr(toks[k].begin, toks[k].end - toks[k].begin);
      if (eval::dict_get(in, ns, name) || eval::dict_get(in, in.builtins.get(), name)) continue;
      Value v;
      try {
        v = eval::getattr_opt(in, module, name);
      } catch (eval::PyException&) {
        continue;  // the name stays undefined: the NameError below says so
      }
      if (!v) continue;
      if (!lazy_ns) lazy_ns = eval::dict_copy(in, ns);
      eval::dict_set(in, lazy_ns.get(), name, v);
    }
  }
  if (lazy_ns) ns = lazy_ns.get();
  eval::CodeUnit* u = unit.get();
  in.keep(std::move(unit));
  struct ModelExpr {
    Torch& t;
    explicit ModelExpr(Torch& t) : t(t) { t.model_expr = true; }
    ~ModelExpr() { t.model_expr = false; }
  } running(*T);
  try {
    eval::exec_module_code(in, u->module, ns);
  } catch (eval::PyException& e) {
    auto* exc = eval::as<eval::Exc>(e.exc);
    bool in_expr = !exc->traceback.empty() && exc->traceback.back().range.file &&
                   exc->traceback.back().range.file->path() == "--model";
    // Raised by the expression itself (a wrong name, wrong arguments, 1/0), not by the model's own
    // code: no frame of the user's sources, only --model and onnxify's prelude.
    bool by_expr = in_expr;
    for (const eval::TraceEntry& t : exc->traceback)
      by_expr = by_expr && t.range.file && (t.range.file->path() == "--model" || in_prelude(t.range));
    if (eval::isinstance(in, e.exc, in.exc.NameError) && in_expr && exc->traceback.size() == 1) {
      // An unknown name in --model: list what the module does define.
      std::string msg = eval::str_string(in, e.exc);
      std::string name;
      size_t q1 = msg.find('\''), q2 = msg.rfind('\'');
      if (q1 != std::string::npos && q2 > q1) name = msg.substr(q1 + 1, q2 - q1 - 1);
      std::vector<std::string> candidates;
      for (const eval::DictEntry& de : ns->entries)
        if (!de.key.is_null() && eval::is_str(de.key) && !eval::as_str(de.key)->s.empty() && eval::as_str(de.key)->s[0] != '_')
          candidates.push_back(eval::as_str(de.key)->s);
      Diagnostic d = Diagnostic::error(fmt::format("name '{}' is not defined in module {}", name, module_name),
                                       model_range(expr_file, exc->traceback.front().range));
      std::string near = closest_spelling(name, candidates);
      if (!near.empty()) d.with_help(fmt::format("did you mean '{}'?", near));
      throw BadInput{d};
    }
    if (by_expr) {
      std::string type(in.type_of(e.exc)->name_view());
      std::string text = eval::str_string(in, e.exc);
      throw BadInput{Diagnostic::error(text.empty() ? type : type + ": " + text,
                                       model_range(expr_file, exc->traceback.back().range))};
    }
    throw failure(in_model_expr(python_error(in, e.exc), expr_file));
  }
  model = eval::dict_get(in, ns, "__result__");
  eval::dict_del(in, ns, in.str("__result__"));
  if (eval::is_poison(model))
    throw failure(Diagnostic::error(fmt::format("--model '{}' is unknown: {}", opts.model_expr,
                                                eval::as<eval::Poison>(model)->reason),
                                    eval::as<eval::Poison>(model)->origin));

  Value nn = in.loader().import_module("torch.nn", nullptr, 0, false, SourceRange{});
  Value module_cls = eval::getattr(in, nn, "Module");
  // TensorFlow models are often functions (`@tf.function def serve(x)`): the tensorflow module makes
  // one a module whose forward is the function, with its parameters.
  if (in.loader().frameworks.count("tensorflow") && eval::has_layout(model, eval::Layout::Function) &&
      !eval::isinstance_full(in, model, module_cls)) {
    try {
      Value tf_core = in.loader().import_module("tensorflow._core", nullptr, 0, false, SourceRange{});
      model = eval::call(in, eval::getattr(in, tf_core, in.intern("function_module")), model);
    } catch (eval::PyException& e) {
      throw failure(python_error(in, e.exc));
    }
  }
  if (!eval::isinstance_full(in, model, module_cls))
    throw BadInput{Diagnostic::error(fmt::format("--model must give a torch.nn.Module, but '{}' is a {}",
                                                 opts.model_expr, eval::type_name(in, model)),
                                     model_range(expr_file, {}))};
  model_class = std::string(eval::type_name(in, model));
  try {
    eval::call_method(in, model, in.intern("eval"));
    Value named = eval::call_method(in, model, in.intern("named_modules"));
    eval::for_each(in, named, [&](const Value& pair) {
      const auto& items = eval::as_tuple(pair)->items;
      T->rec.set_module_path(items[1].obj(), eval::as_str(items[0])->s);
      return true;
    });
  } catch (eval::PyException& e) {
    throw failure(python_error(in, e.exc));
  }
}

std::vector<Session::Param> Session::forward_params() {
  eval::Interp& in = *I;
  Value fwd = eval::getattr(in, model, "forward");
  // A bound method's first parameter is the module; a @staticmethod forward has none to skip.
  bool bound = eval::has_layout(fwd, eval::Layout::Method);
  Value fn = bound ? eval::as<eval::Method>(fwd)->func : fwd;
  std::vector<Param> out;
  if (!eval::has_layout(fn, eval::Layout::Function)) return out;
  auto* f = eval::as<eval::Function>(fn);
  eval::Code* c = f->code;
  size_t ndefaults = f->defaults.size();
  for (uint32_t k = bound ? 1 : 0; k < c->argcount; ++k)
    out.push_back({c->slot_names[k]->s, k + ndefaults >= c->argcount, false});
  for (uint32_t k = 0; k < c->kwonlycount; ++k) {
    std::string n = c->slot_names[c->argcount + k]->s;
    bool has = f->kwdefaults && eval::dict_get(in, f->kwdefaults.get(), n);
    out.push_back({n, has, false});
  }
  uint32_t at = c->argcount + c->kwonlycount;
  if (c->varargs) out.push_back({c->slot_names[at++]->s, true, true});
  if (c->varkw) out.push_back({c->slot_names[at]->s, true, true});
  return out;
}

std::string source_hash(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  return fmt::format("fnv1a64:{:016x}", h);
}

}  // namespace onnxify::torch
