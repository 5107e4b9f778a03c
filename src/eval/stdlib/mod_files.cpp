// _onnxify.fs_stat / fs_listdir / fs_read: the read-only file queries behind os, os.path, open(),
// pathlib and importlib.metadata. Every path goes through check_path_access (file_access.h): inside
// the import roots they answer as the file system does (OSError subclasses with errno, strerror and
// the file name, as CPython raises them); outside, the answer is an unknown value saying why.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "eval/file_access.h"
#include "eval/file_stamps.h"
#include "eval/internal.h"
#include "eval/loader.h"
#include "eval/poison.h"
#include "support/fd_io.h"

namespace onnxify::eval {

Value new_bytes(Interp& I, std::string s);

namespace {

std::string path_arg(Interp& I, const Value& v, const char* fname) {
  if (is_str(v)) return as_str(v)->s;
  raisef(I, I.exc.TypeError, "{}: path should be str, not {}", fname, type_name(I, v));
}

[[noreturn]] void raise_os_error(Interp& I, int err, const std::string& path) {
  Type* t = err == ENOENT    ? I.exc.FileNotFoundError
            : err == ENOTDIR ? I.exc.NotADirectoryError
            : err == EISDIR  ? I.exc.IsADirectoryError
            : err == EACCES || err == EPERM ? I.exc.PermissionError
                                            : I.exc.OSError;
  Value e = make_exception_args(I, t, {Value::integer(err), I.str(std::strerror(err))});
  if (!e.obj()->dict) e.obj()->dict = new_dict_ref(I).release();
  dict_set(I, e.obj()->dict, "filename", I.str(path));
  throw PyException{e};
}

// The resolved path, or raises / returns the unknown value in *refusal.
// `fname` names the Python function asked ("os.stat"): the unknown value is 'os.stat(...)'.
bool access(Interp& I, const std::string& path, const char* fname, bool follow, std::string* resolved,
            Value* refusal) {
  PathAccess a = check_path_access(I, path, follow);
  if (a.kind == PathAccess::kMissing) raise_os_error(I, a.error, path);
  if (a.kind == PathAccess::kRefused) {
    *refusal = make_poison(I, fmt::format("{}(...)", fname), fmt::format("{}() is not available: {}", fname, a.reason));
    return false;
  }
  *resolved = a.resolved;
  return true;
}

double seconds(const struct timespec& t) { return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9; }

// _onnxify.fs_stat(path, follow_symlinks=True) -> (st_mode, st_ino, st_dev, st_nlink, st_uid,
// st_gid, st_size, st_atime, st_mtime, st_ctime), os.stat_result's ten fields.
Value fs_stat(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "fs_stat", 1, 2);
  std::string path = path_arg(I, a[0], "stat");
  bool follow = a.npos < 2 || is_true(I, a[1]);
  std::string resolved;
  Value refusal;
  if (!access(I, path, follow ? "os.stat" : "os.lstat", follow, &resolved, &refusal)) return refusal;
  struct stat st;
  if ((follow ? ::stat(resolved.c_str(), &st) : ::lstat(resolved.c_str(), &st)) != 0) raise_os_error(I, errno, path);
  return new_tuple(I, {Value::integer(st.st_mode), Value::integer(static_cast<int64_t>(st.st_ino)),
                       Value::integer(static_cast<int64_t>(st.st_dev)), Value::integer(st.st_nlink),
                       Value::integer(st.st_uid), Value::integer(st.st_gid), Value::integer(st.st_size),
                       new_float(seconds(st.st_atim)), new_float(seconds(st.st_mtim)),
                       new_float(seconds(st.st_ctim))});
}

// _onnxify.fs_listdir(path) -> the entry names in the order the file system gives them (os.listdir).
Value fs_listdir(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "fs_listdir", 1, 1);
  std::string path = path_arg(I, a[0], "listdir");
  std::string resolved;
  Value refusal;
  if (!access(I, path, "os.listdir", true, &resolved, &refusal)) return refusal;
  DIR* d = ::opendir(resolved.c_str());
  if (!d) raise_os_error(I, errno, path);
  if (I.stamps) I.stamps->add(resolved, FileStamps::kEntries);
  std::vector<Value> names;
  while (const dirent* e = ::readdir(d)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    names.push_back(I.str(e->d_name));
  }
  ::closedir(d);
  return new_list(I, std::move(names));
}

// _onnxify.fs_read(path) -> the file's bytes. Charged to the memory budget before it is read.
Value fs_read(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "fs_read", 1, 1);
  std::string path = path_arg(I, a[0], "open");
  std::string resolved;
  Value refusal;
  if (!access(I, path, "open", true, &resolved, &refusal)) return refusal;
  // O_NONBLOCK: a FIFO or a device must not block the evaluator (only regular files are read).
  int fd = ::open(resolved.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) raise_os_error(I, errno, path);
  struct stat st;
  int err = ::fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;  // st is read only when filled
  if (err != 0) {
    ::close(fd);
    raise_os_error(I, err, path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return make_poison(I, "open(...)",
                       fmt::format("open() is not available: '{}' is not a regular file (onnxify reads only files)", path));
  }
  std::string data;
  try {
    I.heap.ensure_room(static_cast<double>(st.st_size));
    data.resize(static_cast<size_t>(st.st_size));
  } catch (...) {
    ::close(fd);
    throw;
  }
  size_t got = read_fully(fd, data.data(), data.size());  // a file shortened meanwhile: what is left
  ::close(fd);
  data.resize(got);
  return new_bytes(I, std::move(data));
}

// _onnxify.locate_module(fullname, parent) -> where import would load it from, without loading it:
// None, ("forbidden", reason), ("builtin", is_package), ("source", origin, is_package, folder) or
// ("extension", folder). importlib.util.find_spec builds its ModuleSpec from this.
Value locate_module(Interp& I, const Value&, const Args& a) {
  check_nargs(I, a, "locate_module", 2, 2);
  ModuleLoader::Location loc = I.loader().locate(str_string(I, a[0]), a[1].is_none() ? Value() : a[1]);
  switch (loc.kind) {
    case ModuleLoader::Location::kNone: return Value::none();
    case ModuleLoader::Location::kForbidden: return new_tuple(I, {I.str("forbidden"), I.str(loc.reason)});
    case ModuleLoader::Location::kBuiltin: return new_tuple(I, {I.str("builtin"), Value::boolean(loc.is_package)});
    case ModuleLoader::Location::kSource:
      return new_tuple(I, {I.str("source"), I.str(loc.origin), Value::boolean(loc.is_package), I.str(loc.dir)});
    case ModuleLoader::Location::kExtension: return new_tuple(I, {I.str("extension"), I.str(loc.dir)});
  }
  return Value::none();
}

}  // namespace

void init_files_functions(Interp& I, Module* m) {
  add_function(I, m, "fs_stat", &fs_stat);
  add_function(I, m, "fs_listdir", &fs_listdir);
  add_function(I, m, "fs_read", &fs_read);
  add_function(I, m, "locate_module", &locate_module);
}

}  // namespace onnxify::eval
