// What an interpreter's module state was computed from on disk, so that state can be kept for a
// later export only while it is still what importing again would compute (the Python API's kept
// modules, src/torch/warm.cpp). Every path the importer and the file functions looked at -- folders
// listed, sources read, files opened or stat'd, paths found missing -- is stamped with what stat
// said then; the state is stale when any stamp differs now (an edited, replaced, added or removed
// file changes its own stamp or its folder's).
#pragma once

#include <sys/stat.h>

#include <string>
#include <unordered_map>

namespace onnxify::eval {

class FileStamps {
 public:
  // Stamps `path` (relative to the working directory) the first time it is seen.
  void add(const std::string& path);
  // The first stamped path whose stat differs now, or "" when none does.
  std::string changed() const;
  size_t size() const { return stamps_.size(); }

 private:
  struct Stamp {
    bool exists = false;
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    mode_t mode = 0;
    timespec mtime{}, ctime{};
    bool operator==(const Stamp& o) const;
  };
  static Stamp now(const std::string& path);
  std::unordered_map<std::string, Stamp> stamps_;
};

}  // namespace onnxify::eval
