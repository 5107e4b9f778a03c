// onnxify._core: the C++ side of the Python package (src/python/onnxify/). Deliberately thin: each
// function calls one stage's public API, as src/cli/ does, and returns plain Python data
//
//   {"failure": 0 | 1 | 2, "diagnostics": [...], ...results}
//
// (failure: the CLI's exit status, 1 = could not convert, 2 = bad input). The package turns failures
// into exceptions and warnings into `warnings.warn`; keeping that in Python keeps this file free of
// policy. Conversions run with the GIL released on a thread with a big stack (the evaluator recurses
// on the C++ stack), and an export frees everything it built before returning (the CLI leaves that
// to the OS at exit; a long-lived Python process cannot).
#include <malloc.h>
#include <pthread.h>
#include <sys/stat.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <optional>

#include "eval/eval.h"
#include "support/progress.h"
#include "syntax/syntax.h"
#include "torch/torch.h"
#include "weights/weights.h"

namespace py = pybind11;

namespace onnxify::python {

namespace {

constexpr int kConvertFailed = 1;  // the CLI's exit statuses (src/cli/commands.h)
constexpr int kBadInput = 2;

// One diagnostic as a dict; line and column are 1-based, the column counts characters (the header's
// numbers), end_column is exclusive.
py::dict to_py(const Diagnostic& d) {
  py::dict out;
  out["severity"] = severity_name(d.severity());
  out["message"] = d.message();
  const SourceRange& r = d.range();
  py::object file = py::none(), line = py::none(), column = py::none(), end_line = py::none(),
             end_column = py::none();
  if (r.known()) {
    file = py::str(r.file->path());
    line = py::int_(r.begin.line);
    column = py::int_(char_column(r.file->line(r.begin.line), r.begin.col));
    if (r.end.known()) {
      end_line = py::int_(r.end.line);
      end_column = py::int_(char_column(r.file->line(r.end.line), r.end.col));
    }
  } else if (!d.file_name().empty()) {
    file = py::str(d.file_name());
  } else if (r.file) {
    file = py::str(r.file->path());
  }
  out["file"] = file;
  out["line"] = line;
  out["column"] = column;
  out["end_line"] = end_line;
  out["end_column"] = end_column;
  out["help"] = d.help().empty() ? py::object(py::none()) : py::object(py::str(d.help()));
  py::list notes;
  for (const Diagnostic& n : d.notes()) notes.append(to_py(n));
  out["notes"] = notes;
  out["text"] = d.render();
  return out;
}

py::list to_py(const std::vector<Diagnostic>& list) {
  py::list out;
  for (const Diagnostic& d : list) out.append(to_py(d));
  return out;
}

py::dict outcome(int failure, const std::vector<Diagnostic>& diagnostics) {
  py::dict out;
  out["failure"] = failure;
  out["diagnostics"] = to_py(diagnostics);
  return out;
}

// Runs `fn` with every escaping exception a diagnostic (never an abort of the caller's Python
// process).
void guarded_here(const std::function<void()>& fn, int& failure, std::vector<Diagnostic>& diagnostics) {
  auto fail = [&](int code, Diagnostic d) {
    failure = code;
    diagnostics.push_back(std::move(d));
  };
  try {
    fn();
  } catch (const Diagnostic& d) {
    fail(kConvertFailed, d);
  } catch (const DiagnosticList& l) {
    failure = kConvertFailed;
    diagnostics = l.items();
  } catch (const std::bad_alloc&) {
    fail(kConvertFailed, Diagnostic::error("out of memory"));
  } catch (const std::exception& e) {
    fail(kConvertFailed, Diagnostic::error(std::string("internal error: ") + e.what()));
  } catch (...) {
    fail(kConvertFailed, Diagnostic::error("internal error: an exception no diagnostic describes"));
  }
}

// Runs `fn` as the CLI's main() would: on a big stack (the evaluator recurses on it), guarded.
void guarded(const std::function<void()>& fn, int& failure, std::vector<Diagnostic>& diagnostics) {
  guarded_here([&] { eval::run_with_big_stack(fn); }, failure, diagnostics);
}

int failure_code(torch::Failure f) {
  switch (f) {
    case torch::Failure::None: return 0;
    case torch::Failure::BadInput: return kBadInput;
    case torch::Failure::Convert: return kConvertFailed;
  }
  return kConvertFailed;
}

// The modules exports with the cache on start from (torch::KeptModules): one set per process, never
// freed (its thread must outlive every call, and the process's exit reclaims it).
// A process forked from this one (multiprocessing, a DataLoader worker) has none of its threads: it
// starts a set of its own (the old one is left as it is, never used there).
torch::KeptModules* g_kept = nullptr;
torch::KeptModules& kept_modules() {
  static bool once = [] {
    ::pthread_atfork(nullptr, nullptr, [] {
      if (!torch::KeptModules::in_own_fork()) g_kept = nullptr;
    });
    return true;
  }();
  (void)once;
  if (!g_kept) g_kept = new torch::KeptModules();
  return *g_kept;
}

py::dict run_export(torch::ExportOptions o, bool progress) {
  torch::ExportResult r;
  int failure = 0;
  std::vector<Diagnostic> diagnostics;
  torch::KeptModules* kept = o.cache ? &kept_modules() : nullptr;  // made with the GIL held: one per process
  {
    py::gil_scoped_release nogil;
    if (kept) {
      guarded_here([&] { r = kept->export_model(o, progress); }, failure, diagnostics);
    } else {
      ProgressLine line(progress);
      if (progress) o.progress = [&line](const std::string& what, double fraction) { line.phase(what, fraction); };
      guarded(
          [&] {
            r = torch::export_model(o);
            // Free the interpreter's heap and the graph here, on the big stack, before returning.
            r.retained.reset();
          },
          failure, diagnostics);
    }
    // The export's pages go back to the system now, not at some later allocation.
    malloc_trim(0);
  }
  if (failure == 0) {
    failure = failure_code(r.failure);
    diagnostics = r.diagnostics.items();
  }
  py::dict out = outcome(failure, diagnostics);
  out["warnings"] = to_py(r.warnings);
  out["output"] = r.output_path;
  out["nodes"] = r.num_nodes;
  out["inputs"] = r.input_names;
  out["outputs"] = r.output_names;
  out["reused_modules"] = r.reused_modules;
  return out;
}

py::dict run_inspect(torch::ExportOptions o) {
  torch::InspectResult r;
  int failure = 0;
  std::vector<Diagnostic> diagnostics;
  torch::KeptModules* kept = o.cache ? &kept_modules() : nullptr;
  {
    py::gil_scoped_release nogil;
    if (kept)
      guarded_here([&] { r = kept->inspect_model(o); }, failure, diagnostics);
    else
      guarded([&] { r = torch::inspect_model(o); }, failure, diagnostics);
    malloc_trim(0);
  }
  if (failure == 0) {
    failure = failure_code(r.failure);
    diagnostics = r.diagnostics.items();
  }
  py::dict out = outcome(failure, diagnostics);
  out["text"] = r.text;
  return out;
}

// `onnxify parse --dump` of a file (path) or of source text (named `filename` in diagnostics).
py::dict run_parse(const std::optional<std::string>& path, const std::optional<std::string>& text,
               const std::string& filename, bool positions) {
  std::string dump;
  int failure = 0;
  std::vector<Diagnostic> diagnostics;
  {
    py::gil_scoped_release nogil;
    guarded(
        [&] {
          std::shared_ptr<const SourceFile> file;
          if (path) {
            try {
              file = SourceFile::load(*path);
            } catch (const Diagnostic& d) {
              failure = kBadInput;  // unreadable: bad input, as the CLI's exit status 2
              diagnostics.push_back(d);
              return;
            }
          } else {
            file = std::make_shared<SourceFile>(filename, text.value_or(""));
          }
          syntax::ParsedModule m = syntax::parse_module(file);
          syntax::dump(m.root(), dump, {.include_attributes = positions});
        },
        failure, diagnostics);
  }
  py::dict out = outcome(failure, diagnostics);
  out["dump"] = dump;
  return out;
}

// A checkpoint storage exposed through the buffer protocol, read-only: numpy arrays are views of it
// (np.ndarray(buffer=...)), and it keeps the file mapping (or inflated record) alive while any does.
struct Storage {
  Bytes bytes;
};

py::dict run_load_weights(const std::string& path, const std::string& key) {
  int failure = 0;
  std::vector<Diagnostic> diagnostics;
  std::optional<weights::StateDict> sd;
  std::string format;
  {
    py::gil_scoped_release nogil;
    guarded(
        [&] {
          try {
            // One checkpoint file (its format reported), or what `onnxify weights` also reads: a shard
            // index (*.index.json) or a Hugging Face model folder, merged from its shards.
            struct stat st;
            bool one_file = ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
                            !(path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0);
            if (one_file) {
              weights::Checkpoint ckpt = weights::Checkpoint::open(path);
              format = std::string(weights::format_name(ckpt.format()));
              sd = ckpt.select(key);
            } else {
              sd = weights::open_state_dict(path, key);
              // A TensorFlow checkpoint named by its prefix or SavedModel folder is one table; the rest
              // are indexes whose shards were merged.
              format = sd->format == weights::Format::TFCheckpoint ? std::string(weights::format_name(sd->format))
                                                                   : "sharded";
            }
            for (const weights::NamedTensor& t : sd->tensors)
              if (std::string why = weights::check_bounds(t.tensor); !why.empty())
                throw Diagnostic::error(fmt::format("tensor '{}': {}", t.name, why)).with_file(path);
          } catch (const Diagnostic& d) {
            failure = kBadInput;  // as `onnxify weights`: every checkpoint problem is exit status 2
            diagnostics.push_back(d);
          }
        },
        failure, diagnostics);
  }
  py::dict out = outcome(failure, diagnostics);
  out["format"] = format;
  py::list tensors;
  if (sd) {
    out["key"] = sd->key;
    // Tied weights share one storage object, as torch.load's tensors share one storage.
    std::map<std::pair<const uint8_t*, size_t>, py::object> storages;
    for (const weights::NamedTensor& nt : sd->tensors) {
      const weights::Tensor& t = nt.tensor;
      auto id = std::make_pair(t.storage.data(), t.storage.size());
      auto it = storages.find(id);
      if (it == storages.end()) it = storages.emplace(id, py::cast(Storage{t.storage})).first;
      size_t esize = t.element_size();
      std::vector<int64_t> strides;
      for (int64_t s : t.strides) strides.push_back(s * static_cast<int64_t>(esize));
      tensors.append(py::make_tuple(nt.name, std::string(weights::name(t.dtype)), t.shape, strides,
                                    t.storage_offset * static_cast<int64_t>(esize), it->second));
    }
  }
  out["tensors"] = tensors;
  return out;
}

}  // namespace

}  // namespace onnxify::python

