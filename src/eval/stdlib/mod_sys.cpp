// The sys module: version information, sys.modules, sys.path, the recursion limit (the recursion
// budget), exc_info, exit, and stdout/stderr objects that write where print() writes.
#include <cfloat>

#include "eval/frame.h"
#include "eval/internal.h"
#include "eval/loader.h"
#include "eval/poison.h"

namespace onnxify::eval {

namespace {

Value make_struct(Interp& I, const char* tname, const std::vector<std::pair<const char*, Value>>& fields) {
  // A tuple subclass with named fields (like CPython's structseq).
  std::vector<Value> items;
  for (auto& [n, v] : fields) items.push_back(v);
  Ref<Dict> ns = new_dict_ref(I);
  std::vector<Value> names;
  for (auto& [n, v] : fields) names.push_back(I.str(n));
  dict_set(I, ns.get(), "_fields", new_tuple(I, names));
  dict_set(I, ns.get(), "__module__", I.str("sys"));
  Value cls = type_new_impl(I, I.t.type, I.intern(tname), {Value::borrow(I.t.tuple)}, ns.get(), Args());
  for (size_t k = 0; k < fields.size(); ++k) {
    // Each field is a property reading the tuple item.
    Value idx = Value::integer(static_cast<int64_t>(k));
    Value getter = new_native(
        I, fields[k].first,
        [](Interp& I, const Value& self, const Args& a) -> Value {
          auto* nf = as<NativeFunc>(self);
          return getitem(I, a[0], nf->data);
        },
        Value(), idx);
    // The native getter receives the NativeFunc as self: bind it by making it the self of a closure.
    as<NativeFunc>(getter)->self = getter;
    Value prop = call(I, Value::borrow(I.t.property), getter);
    setattr(I, cls, I.intern(fields[k].first), prop);
  }
  Value inst = alloc_instance(I, as_type(cls));
  as_tuple(inst)->items = std::move(items);
  return inst;
}

Value sys_getrecursionlimit(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "getrecursionlimit", 0, 0);
  return Value::integer(I.opts.budgets.max_depth);
}

Value sys_setrecursionlimit(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "setrecursionlimit", 1, 1);
  int64_t n = index(I, a[0]);
  if (n < 1) raise(I, I.exc.ValueError, "recursion limit must be greater or equal than 1");
  // A program may lower its limit, or raise it up to 10x the budget it was started with; the
  // native-stack guard still applies.
  static thread_local int64_t initial = 0;
  if (!initial) initial = I.opts.budgets.max_depth;
  I.opts.budgets.max_depth = std::min<int64_t>(n, initial * 10);
  return Value::none();
}

Value sys_exc_info(Interp& I, const Value&, const Args& a) {
  for (Frame* f = I.frame; f; f = f->back) {
    if (f->handling) {
      Value e = f->handling;
      return new_tuple(I, {Value::borrow(I.type_of(e)), e, Value::none()});
    }
  }
  return new_tuple(I, {Value::none(), Value::none(), Value::none()});
}

Value sys_exception(Interp& I, const Value&, const Args& a) {
  for (Frame* f = I.frame; f; f = f->back)
    if (f->handling) return f->handling;
  return Value::none();
}

Value sys_exit(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "exit", 0, 1);
  if (a.npos == 0) throw PyException{make_exception_args(I, I.exc.SystemExit, {})};
  throw PyException{make_exception_args(I, I.exc.SystemExit, {a[0]})};
}

Value sys_getsizeof(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "getsizeof", 1, 2);
  if (a[0].is_obj()) return Value::integer(a[0].obj()->heap_bytes);
  return Value::integer(28);
}

Value sys_intern(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "intern", 1, 1);
  if (!is_str(a[0])) raisef(I, I.exc.TypeError, "intern() argument must be str, not {}", type_name(I, a[0]));
  return Value::borrow(I.intern(as_str(a[0])->s));
}

Value stream_write(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "write", 1, 1);
  if (!is_str(a[0])) raisef(I, I.exc.TypeError, "write() argument must be str, not {}", type_name(I, a[0]));
  auto* nf = as<NativeFunc>(self);
  if (nf->data.is_int() && nf->data.i() == 2)
    I.write_err(as_str(a[0])->s);
  else
    I.write_out(as_str(a[0])->s);
  return Value::integer(as_str(a[0])->cplen);
}

Value stream_flush(Interp& I, const Value& self, const Args& a) { return Value::none(); }

