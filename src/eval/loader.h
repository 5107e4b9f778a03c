// The module system: sys.modules, the search path (the script's folder, --path roots), packages
// with __init__.py, relative imports, circular imports (a module is in sys.modules, partially
// initialized, while its body runs), modules built into the binary (the stdlib subset written
// here in C++ or Python, and whatever other stages register, e.g. the torch prelude), and
// safety: modules that would reach files, processes or the network are poison.
#pragma once

#include <map>
#include <set>
#include <unordered_map>
#include <memory>
#include <string>
#include <vector>

#include "eval/interp.h"

namespace onnxify::eval {

struct CodeUnit;

class ModuleLoader {
 public:
  explicit ModuleLoader(Interp& I);
  ~ModuleLoader();

  void add_embedded(EmbeddedModule m);
  void add_native(NativeModuleDef def);
  // Registers the stdlib subset (native modules and the embedded Python sources).
  void install_stdlib();

  // Import roots, searched in order after the modules built into the binary.
  std::vector<std::string> search_path;  // the roots imports may read (script folder, --path dirs)
  // Frameworks whose modules are refused (forbidden_module_reason) unless the program being converted
  // is written for them: then onnxify's own module of that name, written in Python on its torch API,
  // is imported ("tensorflow"). Set before the first import.
  std::set<std::string> frameworks;
  // Import-fault containment (DESIGN.md decision 10), on for exports: a module read from a file,
  // other than `main_module` (the one exported), whose top-level code stops (an onnxify limit, an
  // unknown value, an exception no enclosing import handles) becomes an unknown value for its
  // importers, an error only where the model uses it. The same rule for every root: --path, the
  // user's environment, the interpreter's standard library. Off for `onnxify run`, which is
  // CPython's semantics exactly.
  bool contain_failures = false;
  std::string main_module;

  // `import a.b.c`: imports a, a.b and a.b.c; returns a (what the statement binds).
  Value import_top(const std::string& dotted, Dict* globals, bool guarded, const SourceRange& where);
  // The module `name` (relative to the importing module's package when level > 0), imported with
  // its parent packages. An unknown top-level module is poison, unless `guarded` (the import sits
  // in a try statement with handlers), where it is ModuleNotFoundError as in CPython.
  Value import_module(const std::string& name, Dict* globals, int level, bool guarded, const SourceRange& where);
  // `from module import name`: the attribute, or the submodule module.name.
  Value import_from(const Value& module, const std::string& name, bool guarded, const SourceRange& where);
  // `from module import *` into a namespace.
  void import_star(const Value& module, const Value& ns);

  // Runs a file as the main script (__name__ == "__main__"), its folder first on the path.
  void run_main(const std::string& path);
  // Compiles and runs `source` as module `name` (already created); used for files and embedded code.
  void exec_source(const Value& module, std::shared_ptr<const SourceFile> file, const std::string& name,
                   bool library = false);

  // Where module `fullname` would be loaded from, without loading it (importlib.util.find_spec):
  // the same search import does, in the parent package's __path__ or sys.path.
  struct Location {
    enum Kind { kNone, kForbidden, kBuiltin, kSource, kExtension } kind = kNone;
    std::string origin;   // kSource: the file
    std::string dir;      // kSource: the package's folder (is_package) or the module's; kExtension: its folder
    bool is_package = false;
    std::string reason;   // kForbidden
    std::string ignored;  // kNone: a sys.path folder that was not searched (outside the roots)
  };
  Location locate(const std::string& fullname, const Value& parent);

  // Names built into the binary (for diagnostics and tests).
  std::vector<std::string> builtin_module_names() const;
  // Folders' real paths (realpath), for file_access.cpp: remembered for the interpreter's life,
  // since nothing it runs can move a folder.
  std::unordered_map<std::string, std::string> resolved_folders;

  // Whether module `name` is being imported right now (its body is running).
  bool initializing(const std::string& name) const {
    for (const std::string& n : initializing_)
      if (n == name) return true;
    return false;
  }

 private:
  Value load(const std::string& fullname, bool guarded, const SourceRange& where);
  Value find_and_load(const std::string& fullname, const Value& parent, bool guarded, const SourceRange& where);
  Value load_file(const std::string& fullname, const std::string& path, bool is_package, const std::string& dir);
  // Records module `fullname` as unknown (`what` says why) in sys.modules and returns that poison.
  Value contain(const std::string& fullname, const std::string& what, const SourceRange& at);
  Value find_with_meta_path(const std::string& fullname, const Value& parent);
  Value load_embedded(const EmbeddedModule& m);
  Value load_native(const NativeModuleDef& d);
  Value unavailable(const std::string& fullname, const std::string& reason, bool guarded, const SourceRange& where);
  std::string resolve_relative(const std::string& name, Dict* globals, int level);
  // Whether imports may read `dir`: it is one of the search_path roots or under one (compared
  // lexically), whatever sys.path or a package's __path__ says.
  bool allowed_dir(const std::string& dir);

  Interp& I;
  std::vector<std::string> initializing_;
  // How many of the imports now running were started by an import statement inside a try with
  // handlers: an ImportError below one of them is the program's to handle, as in CPython.
  int guarded_loads_ = 0;
  std::set<std::string> unavailable_;  // modules unavailable() made unknown (missing, refused, compiled)
  struct Listing;
  const Listing& listing(const std::string& dir);
  std::unordered_map<std::string, std::unique_ptr<Listing>> listings_;
  std::vector<std::string> roots_;  // search_path made absolute (allowed_dir), for roots_for_ entries
  size_t roots_for_ = static_cast<size_t>(-1);
  std::map<std::string, EmbeddedModule> embedded_;
  std::map<std::string, NativeModuleDef> native_;
};

// The reason a module is refused for safety, or nullptr when it is not (e.g. "subprocess").
const char* forbidden_module_reason(const std::string& top_level_name);

}  // namespace onnxify::eval
