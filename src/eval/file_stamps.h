// What an interpreter's module state was computed from on disk, so that state can be kept for a
// later export only while it is still what importing again would compute (the Python API's and the
// export server's kept modules, src/torch/kept_modules.cpp). Every path the importer and the file
// functions looked at is stamped with what it showed then, as much of it as the code could see:
//
//   kFile     a file read or stat'd: device, inode, size, mode, mtime and ctime (an edit, a
//             replacement, a chmod); a folder stat'd: that it is the same folder. A missing path:
//             that it is still missing.
//   kEntries  a folder listed (os.listdir): the names in it.
//   kImports  a folder the importer searched: the names in it an import could find (identifiers
//             as folders, *.py, extension modules, *.pth), so that writing model.onnx next to
//             model.py does not count as a change.
//
// The state is stale when any stamp differs now. A folder's names are listed again only when its
// mtime moved.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace onnxify::eval {

class FileStamps {
 public:
  enum Kind { kFile, kEntries, kImports };
  // Stamps `path` (relative to the working directory) the first time it is seen as `kind`.
  void add(const std::string& path, Kind kind = kFile);
  // The first stamped path that differs now, or "" when none does.
  std::string changed();
  size_t size() const { return stamps_[0].size() + stamps_[1].size() + stamps_[2].size(); }

 private:
  struct Stamp {
    bool exists = false;
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    mode_t mode = 0;
    timespec mtime{}, ctime{};
    uint64_t names = 0;  // kEntries / kImports: a hash of the names
  };
  static Stamp now(const std::string& path, Kind kind, const Stamp* before);
  static bool same(const Stamp& a, const Stamp& b, Kind kind);
  std::unordered_map<std::string, Stamp> stamps_[3];
};

}  // namespace onnxify::eval