// sys._getframe(depth=0): libraries read the caller's frame at import time (anyio's and
// huggingface_hub's lazy importers take the importing module's globals from it). A snapshot of
// the frame chain as plain objects: f_globals, f_lineno, f_code (co_name, co_qualname,
// co_filename) and f_back are the real ones; a function frame's f_locals is an unknown value
// (slots are not a dict here), a module or class body's is its namespace.
Value frame_snapshot(Interp& I, Frame* f, const Value& frame_cls, const Value& code_cls, int budget) {
  if (!f || budget == 0) return Value::none();
  Value code = alloc_instance(I, as_type(code_cls));
  Code* c = f->code;
  setattr(I, code, I.intern("co_name"), c && c->name ? Value::borrow(c->name) : I.str("<module>"));
  setattr(I, code, I.intern("co_qualname"), c && c->qualname ? Value::borrow(c->qualname) : I.str("<module>"));
  setattr(I, code, I.intern("co_filename"),
          c && c->unit && c->unit->file ? I.str(c->unit->file->path()) : I.str("<unknown>"));
  Value frame = alloc_instance(I, as_type(frame_cls));
  setattr(I, frame, I.intern("f_code"), code);
  setattr(I, frame, I.intern("f_globals"), f->globals ? Value::borrow(f->globals) : Value::none());
  setattr(I, frame, I.intern("f_lineno"), Value::integer(f->range().begin.line));
  setattr(I, frame, I.intern("f_locals"),
          f->ns ? f->ns : make_poison(I, "frame.f_locals", "a function frame's locals are not available to evaluated code"));
  setattr(I, frame, I.intern("f_back"), frame_snapshot(I, f->back, frame_cls, code_cls, budget - 1));
  return frame;
}

Value sys_getframe(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "_getframe", 0, 1);
  int64_t depth = a.npos ? index(I, a[0]) : 0;
  Frame* f = I.frame;
  for (int64_t k = 0; k < depth && f; ++k) f = f->back;
  if (!f) raise(I, I.exc.ValueError, "call stack is not deep enough");
  auto plain_class = [&](const char* name) {
    Ref<Dict> ns = new_dict_ref(I);
    dict_set(I, ns.get(), "__module__", I.str("builtins"));
    return type_new_impl(I, I.t.type, I.intern(name), {Value::borrow(I.t.object)}, ns.get(), Args());
  };
  // A deep chain is cut (f_back None) rather than copied whole: callers look a few frames up.
  return frame_snapshot(I, f, plain_class("frame"), plain_class("code"), 64);
}

// What a function of sys that changes interpreter state onnxify does not have (tracing, profiling,
// audit hooks, the switch interval) does: nothing, and it returns None.
Value sys_noop(Interp& I, const Value&, const Args& a) { return Value::none(); }

