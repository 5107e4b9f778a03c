// The compiled-module cache: what parsing, name resolution and lowering make of a source file
// (code.h), kept on disk between runs like CPython's __pycache__, so that an export imports
// transformers or torchvision without compiling their sources again.
//
// An entry is keyed by a 128-bit hash (XXH3) of the source text, the module name and the build ID
// of the binary that wrote it (a rebuilt onnxify never reads an older one's entries); it is read
// only when its header repeats that key and a checksum of its bytes matches, and the bytes are
// bounds-checked while they are read: a corrupt, truncated or foreign entry is ignored, the source
// compiled and the entry written again. Writes go to a temporary file renamed into place, so
// concurrent exports see a whole entry or none. Nothing evaluated is cached: module code still
// runs in every export (docs/architecture.md, decision 18).
#pragma once

#include <memory>
#include <string>

#include "eval/code.h"

namespace onnxify::eval {

// $XDG_CACHE_HOME/onnxify (when set to an absolute path), else $HOME/.cache/onnxify; "" when
// neither is known (no cache).
std::string default_code_cache_dir();

// The GNU build ID of the binary this code is linked into, in hex ("" when it has none): names what
// belongs to one build (cache folders, the export server's socket).
std::string build_id_hex();

// compile_module(I, file, module_name) through the cache in `dir` ("": none). Errors are the
// compiler's (a syntax error is never cached); the cache's own failures (an unwritable folder, a
// bad entry) only cost the time of compiling.
std::unique_ptr<CodeUnit> compile_module_cached(Interp& I, std::shared_ptr<const SourceFile> file,
                                                const std::string& module_name, const std::string& dir);

// The file compile_module_cached reads and writes for this source in `dir` ("" when the binary has
// no build ID, so nothing is cached). For tests.
std::string code_cache_entry(const std::string& dir, const SourceFile& file, const std::string& module_name);

}  // namespace onnxify::eval
