#include "eval/loader.h"

#include <dirent.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "eval/code.h"
#include "eval/code_cache.h"
#include "eval/compile.h"
#include "eval/file_stamps.h"
#include "eval/frame.h"
#include "eval/internal.h"
#include "eval/poison.h"

namespace onnxify::eval {

// One row per module family whose purpose is to reach outside the evaluator (DESIGN.md decision 8):
// they import as unknown values, so classes deriving from theirs and names taken from them cost
// nothing until the model needs them. Everything else of the standard library that onnxify does
// not write is read from the user's interpreter (decision 10): urllib.parse, http's constants and
// email.utils are string handling, not network access.
static const struct {
  const char* name;
  const char* reason;
} kForbidden[] = {
    {"subprocess", "running processes is not allowed"},
    {"multiprocessing", "running processes is not allowed"},
    {"concurrent", "running processes and threads is not allowed"},
    {"_thread", "threads are not supported"},
    {"signal", "signals are not allowed"},
    {"socket", "network access is not allowed"},
    {"ssl", "network access is not allowed"},
    {"select", "network access is not allowed"},
    {"selectors", "network access is not allowed"},
    {"asyncio", "async code and network access are not supported"},
    {"urllib.request", "network access is not allowed"},
    {"http.client", "network access is not allowed"},
    {"http.server", "network access is not allowed"},
    {"ftplib", "network access is not allowed"},
    {"smtplib", "network access is not allowed"},
    {"shutil", "file system access is not allowed"},
    {"tempfile", "file system access is not allowed"},
    {"glob", "file system access is not allowed"},
    {"zipfile", "file system access is not allowed"},
    {"tarfile", "file system access is not allowed"},
    {"pickle", "unpickling runs arbitrary code; it is not allowed"},
    {"marshal", "loading code objects is not allowed"},
    {"ctypes", "native code is not allowed"},
    {"runpy", "running other programs is not allowed"},
    {"code", "running other programs is not allowed"},
    {"pty", "running processes is not allowed"},
    {"webbrowser", "running processes is not allowed"},
    // Other frameworks' code: onnxify evaluates PyTorch (and Keras 3 on its torch backend), never
    // these, even where they are installed beside torch (a library's optional integration then costs
    // nothing, and a model written for them gets this reason instead of an error deep in their source).
    // TensorFlow models are evaluated on onnxify's own `tensorflow` module (ModuleLoader::frameworks).
    {"tensorflow", "TensorFlow is imported only by a model written for it: one whose own file imports tensorflow, or "
                   "with --framework tensorflow (onnxify then evaluates it on its own tensorflow module, written on its "
                   "torch API); a library's optional TensorFlow integration is left out"},
    {"tf_keras", "Keras 2 (tf_keras) runs on TensorFlow, which onnxify does not evaluate; Keras 3 (`import keras`) "
                 "models convert"},
    {"jax", "JAX code is not evaluated: onnxify converts PyTorch models and Keras 3 models (on Keras' torch backend)"},
    {"jaxlib", "JAX code is not evaluated: onnxify converts PyTorch models and Keras 3 models (on Keras' torch "
               "backend)"},
    {"flax", "Flax (JAX) code is not evaluated: onnxify converts PyTorch models and Keras 3 models (on Keras' torch "
             "backend)"},
};

const char* forbidden_module_reason(const std::string& name) {
  for (const auto& f : kForbidden) {
    size_t n = std::strlen(f.name);
    if (name.compare(0, n, f.name) == 0 && (name.size() == n || name[n] == '.')) return f.reason;
  }
  return nullptr;
}

static bool is_file(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
static bool is_dir(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// A folder's entries, read once per interpreter (as CPython's FileFinder caches them): nothing an
// evaluated program does can add files, and an import searches every sys.path folder for every
// top-level name (three lookups and a listing each, a measured share of importing transformers).
struct ModuleLoader::Listing {
  std::unordered_map<std::string, unsigned char> entries;  // name -> dirent d_type
  std::unordered_set<std::string> extension_stems;          // "x" for x.so, x.abi3.so, x.cpython-311-...so
  bool has(const std::string& dir, const std::string& name, bool want_dir) const {
    auto it = entries.find(name);
    if (it == entries.end()) return false;
    if (it->second == DT_DIR) return want_dir;
    if (it->second == DT_REG) return !want_dir;
    std::string p = dir.empty() ? name : dir + "/" + name;  // a link, or a file system without d_type
    return want_dir ? is_dir(p) : is_file(p);
  }
};

const ModuleLoader::Listing& ModuleLoader::listing(const std::string& dir) {
  auto [it, added] = listings_.try_emplace(dir);
  if (!added) return *it->second;
  it->second = std::make_unique<Listing>();
  if (I.stamps) I.stamps->add(dir, FileStamps::kImports);  // a module added or removed here is a change
  if (DIR* d = ::opendir(dir.empty() ? "." : dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 3 && n.compare(n.size() - 3, 3, ".so") == 0) it->second->extension_stems.insert(n.substr(0, n.find('.')));
      it->second->entries.emplace(std::move(n), e->d_type);
    }
    ::closedir(d);
  }
  return *it->second;
}

ModuleLoader::ModuleLoader(Interp& interp) : I(interp) {}
ModuleLoader::~ModuleLoader() = default;

void ModuleLoader::add_embedded(EmbeddedModule m) {
  std::string name = m.name;
  embedded_[name] = std::move(m);
}
void ModuleLoader::add_native(NativeModuleDef def) {
  std::string name = def.name;
  native_[name] = std::move(def);
}

std::vector<std::string> ModuleLoader::builtin_module_names() const {
  std::vector<std::string> out;
  for (auto& [n, d] : native_) out.push_back(n);
  for (auto& [n, m] : embedded_) out.push_back(n);
  return out;
}

static Value sys_module_get(Interp& I, const std::string& name) { return dict_get(I, I.modules.get(), I.str(name)); }

// ModuleNotFoundError with `name` set, as CPython's import system raises it.
[[noreturn]] static void module_not_found(Interp& I, const std::string& fullname, std::string message) {
  Value e = make_exception(I, I.exc.ModuleNotFoundError, std::move(message));
  if (!e.obj()->dict) e.obj()->dict = new_dict_ref(I).release();
  dict_set(I, e.obj()->dict, "name", I.str(fullname));
  throw PyException{e};
}

Value ModuleLoader::unavailable(const std::string& fullname, const std::string& reason, bool guarded,
                                const SourceRange& where) {
  if (guarded) module_not_found(I, fullname, fmt::format("No module named '{}'", fullname));
  Value p = make_poison(I, fullname, fmt::format("module '{}' is not available: {}", fullname, reason), where);
  dict_set(I, I.modules.get(), I.str(fullname), p);
  unavailable_.insert(fullname);
  return p;
}

Value ModuleLoader::load_native(const NativeModuleDef& d) {
  Ref<Module> m = new_module(I, d.name);
  Value mv = m.value();
  dict_set(I, I.modules.get(), I.str(d.name), mv);
  try {
    d.init(I, m.get());
  } catch (...) {
    dict_del(I, I.modules.get(), I.str(d.name));
    throw;
  }
  return mv;
}

void ModuleLoader::exec_source(const Value& module, std::shared_ptr<const SourceFile> file, const std::string& name,
                               bool library) {
  std::unique_ptr<CodeUnit> unit = compile_module_cached(I, std::move(file), name, I.opts.code_cache);
  unit->library = library;
  CodeUnit* u = unit.get();
  I.keep(std::move(unit));
  initializing_.push_back(name);
  try {
    exec_module_code(I, u->module, module.obj()->dict);
  } catch (...) {
    initializing_.pop_back();
    throw;
  }
  initializing_.pop_back();
}

static Value new_source_module(Interp& I, const std::string& name, const std::string& file, bool is_package,
                               const std::string& dir) {
  Ref<Module> m = new_module(I, name);
  Dict* d = m->dict;
  dict_set_str(I, d, I.names.__file__, I.str(file));
  dict_set(I, d, "__cached__", Value::none());
  dict_set_str(I, d, I.names.__builtins__, I.builtins_module.value());
  std::string package = is_package ? name : (name.rfind('.') == std::string::npos ? "" : name.substr(0, name.rfind('.')));
  dict_set_str(I, d, I.names.__package__, I.str(package));
  if (is_package) dict_set_str(I, d, I.names.__path__, new_list(I, {I.str(dir)}));
  return m.take_value();
}

Value ModuleLoader::load_file(const std::string& fullname, const std::string& path, bool is_package,
                              const std::string& dir) {
  std::shared_ptr<const SourceFile> file = SourceFile::load(path);
  if (I.stamps) I.stamps->add(path);
  Value m = new_source_module(I, fullname, path, is_package, dir);
  // __spec__ as CPython's path finder sets it (filelock reads `__spec__.parent` at import time).
  Value machinery = load("importlib.machinery", false, SourceRange{});
  if (!is_poison(machinery))
    dict_set_str(I, m.obj()->dict, I.names.__spec__,
                 call(I, getattr(I, machinery, I.intern("_spec_for_file")), I.str(fullname), I.str(path),
                      is_package ? I.str(dir) : Value::none()));
  Value key = I.str(fullname);
  dict_set(I, I.modules.get(), key, m);
  bool contained = contain_failures && fullname != main_module;
  try {
    exec_source(m, file, fullname);
  } catch (const Diagnostic& d) {
    dict_del(I, I.modules.get(), key);
    if (!contained) throw;
    // Code onnxify does not run (exec), a value it cannot know, an op it lacks: no Python handler
    // can catch these, so the module is unknown for every importer, an error only where its names
    // reach the model (DESIGN.md decisions 6 and 10).
    std::string at = d.range().known() && d.range().file
                         ? fmt::format(" (at {}:{})", d.range().file->path(), d.range().begin.line)
                         : std::string();
    bool unknown = dynamic_cast<const UnknownValueError*>(&d) != nullptr;
    return contain(fullname,
                   fmt::format("importing it stopped{}{}: {}", unknown ? " on an unknown value" : "", at, d.message()),
                   I.user_range());
  } catch (PyException& e) {
    dict_del(I, I.modules.get(), key);
    // An ImportError under an import in a try (here or further up the import chain) is the
    // program's, as in CPython: `try: import x / except ImportError:` takes its fallback. Any other
    // exception: the user's Python imports this module without one, so it comes from what onnxify
    // runs differently (a C extension's value, a newer stdlib name); the module is unknown, like one
    // stopped by an unknown value, and the failure stops here rather than in a bigger importer.
    if (!contained || (guarded_loads_ > 0 && isinstance(I, e.exc, I.exc.ImportError))) throw;
    auto* exc = as<Exc>(e.exc);
    std::string at;
    if (!exc->traceback.empty() && exc->traceback.front().range.known() && exc->traceback.front().range.file)
      at = fmt::format(" (at {}:{})", exc->traceback.front().range.file->path(),
                       exc->traceback.front().range.begin.line);
    std::string text = str_string(I, e.exc);
    return contain(fullname,
                   fmt::format("importing it raised {}{}{}", type_name(I, e.exc), text.empty() ? "" : ": " + text, at),
                   I.user_range());
  } catch (...) {
    dict_del(I, I.modules.get(), key);
    throw;
  }
  // The module may have replaced itself in sys.modules.
  Value now = dict_get(I, I.modules.get(), key);
  return now ? now : m;
}

Value ModuleLoader::contain(const std::string& fullname, const std::string& what, const SourceRange& at) {
  Value p = make_poison(I, fullname, what, at);
  dict_set(I, I.modules.get(), I.str(fullname), p);
  return p;
}

Value ModuleLoader::load_embedded(const EmbeddedModule& e) {
  auto file = std::make_shared<SourceFile>(e.filename, std::string(e.source));
  std::string dir = e.is_package ? "<onnxify>/" + e.name : "";
  Value m = new_source_module(I, e.name, e.filename, e.is_package, dir);
  // A built-in module's __spec__ (importlib.util.find_spec returns it for modules already imported).
  if (e.name != "importlib" && e.name != "importlib.machinery") {
    Value machinery = load("importlib.machinery", false, SourceRange{});
    if (!is_poison(machinery))
      dict_set_str(I, m.obj()->dict, I.names.__spec__,
                   call(I, getattr(I, machinery, I.intern("_spec_for_builtin")), I.str(e.name),
                        Value::boolean(e.is_package)));
  }
  Value key = I.str(e.name);
  dict_set(I, I.modules.get(), key, m);
  try {
    exec_source(m, file, e.name, /*library=*/true);
  } catch (...) {
    dict_del(I, I.modules.get(), key);
    throw;
  }
  Value now = dict_get(I, I.modules.get(), key);
  return now ? now : m;
}

ModuleLoader::Location ModuleLoader::locate(const std::string& fullname, const Value& parent) {
  Location loc;
  const char* why = forbidden_module_reason(fullname);
  if (why && frameworks.count(fullname.substr(0, fullname.find('.')))) why = nullptr;
  if (why) {
    loc.kind = Location::kForbidden;
    loc.reason = why;
    return loc;
  }
  if (native_.count(fullname) || embedded_.count(fullname)) {
    loc.kind = Location::kBuiltin;
    auto emb = embedded_.find(fullname);
    loc.is_package = emb != embedded_.end() && emb->second.is_package;
    return loc;
  }
  std::string leaf = fullname.substr(fullname.rfind('.') == std::string::npos ? 0 : fullname.rfind('.') + 1);
  std::vector<std::string> dirs;
  if (parent) {
    Value path = getattr_opt(I, parent, I.names.__path__);
    if (path && (is_list(path) || is_tuple(path)))
      for (const Value& d : to_vector(I, path))
        if (is_str(d)) dirs.push_back(as_str(d)->s);
  } else {
    // Once `sys` is imported, sys.path is the search path (a program may insert its own folder),
    // as in CPython; it starts as a copy of search_path.
    Value sys = sys_module_get(I, "sys");
    Value path = sys && sys.obj()->dict ? dict_get(I, sys.obj()->dict, I.str("path")) : Value();
    if (path && is_list(path)) {
      for (const Value& d : as_list(path)->items)
        if (is_str(d)) dirs.push_back(as_str(d)->s);
    } else {
      dirs = search_path;
    }
  }
  for (const std::string& dir : dirs) {
    if (!allowed_dir(dir)) {
      // A program may add any folder to sys.path or a package's __path__, but only the script's
      // folder and the --path folders (and what is under them) are read: safety, decision 8.
      if (loc.ignored.empty()) loc.ignored = dir;
      continue;
    }
    std::string base = dir.empty() ? leaf : dir + "/" + leaf;
    const Listing& here = listing(dir);
    if (here.has(dir, leaf, true) && listing(base).has(base, "__init__.py", false)) {
      loc.kind = Location::kSource;
      loc.origin = base + "/__init__.py";
      loc.is_package = true;
      loc.dir = base;
      return loc;
    }
    if (here.has(dir, leaf + ".py", false)) {
      loc.kind = Location::kSource;
      loc.origin = base + ".py";
      loc.dir = dir;
      return loc;
    }
    if (here.extension_stems.count(leaf)) {  // leaf.so, leaf.abi3.so, leaf.cpython-311-x86_64-linux-gnu.so
      loc.kind = Location::kExtension;
      loc.dir = dir;
      return loc;
    }
  }
  return loc;
}

// PEP 451: finders a program put on sys.meta_path (six.moves, transformers' legacy module aliases)
// are asked, in order, for a module the search path does not have; the spec's loader makes and
// runs it. importlib.machinery's own finders stand for the search already done and are skipped.
Value ModuleLoader::find_with_meta_path(const std::string& fullname, const Value& parent) {
  Value sys = sys_module_get(I, "sys");
  Value meta_path = sys && sys.obj()->dict ? dict_get(I, sys.obj()->dict, I.str("meta_path")) : Value();
  if (!meta_path || !is_list(meta_path)) return Value();
  Value machinery = sys_module_get(I, "importlib.machinery");
  auto is_builtin_finder = [&](const Value& finder) {
    if (!machinery || is_poison(machinery)) return false;
    for (const char* n : {"BuiltinImporter", "FrozenImporter", "PathFinder"}) {
      Value c = getattr_opt(I, machinery, I.intern(n));
      if (c && c.is_obj() && finder.is_obj() && c.obj() == finder.obj()) return true;
    }
    return false;
  };
  Value path = parent ? getattr_opt(I, parent, I.names.__path__) : Value();
  std::vector<Value> finders = as_list(meta_path)->items;  // a finder may change the list
  for (const Value& finder : finders) {
    if (is_poison(finder) || is_builtin_finder(finder)) continue;
    Value find_spec = getattr_opt(I, finder, I.intern("find_spec"));
    if (!find_spec) continue;
    Value spec = call(I, find_spec, I.str(fullname), path ? path : Value::none(), Value::none());
    if (spec.is_none() || is_poison(spec)) continue;
    Value loader = getattr(I, spec, I.intern("loader"));
    Value module;
    if (Value create = getattr_opt(I, loader, I.intern("create_module"))) module = call(I, create, spec);
    if (!module || module.is_none()) module = new_module(I, fullname).take_value();
    // What importlib._bootstrap._init_module_attrs sets before the module runs.
    if (!getattr_opt(I, module, I.names.__name__)) setattr(I, module, I.names.__name__, I.str(fullname));
    setattr(I, module, I.names.__spec__, spec);
    setattr(I, module, I.intern("__loader__"), loader);
    Value locations = getattr_opt(I, spec, I.intern("submodule_search_locations"));
    if (locations && !locations.is_none()) setattr(I, module, I.names.__path__, locations);
    Value parent_name = getattr_opt(I, spec, I.intern("parent"));
    setattr(I, module, I.names.__package__, parent_name ? parent_name : I.str(""));
    Value origin = getattr_opt(I, spec, I.intern("origin"));
    Value has_location = getattr_opt(I, spec, I.intern("has_location"));
    if (origin && is_str(origin) && has_location && is_true(I, has_location))
      setattr(I, module, I.names.__file__, origin);
    Value key = I.str(fullname);
    dict_set(I, I.modules.get(), key, module);
    try {
      if (Value exec = getattr_opt(I, loader, I.intern("exec_module")))
        call(I, exec, module);
      else
        module = call(I, getattr(I, loader, I.intern("load_module")), key);
    } catch (...) {
      dict_del(I, I.modules.get(), key);
      throw;
    }
    Value now = dict_get(I, I.modules.get(), key);
    return now ? now : module;
  }
  return Value();
}

Value ModuleLoader::find_and_load(const std::string& fullname, const Value& parent, bool guarded,
                                  const SourceRange& where) {
  Location loc = locate(fullname, parent);
  switch (loc.kind) {
    // Inside a try, a refused module raises ImportError, as on a Python built without it: the
    // program's fallback runs (platform's `try: import subprocess / except ImportError: return`).
    case Location::kForbidden: return unavailable(fullname, loc.reason, guarded, where);
    case Location::kBuiltin: {
      auto nat = native_.find(fullname);
      if (nat != native_.end()) return load_native(nat->second);
      return load_embedded(embedded_.find(fullname)->second);
    }
    case Location::kSource: return load_file(fullname, loc.origin, loc.is_package, loc.dir);
    // A compiled extension module (regex._regex next to regex's Python files): it exists, so it is
    // not "No module named", but its code is machine code the evaluator cannot run. An unknown
    // value, an error only where it matters (decision 6).
    case Location::kExtension:
      return unavailable(fullname, "it is a compiled extension module (machine code onnxify does not run)", guarded,
                         where);
    case Location::kNone: break;
  }
  if (Value m = find_with_meta_path(fullname, parent)) return m;
  if (parent) {
    // A submodule of a library package written here that we do not provide (importlib.machinery):
    // unknown like a missing top-level module, not an error of the program.
    std::string parent_name = fullname.substr(0, fullname.rfind('.'));
    if (embedded_.count(parent_name) || native_.count(parent_name))
      return unavailable(fullname, fmt::format("onnxify's '{}' does not include it", parent_name), guarded, where);
    module_not_found(I, fullname, fmt::format("No module named '{}'", fullname));
  }
  // Unknown top-level modules: part of CPython's standard library we do not provide, or a package
  // that is not installed (torch, before the torch stage registers its prelude).
  std::string why = "no module of that name is built into onnxify or found on the search path";
  if (!loc.ignored.empty())
    why += fmt::format(" (sys.path folders outside the script's folder and the --path folders, like '{}', are "
                       "not searched; add them with --path)",
                       loc.ignored);
  return unavailable(fullname, why, guarded, where);
}

// An absolute, lexically normalized path ("." and ".." collapsed; symbolic links are not resolved:
// a link the user placed inside a root is theirs to place).
static std::string lexical_abs(const std::string& p) {
  std::string full = p;
  if (full.empty() || full[0] != '/') {
    char cwd[PATH_MAX];
    full = std::string(::getcwd(cwd, sizeof cwd) ? cwd : "/") + "/" + full;
  }
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= full.size()) {
    size_t j = full.find('/', i);
    if (j == std::string::npos) j = full.size();
    std::string part = full.substr(i, j - i);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    i = j + 1;
  }
  std::string out;
  for (const std::string& part : parts) out += "/" + part;
  return out.empty() ? "/" : out;
}

bool ModuleLoader::allowed_dir(const std::string& dir) {
  if (roots_for_ != search_path.size()) {
    roots_.clear();
    for (const std::string& r : search_path) roots_.push_back(lexical_abs(r));
    roots_for_ = search_path.size();
  }
  std::string d = lexical_abs(dir);
  for (const std::string& r : roots_)
    if (d == r || r == "/" || (d.size() > r.size() && d.compare(0, r.size(), r) == 0 && d[r.size()] == '/'))
      return true;
  return false;
}

Value ModuleLoader::load(const std::string& fullname, bool guarded, const SourceRange& where) {
  Value m = sys_module_get(I, fullname);
  // A module an unguarded import found unavailable is an unknown value in sys.modules; an import in
  // a try still gets the ImportError it would have got first.
  if (m && guarded && is_poison(m) && unavailable_.count(fullname))
    module_not_found(I, fullname, fmt::format("No module named '{}'", fullname));
  if (m) return m;
  size_t dot = fullname.rfind('.');
  Value parent;
  if (dot != std::string::npos) {
    std::string parent_name = fullname.substr(0, dot);
    parent = load(parent_name, guarded, where);
    if (is_poison(parent)) {
      Value p = make_poison(I, fullname, as<Poison>(parent)->reason, as<Poison>(parent)->origin);
      return p;
    }
    // Importing the parent may have imported this module.
    m = sys_module_get(I, fullname);
    if (m) return m;
    if (!getattr_opt(I, parent, I.names.__path__)) {
      module_not_found(I, fullname, fmt::format("No module named '{}'; '{}' is not a package", fullname, parent_name));
    }
  }
  {
    struct GuardScope {
      int& n;
      bool on;
      GuardScope(int& n, bool on) : n(n), on(on) { n += on; }
      ~GuardScope() { n -= on; }
    } scope(guarded_loads_, guarded);
    m = find_and_load(fullname, parent, guarded, where);
  }
  if (parent) {
    // The submodule (an unknown one too: importlib.machinery) becomes an attribute of its package.
    setattr(I, parent, I.intern(fullname.substr(dot + 1)), m);
  }
  return m;
}

std::string ModuleLoader::resolve_relative(const std::string& name, Dict* globals, int level) {
  Value pkg = dict_get_str(globals, I.names.__package__);
  std::string package;
  if (pkg && is_str(pkg)) {
    package = as_str(pkg)->s;
  } else {
    Value n = dict_get_str(globals, I.names.__name__);
    if (n && is_str(n)) {
      package = as_str(n)->s;
      if (!dict_get_str(globals, I.names.__path__)) {
        size_t d = package.rfind('.');
        package = d == std::string::npos ? "" : package.substr(0, d);
      }
    }
  }
  if (package.empty()) raise(I, I.exc.ImportError, "attempted relative import with no known parent package");
  std::string base = package;
  for (int k = 1; k < level; ++k) {
    size_t d = base.rfind('.');
    if (d == std::string::npos) raise(I, I.exc.ImportError, "attempted relative import beyond top-level package");
    base = base.substr(0, d);
  }
  return name.empty() ? base : base + "." + name;
}

Value ModuleLoader::import_module(const std::string& name, Dict* globals, int level, bool guarded,
                                  const SourceRange& where) {
  std::string full = level > 0 ? resolve_relative(name, globals, level) : name;
  if (full.empty()) raise(I, I.exc.ValueError, "Empty module name");
  return load(full, guarded, where);
}

Value ModuleLoader::import_top(const std::string& dotted, Dict* globals, bool guarded, const SourceRange& where) {
  Value leaf = load(dotted, guarded, where);
  size_t dot = dotted.find('.');
  if (dot == std::string::npos) return leaf;
  Value top = sys_module_get(I, dotted.substr(0, dot));
  return top ? top : leaf;
}

Value ModuleLoader::import_from(const Value& module, const std::string& name, bool guarded, const SourceRange& where) {
  if (is_poison(module)) return make_poison(I, as<Poison>(module)->what + "." + name, as<Poison>(module)->reason,
                                            as<Poison>(module)->origin);
  Str* n = I.intern(name);
  Value v = getattr_opt(I, module, n);
  if (v) return v;
  Value modname = getattr_opt(I, module, I.names.__name__);
  std::string mn = modname && is_str(modname) ? as_str(modname)->s : "?";
  if (getattr_opt(I, module, I.names.__path__)) {
    Value sub;
    Value caught;
    try {
      sub = load(mn + "." + name, guarded, where);
    } catch (PyException& e) {
      caught = e.exc;
    }
    if (sub) return sub;
    // Only "this submodule does not exist" becomes "cannot import name"; any other failure while
    // importing it (a missing module it imports, an exception in its code) propagates.
    if (caught) {
      Value missing = isinstance(I, caught, I.exc.ModuleNotFoundError) && caught.obj()->dict
                          ? dict_get(I, caught.obj()->dict, I.str("name"))
                          : Value();
      if (!missing || !is_str(missing) || as_str(missing)->s != mn + "." + name) throw PyException{caught};
    }
  }
  // A name missing from a module onnxify writes in Python (its stdlib subset, the torch prelude) is
  // most likely one CPython's module has and ours does not (string.Formatter): an unknown value, an
  // error only where it is used (decision 6). Inside a try statement it stays ImportError, which the
  // program handles; the native modules (sys, math) are complete enough to answer as CPython.
  if (!guarded && embedded_.count(mn))
    return make_poison(I, mn + "." + name, fmt::format("onnxify's '{}' does not include '{}'", mn, name), where);
  Value file = getattr_opt(I, module, I.names.__file__);
  std::string loc = file && is_str(file) ? as_str(file)->s : "unknown location";
  Value e = make_exception(I, I.exc.ImportError, fmt::format("cannot import name '{}' from '{}' ({})", name, mn, loc));
  if (!e.obj()->dict) e.obj()->dict = new_dict_ref(I).release();
  dict_set(I, e.obj()->dict, "name", I.str(mn));
  throw PyException{e};
}

void ModuleLoader::import_star(const Value& module, const Value& ns) {
  if (is_poison(module)) poison_matters(I, module, "the source of 'from ... import *'");
  Value all = getattr_opt(I, module, I.names.__all__);
  std::vector<Value> names;
  if (all) {
    names = to_vector(I, all);
  } else if (module.obj()->dict) {
    for (auto& e : module.obj()->dict->entries)
      if (!e.key.is_null() && is_str(e.key) && !as_str(e.key)->s.empty() && as_str(e.key)->s[0] != '_')
        names.push_back(e.key);
  }
  for (const Value& n : names) {
    if (!is_str(n)) raisef(I, I.exc.TypeError, "Item in {}.__all__ must be str, not {}", "module", type_name(I, n));
    Value v = getattr(I, module, I.intern(as_str(n)->s));
    setitem(I, ns, n, v);
  }
}

void ModuleLoader::run_main(const std::string& path) {
  std::shared_ptr<const SourceFile> file = SourceFile::load(path);
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? std::string(".") : path.substr(0, slash == 0 ? 1 : slash);
  search_path.insert(search_path.begin(), dir);
  Value m = new_source_module(I, "__main__", path, false, "");
  dict_set_str(I, m.obj()->dict, I.names.__package__, Value::none());
  dict_set(I, I.modules.get(), I.str("__main__"), m);
  exec_source(m, file, "__main__");
}

}  // namespace onnxify::eval