// The names of CPython 3.11's standard library modules (sys.stdlib_module_names): libraries ask it
// to tell stdlib imports from third-party ones.
const char* const kStdlibModuleNames[] = {
    "__future__", "_abc", "_aix_support", "_ast", "_asyncio", "_bisect", "_blake2", "_bootsubprocess", "_bz2",
    "_codecs", "_codecs_cn", "_codecs_hk", "_codecs_iso2022", "_codecs_jp", "_codecs_kr", "_codecs_tw",
    "_collections", "_collections_abc", "_compat_pickle", "_compression", "_contextvars", "_crypt", "_csv",
    "_ctypes", "_curses", "_curses_panel", "_datetime", "_dbm", "_decimal", "_elementtree", "_frozen_importlib",
    "_frozen_importlib_external", "_functools", "_gdbm", "_hashlib", "_heapq", "_imp", "_io", "_json", "_locale",
    "_lsprof", "_lzma", "_markupbase", "_md5", "_msi", "_multibytecodec", "_multiprocessing", "_opcode", "_operator",
    "_osx_support", "_overlapped", "_pickle", "_posixshmem", "_posixsubprocess", "_py_abc", "_pydecimal", "_pyio",
    "_queue", "_random", "_scproxy", "_sha1", "_sha256", "_sha3", "_sha512", "_signal", "_sitebuiltins", "_socket",
    "_sqlite3", "_sre", "_ssl", "_stat", "_statistics", "_string", "_strptime", "_struct", "_symtable", "_thread",
    "_threading_local", "_tkinter", "_tokenize", "_tracemalloc", "_typing", "_uuid", "_warnings", "_weakref",
    "_weakrefset", "_winapi", "_zoneinfo", "abc", "aifc", "antigravity", "argparse", "array", "ast", "asynchat",
    "asyncio", "asyncore", "atexit", "audioop", "base64", "bdb", "binascii", "bisect", "builtins", "bz2", "cProfile",
    "calendar", "cgi", "cgitb", "chunk", "cmath", "cmd", "code", "codecs", "codeop", "collections", "colorsys",
    "compileall", "concurrent", "configparser", "contextlib", "contextvars", "copy", "copyreg", "crypt", "csv",
    "ctypes", "curses", "dataclasses", "datetime", "dbm", "decimal", "difflib", "dis", "distutils", "doctest",
    "email", "encodings", "ensurepip", "enum", "errno", "faulthandler", "fcntl", "filecmp", "fileinput", "fnmatch",
    "fractions", "ftplib", "functools", "gc", "genericpath", "getopt", "getpass", "gettext", "glob", "graphlib",
    "grp", "gzip", "hashlib", "heapq", "hmac", "html", "http", "idlelib", "imaplib", "imghdr", "imp", "importlib",
    "inspect", "io", "ipaddress", "itertools", "json", "keyword", "lib2to3", "linecache", "locale", "logging",
    "lzma", "mailbox", "mailcap", "marshal", "math", "mimetypes", "mmap", "modulefinder", "msilib", "msvcrt",
    "multiprocessing", "netrc", "nis", "nntplib", "nt", "ntpath", "nturl2path", "numbers", "opcode", "operator",
    "optparse", "os", "ossaudiodev", "pathlib", "pdb", "pickle", "pickletools", "pipes", "pkgutil", "platform",
    "plistlib", "poplib", "posix", "posixpath", "pprint", "profile", "pstats", "pty", "pwd", "py_compile", "pyclbr",
    "pydoc", "pydoc_data", "pyexpat", "queue", "quopri", "random", "re", "readline", "reprlib", "resource",
    "rlcompleter", "runpy", "sched", "secrets", "select", "selectors", "shelve", "shlex", "shutil", "signal", "site",
    "smtpd", "smtplib", "sndhdr", "socket", "socketserver", "spwd", "sqlite3", "sre_compile", "sre_constants",
    "sre_parse", "ssl", "stat", "statistics", "string", "stringprep", "struct", "subprocess", "sunau", "symtable",
    "sys", "sysconfig", "syslog", "tabnanny", "tarfile", "telnetlib", "tempfile", "termios", "textwrap", "this",
    "threading", "time", "timeit", "tkinter", "token", "tokenize", "tomllib", "trace", "traceback", "tracemalloc",
    "tty", "turtle", "turtledemo", "types", "typing", "unicodedata", "unittest", "urllib", "uu", "uuid", "venv",
    "warnings", "wave", "weakref", "webbrowser", "winreg", "winsound", "wsgiref", "xdrlib", "xml", "xmlrpc",
    "zipapp", "zipfile", "zipimport", "zlib", "zoneinfo",
};

Value sys_getdefaultencoding(Interp& I, const Value&, const Args& a) { return I.str("utf-8"); }
Value sys_getfilesystemencodeerrors(Interp& I, const Value&, const Args& a) { return I.str("surrogateescape"); }
Value sys_getswitchinterval(Interp& I, const Value&, const Args& a) { return Value::real(0.005); }
Value sys_getrefcount(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "getrefcount", 1, 1);
  return Value::integer(2);
}
Value sys_false(Interp& I, const Value&, const Args& a) { return Value::boolean(false); }
Value sys_zero(Interp& I, const Value&, const Args& a) { return Value::integer(0); }
Value sys_get_asyncgen_hooks(Interp& I, const Value&, const Args& a) {
  return new_tuple(I, {Value::none(), Value::none()});
}

Value make_stream(Interp& I, int fd) {
  Ref<Module> m = new_module(I, fd == 1 ? "<stdout>" : "<stderr>");
  Value w = new_native(I, "write", &stream_write, Value(), Value::integer(fd));
  as<NativeFunc>(w)->self = w;
  module_set(I, m.get(), "write", w);
  module_set(I, m.get(), "flush", new_native(I, "flush", &stream_flush));
  module_set(I, m.get(), "encoding", I.str("utf-8"));
  return m.take_value();
}

}  // namespace

