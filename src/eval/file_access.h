// Read-only file access for evaluated code (DESIGN.md decision 8 as amended for issue 13): code may
// list, stat and read files under the import roots -- the folders the importer itself reads source
// from (the script's or model's folder, --path roots, the --python environment's sys.path entries) --
// and nothing else. This is the one place that decides whether a path may be read; os, os.path,
// open(), pathlib and importlib.metadata all ask it through _onnxify.fs_*. Writing stays unavailable.
#pragma once

#include <string>

namespace onnxify::eval {

class Interp;

struct PathAccess {
  enum Kind {
    kReadable,  // `resolved` is the real path, inside a root
    kMissing,   // it does not exist (or a parent is not a folder): `error` is the errno to raise
    kRefused,   // outside every root after resolving `..` and symbolic links: `reason` says so
  };
  Kind kind = kRefused;
  std::string resolved;
  int error = 0;
  std::string reason;
};

// Resolves `path` (relative to the working directory, `..` and symbolic links followed; with
// follow_last false the last component itself is not followed, as lstat) and checks it against the
// import roots, resolved the same way. A missing path is kMissing only when the deepest existing
// folder on its way is inside a root, so nothing is revealed about files outside them.
PathAccess check_path_access(Interp& I, const std::string& path, bool follow_last = true);

}  // namespace onnxify::eval