PYBIND11_MODULE(_core, m) {
  using namespace onnxify::python;
  namespace torch = onnxify::torch;
  m.doc() = "onnxify's C++ core (private: use the functions of the onnxify package)";
  m.attr("__version__") = ONNXIFY_VERSION;

  py::class_<Storage>(m, "Storage", py::buffer_protocol())
      .def_buffer([](Storage& s) {
        return py::buffer_info(const_cast<uint8_t*>(s.bytes.data()), 1, py::format_descriptor<uint8_t>::format(), 1,
                               {static_cast<py::ssize_t>(s.bytes.size())}, {1}, /*readonly=*/true);
      })
      .def("__len__", [](const Storage& s) { return s.bytes.size(); })
      .def_property_readonly("mapped", [](const Storage& s) { return s.bytes.is_mapped(); });

  m.def(
      "export_model",
      [](std::string source, std::string model, std::vector<std::pair<std::string, std::string>> inputs,
         std::string weights, std::string weights_key, std::string dtype, std::string output,
         std::vector<std::string> paths, std::vector<std::string> env_paths, int opset, std::string target,
         std::vector<std::string> decompose, std::vector<std::string> keep, std::string trt_version,
         int64_t max_unroll, std::string emit_ir, std::vector<std::string> dims, bool progress, bool cache,
         std::string framework, std::string layout) {
        torch::ExportOptions o;
        o.source = std::move(source);
        o.model_expr = std::move(model);
        o.inputs = std::move(inputs);
        o.weights = std::move(weights);
        o.weights_key = std::move(weights_key);
        o.dtype = std::move(dtype);
        o.output = std::move(output);
        o.paths = std::move(paths);
        o.env_paths = std::move(env_paths);
        o.opset = opset;
        o.target = std::move(target);
        o.decompose = std::move(decompose);
        o.keep = std::move(keep);
        o.trt_version = std::move(trt_version);
        o.max_unroll = max_unroll;
        o.emit_ir = std::move(emit_ir);
        o.dims = std::move(dims);
        o.cache = cache;
        o.framework = std::move(framework);
        o.layout = std::move(layout);
        return run_export(std::move(o), progress);
      },
      py::arg("source"), py::arg("model"), py::arg("inputs"), py::arg("weights"), py::arg("weights_key"),
      py::arg("dtype"), py::arg("output"), py::arg("paths"), py::arg("env_paths"), py::arg("opset"), py::arg("target"), py::arg("decompose"),
      py::arg("keep"), py::arg("trt_version"), py::arg("max_unroll"), py::arg("emit_ir"), py::arg("dims"),
      py::arg("progress"), py::arg("cache"), py::arg("framework"), py::arg("layout"));

  m.def(
      "inspect_model",
      [](std::string source, std::string model, std::vector<std::string> paths, std::vector<std::string> env_paths,
         bool cache) {
        torch::ExportOptions o;
        o.cache = cache;
        o.source = std::move(source);
        o.model_expr = std::move(model);
        o.paths = std::move(paths);
        o.env_paths = std::move(env_paths);
        return run_inspect(std::move(o));
      },
      py::arg("source"), py::arg("model"), py::arg("paths"), py::arg("env_paths"), py::arg("cache"));

  m.def("release_modules", [] {
    torch::KeptModules& kept = kept_modules();
    py::gil_scoped_release nogil;
    kept.clear();
  });
  m.def("parse", &run_parse, py::arg("path"), py::arg("text"), py::arg("filename"), py::arg("positions"));
  m.def("load_weights", &run_load_weights, py::arg("path"), py::arg("key"));
}