void init_sys_module(Interp& I, Module* m) {
  module_set(I, m, "modules", I.modules.value());
  std::vector<Value> path;
  for (const std::string& p : I.loader().search_path) path.push_back(I.str(p));
  module_set(I, m, "path", new_list(I, path));
  module_set(I, m, "argv", new_list(I, {}));
  module_set(I, m, "_getframe", new_native(I, "_getframe", &sys_getframe));
  module_set(I, m, "platform", I.str("linux"));
  module_set(I, m, "byteorder", I.str("little"));
  module_set(I, m, "maxsize", Value::integer(INT64_MAX));
  module_set(I, m, "maxunicode", Value::integer(0x10FFFF));
  module_set(I, m, "version", I.str("3.11.2 (onnxify evaluator)"));
  module_set(I, m, "hexversion", Value::integer(0x030B02F0));
  module_set(I, m, "api_version", Value::integer(1013));
  module_set(I, m, "executable", I.str(""));
  module_set(I, m, "prefix", I.str(""));
  module_set(I, m, "dont_write_bytecode", Value::boolean(true));
  module_set(I, m, "warnoptions", new_list(I, {}));
  std::vector<Value> names;
  for (const std::string& n : I.loader().builtin_module_names()) names.push_back(I.str(n));
  module_set(I, m, "builtin_module_names", new_tuple(I, names));
  module_set(I, m, "version_info",
             make_struct(I, "version_info",
                         {{"major", Value::integer(3)},
                          {"minor", Value::integer(11)},
                          {"micro", Value::integer(2)},
                          {"releaselevel", I.str("final")},
                          {"serial", Value::integer(0)}}));
  module_set(I, m, "float_info",
             make_struct(I, "float_info",
                         {{"max", Value::real(DBL_MAX)},
                          {"max_exp", Value::integer(DBL_MAX_EXP)},
                          {"max_10_exp", Value::integer(DBL_MAX_10_EXP)},
                          {"min", Value::real(DBL_MIN)},
                          {"min_exp", Value::integer(DBL_MIN_EXP)},
                          {"min_10_exp", Value::integer(DBL_MIN_10_EXP)},
                          {"dig", Value::integer(DBL_DIG)},
                          {"mant_dig", Value::integer(DBL_MANT_DIG)},
                          {"epsilon", Value::real(DBL_EPSILON)},
                          {"radix", Value::integer(FLT_RADIX)},
                          {"rounds", Value::integer(1)}}));
  // Our ints are 64-bit: int_info describes CPython's, which programs only read to size buffers.
  module_set(I, m, "int_info",
             make_struct(I, "int_info",
                         {{"bits_per_digit", Value::integer(30)},
                          {"sizeof_digit", Value::integer(4)},
                          {"default_max_str_digits", Value::integer(4300)},
                          {"str_digits_check_threshold", Value::integer(640)}}));
  // The hash parameters onnxify implements (CPython's, with hash randomization off).
  module_set(I, m, "hash_info",
             make_struct(I, "hash_info",
                         {{"width", Value::integer(64)},
                          {"modulus", Value::integer((int64_t{1} << 61) - 1)},
                          {"inf", Value::integer(314159)},
                          {"nan", Value::integer(0)},
                          {"imag", Value::integer(1000003)},
                          {"algorithm", I.str("siphash13")},
                          {"hash_bits", Value::integer(64)},
                          {"seed_bits", Value::integer(128)},
                          {"cutoff", Value::integer(0)}}));
  module_set(I, m, "implementation",
             make_struct(I, "implementation", {{"name", I.str("cpython")}, {"cache_tag", Value::none()}}));
  module_set(I, m, "flags",
             make_struct(I, "flags",
                         {{"debug", Value::integer(0)},
                          {"inspect", Value::integer(0)},
                          {"interactive", Value::integer(0)},
                          {"optimize", Value::integer(0)},
                          {"dont_write_bytecode", Value::integer(1)},
                          {"no_user_site", Value::integer(0)},
                          {"no_site", Value::integer(0)},
                          {"ignore_environment", Value::integer(0)},
                          {"verbose", Value::integer(0)},
                          {"bytes_warning", Value::integer(0)},
                          {"quiet", Value::integer(0)},
                          {"hash_randomization", Value::integer(0)},
                          {"isolated", Value::integer(0)},
                          {"dev_mode", Value::boolean(false)},
                          {"utf8_mode", Value::integer(0)},
                          {"warn_default_encoding", Value::integer(0)},
                          {"safe_path", Value::boolean(false)},
                          {"int_max_str_digits", Value::integer(-1)}}));
  module_set(I, m, "thread_info",
             make_struct(I, "thread_info", {{"name", I.str("pthread")}, {"lock", I.str("semaphore")},
                                            {"version", Value::none()}}));
  // The import system's tables (PEP 302/451). Finders a program appends to meta_path are asked for
  // modules the search path does not have (ModuleLoader::find_with_meta_path); path hooks and the
  // importer cache are kept for programs that read or extend them.
  module_set(I, m, "meta_path", new_list(I, {}));
  module_set(I, m, "path_hooks", new_list(I, {}));
  module_set(I, m, "path_importer_cache", new_dict(I));
  module_set(I, m, "base_prefix", I.str(""));
  module_set(I, m, "exec_prefix", I.str(""));
  module_set(I, m, "base_exec_prefix", I.str(""));
  module_set(I, m, "platlibdir", I.str("lib"));
  module_set(I, m, "abiflags", I.str(""));
  module_set(I, m, "float_repr_style", I.str("short"));
  module_set(I, m, "pycache_prefix", Value::none());
  module_set(I, m, "copyright", I.str(""));
  module_set(I, m, "orig_argv", new_list(I, {}));
  module_set(I, m, "_xoptions", new_dict(I));
  module_set(I, m, "_git", new_tuple(I, {I.str("CPython"), I.str(""), I.str("")}));
  module_set(I, m, "_framework", I.str(""));
  {
    std::vector<Value> std_names;
    for (const char* n : kStdlibModuleNames) std_names.push_back(I.str(n));
    module_set(I, m, "stdlib_module_names", new_frozenset(I, new_tuple(I, std_names)));
  }
  for (const char* name : {"settrace", "setprofile", "audit", "addaudithook", "setswitchinterval", "call_tracing",
                           "set_asyncgen_hooks", "set_coroutine_origin_tracking_depth", "setdlopenflags",
                           "set_int_max_str_digits", "_clear_type_cache", "_debugmallocstats", "gettrace",
                           "getprofile", "breakpointhook", "__breakpointhook__", "unraisablehook",
                           "__unraisablehook__", "displayhook", "__displayhook__", "excepthook", "__excepthook__"})
    add_function(I, m, name, &sys_noop);
  add_function(I, m, "getdefaultencoding", &sys_getdefaultencoding);
  add_function(I, m, "getfilesystemencoding", &sys_getdefaultencoding);
  add_function(I, m, "getfilesystemencodeerrors", &sys_getfilesystemencodeerrors);
  add_function(I, m, "getswitchinterval", &sys_getswitchinterval);
  add_function(I, m, "getrefcount", &sys_getrefcount);
  add_function(I, m, "is_finalizing", &sys_false);
  add_function(I, m, "getallocatedblocks", &sys_zero);
  add_function(I, m, "get_coroutine_origin_tracking_depth", &sys_zero);
  add_function(I, m, "getdlopenflags", &sys_zero);
  add_function(I, m, "get_int_max_str_digits", &sys_zero);
  add_function(I, m, "get_asyncgen_hooks", &sys_get_asyncgen_hooks);
  add_function(I, m, "getrecursionlimit", &sys_getrecursionlimit);
  add_function(I, m, "setrecursionlimit", &sys_setrecursionlimit);
  add_function(I, m, "exc_info", &sys_exc_info);
  add_function(I, m, "exception", &sys_exception);
  add_function(I, m, "exit", &sys_exit);
  add_function(I, m, "getsizeof", &sys_getsizeof);
  add_function(I, m, "intern", &sys_intern);
  Value out = make_stream(I, 1), err = make_stream(I, 2);
  module_set(I, m, "stdout", out);
  module_set(I, m, "stderr", err);
  module_set(I, m, "__stdout__", out);
  module_set(I, m, "__stderr__", err);
  // sys.stdin: reading it is input onnxify never has; an unknown value where a program reads it.
  Value in = make_poison(I, "sys.stdin", "standard input is not available to evaluated code");
  module_set(I, m, "stdin", in);
  module_set(I, m, "__stdin__", in);
  // meta_path's initial finders are importlib.machinery's classes (it fills the list on import).
  I.loader().import_module("importlib.machinery", nullptr, 0, false, SourceRange{});
}

}  // namespace onnxify::eval
