// The ONNX writer (see onnx.h). The ModelProto is built without tensor bytes; bytes are streamed to
// their place in the serialized message, or to the side file.
//
// Serialized layout of the model file (protobuf accepts fields in any order and merges repeated
// ones, so this is an ordinary ModelProto to every reader):
//
//   ModelProto without its graph
//   tag(graph) len  GraphProto without the streamed initializers
//                   tag(initializer) len  TensorProto without raw_data  tag(raw_data) len  BYTES
//                   ... one such entry per streamed initializer
#include <fmt/core.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ir/onnx_versions.h"
#include "ir/op_rules.h"
#include "ir/verifier.h"
#include "onnx/onnx.h"
#include "onnx/sink.h"

#ifndef ONNXIFY_VERSION
#define ONNXIFY_VERSION "0.0.0"
#endif

namespace onnxify {

int onnx_ir_version_for_opset(int opset) {
  // (first opset, IR version) from ONNX's release table (onnx/helper.py VERSION_TABLE).
  static constexpr std::pair<int, int> kTable[] = {{1, 3},  {9, 4},   {10, 5},  {11, 6},  {12, 7}, {15, 8},
                                                   {19, 9}, {21, 10}, {23, 11}, {24, 12}, {25, 13}};
  int ir = 3;
  for (auto [first, version] : kTable)
    if (opset >= first) ir = version;
  return ir;
}

namespace {

using namespace ir;
using ir::kNewestOpset;
using onnx_writer::OutputFile;

constexpr uint64_t kProtobufLimit = 2'000'000'000;  // under 2^31 - 1, leaving room for the graph
constexpr uint64_t kForcedExternalMin = 1024;       // what goes external when the limit forces it
constexpr uint64_t kStreamMin = 64 << 10;           // embedded tensors this big are streamed

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}
// Tag of a length-delimited field.
std::string len_tag(int field) {
  std::string s;
  put_varint(s, (static_cast<uint64_t>(field) << 3) | 2);
  return s;
}

enum class Place { Proto, Stream, External };

struct Init {
  const Value* value;
  Place place = Place::Proto;
  uint64_t offset = 0;  // in the side file
};

class Writer {
 public:
  Writer(const Graph& g, std::string path, const WriteOptions& o)
      : main_(g),
        path_(std::move(path)),
        opts_(o),
        names_(g),
        ir_version_(onnx_ir_version_for_opset(o.opset)) {}

  Status run(WriteStats* stats) {
    if (opts_.opset < 7 || opts_.opset > kNewestOpset)
      return Status::error(
          fmt::format("opset {} is not supported by the writer (7 to {})", opts_.opset, kNewestOpset));
    if (Status s = check_graph(main_); !s) return s;
    collect_initializers(main_);
    place_initializers();

    onnx::GraphProto graph;
    build_graph(main_, &graph, main_.name().empty() ? "main" : main_.name(), true);
    if (!error_.is_ok()) return error_;

    onnx::ModelProto model;
    model.set_ir_version(ir_version_);
    model.set_producer_name("onnxify");
    model.set_producer_version(opts_.producer_version.empty() ? ONNXIFY_VERSION : opts_.producer_version);
    if (!opts_.doc_string.empty()) model.set_doc_string(opts_.doc_string);
    auto* def = model.add_opset_import();
    def->set_domain("");
    def->set_version(opts_.opset);
    for (const std::string& d : domains_) {
      auto* imp = model.add_opset_import();
      imp->set_domain(d);
      auto it = opts_.domain_opsets.find(d);
      imp->set_version(it != opts_.domain_opsets.end() ? it->second : 1);
    }
    auto meta = [&](const std::string& k, const std::string& v) {
      auto* p = model.add_metadata_props();
      p->set_key(k);
      p->set_value(v);
    };
    if (!opts_.source_file.empty()) meta("source_file", opts_.source_file);
    if (!opts_.source_hash.empty()) meta("source_hash", opts_.source_hash);
    for (const auto& [k, v] : opts_.metadata) meta(k, v);

    for (const Init& in : inits_) progress_total_ += in.value->initializer()->nbytes();
    if (Status s = write_external(stats); !s) return s;
    return write_model(model, graph, stats);
  }

 private:
  // --- checks and collection ------------------------------------------------------------------

  Status check_graph(const Graph& g) {
    for (Node* n : g.nodes()) {
      if (n->domain() == kOnnxifyDomain && !opts_.allow_composite_ops) {
        return Status(
            node_diagnostic(*n, fmt::format("composite op {} reached the ONNX writer", n->qualified_op()),
                            Severity::Error, &names_)
                .with_help("lowering for a target must expand composite ops before writing ONNX"));
      }
      if (!n->domain().empty() && n->domain() != "ai.onnx") domains_.insert(n->domain());
      for (Graph* r : n->regions())
        if (Status s = check_graph(*r); !s) return s;
    }
    return Status::ok();
  }

  void collect_initializers(const Graph& g) {
    for (size_t i = 0; i < g.num_initializers(); ++i) inits_.push_back({g.initializer(i)});
    for (Node* n : g.nodes())
      for (Graph* r : n->regions()) collect_initializers(*r);
  }

  void place_initializers() {
    uint64_t embedded = 0;
    for (Init& in : inits_) {
      const Tensor& t = *in.value->initializer();
      if (t.dtype() == ElementType::String) continue;
      if (t.nbytes() >= opts_.external_threshold) {
        in.place = Place::External;
      } else {
        embedded += t.nbytes();
        in.place = t.nbytes() >= kStreamMin ? Place::Stream : Place::Proto;
      }
    }
    if (embedded > kProtobufLimit) {
      forced_ = true;
      for (Init& in : inits_) {
        const Tensor& t = *in.value->initializer();
        if (t.dtype() != ElementType::String && t.nbytes() >= kForcedExternalMin) in.place = Place::External;
      }
    }
    uint64_t off = 0;
    for (Init& in : inits_) {
      if (in.place != Place::External) continue;
      uint64_t size = in.value->initializer()->nbytes();
      uint64_t align = size >= opts_.external_alignment ? opts_.external_alignment : 64;
      if (align > 1) off = (off + align - 1) / align * align;
      in.offset = off;
      off += size;
    }
  }

  // --- protos ---------------------------------------------------------------------------------

  void fail(Status s) {
    if (error_.is_ok()) error_ = std::move(s);
  }

  bool elem_ok(ElementType e, const std::string& what) {
    if (info(e).min_ir_version <= ir_version_) return true;
    fail(Status::error(
        fmt::format("{} has element type {}, which needs ONNX IR version {} (opset {} gives IR {})", what,
                    to_string(e), info(e).min_ir_version, opts_.opset, ir_version_)));
    return false;
  }

  void type_proto(const Type& t, onnx::TypeProto* p, const std::string& what) {
    switch (t.kind()) {
      case Type::Kind::Unknown:
        return;
      case Type::Kind::Sequence:
        type_proto(t.inner(), p->mutable_sequence_type()->mutable_elem_type(), what);
        return;
      case Type::Kind::Optional:
        type_proto(t.inner(), p->mutable_optional_type()->mutable_elem_type(), what);
        return;
      case Type::Kind::Tensor:
        break;
    }
    auto* tt = p->mutable_tensor_type();
    elem_ok(t.elem(), what);
    tt->set_elem_type(info(t.elem()).onnx);
    if (!t.has_rank()) return;
    auto* shape = tt->mutable_shape();
    for (DimExpr d : t.dims()) {
      auto* dim = shape->add_dim();
      if (d.is_const()) {
        if (d.value() >= 0) dim->set_dim_value(d.value());
      } else if (!d.is_unknown()) {
        dim->set_dim_param(dim_param(d));
      }
    }
  }

  // A symbolic size's name in the file: its expression, or, for one too long to be read (window
  // padding sizes nest min/max/floor of earlier sizes), a short name shared by equal expressions
  // (hash-consed: equal expressions are the same node), so runtimes still see which dims are equal.
  std::string dim_param(DimExpr d) {
    constexpr size_t kMaxDimParam = 256;
    if (auto text = d.str(kMaxDimParam)) return *text;
    auto [it, added] = long_dims_.try_emplace(d.node(), "");
    if (added) it->second = fmt::format("size_expr_{}", long_dims_.size());
    return it->second;
  }

  void value_info(const Value* v, onnx::ValueInfoProto* p, bool type_required, const std::string& role) {
    p->set_name(names_(v));
    if (v->type().is_unknown() || (v->type().is_tensor() && v->type().elem() == ElementType::Undefined)) {
      if (type_required)
        fail(Status::error(
            fmt::format("{} %{} has no type; ONNX needs the types of the main graph's inputs and "
                        "outputs",
                        role, names_(v))));
      return;
    }
    type_proto(v->type(), p->mutable_type(), fmt::format("{} %{}", role, names_(v)));
  }

  void tensor_meta(const Tensor& t, const std::string& name, onnx::TensorProto* p) {
    if (!name.empty()) p->set_name(name);
    for (int64_t d : t.shape()) p->add_dims(d);
    elem_ok(t.dtype(), name.empty() ? "a constant" : "constant %" + name);
    p->set_data_type(info(t.dtype()).onnx);
  }

  // A tensor held entirely in the proto (attributes, small initializers).
  void tensor_inline(const Tensor& t, const std::string& name, onnx::TensorProto* p) {
    tensor_meta(t, name, p);
    if (t.dtype() == ElementType::String) {
      for (const auto& s : t.string_data()) p->add_string_data(s);
    } else {
      p->set_raw_data(std::string(t.bytes().view()));
    }
  }

  std::string node_name(const Node& n) {
    std::string base = n.module_path().empty() ? n.op_type() : n.module_path() + "/" + n.op_type();
    std::string name = base;
    for (int k = 1; node_names_.count(name); ++k) name = fmt::format("{}_{}", base, k);
    node_names_.insert(name);
    return name;
  }

  void attribute(const std::string& name, const Attribute& a, const std::string& owner,
                 onnx::AttributeProto* p) {
    p->set_name(name);
    p->set_type(static_cast<onnx::AttributeProto::AttributeType>(onnx_attr_type(a.kind())));
    switch (a.kind()) {
      case AttrKind::Float:
        p->set_f(a.f());
        break;
      case AttrKind::Int:
        p->set_i(a.i());
        break;
      case AttrKind::String:
        p->set_s(a.s());
        break;
      case AttrKind::Tensor:
        tensor_inline(a.t(), "", p->mutable_t());
        break;
      case AttrKind::Graph:
        build_graph(a.g(), p->mutable_g(), graph_name(a.g(), owner, name), false);
        break;
      case AttrKind::Floats:
        for (float f : a.floats()) p->add_floats(f);
        break;
      case AttrKind::Ints:
        for (int64_t i : a.ints()) p->add_ints(i);
        break;
      case AttrKind::Strings:
        for (const auto& s : a.strings()) p->add_strings(s);
        break;
      case AttrKind::Tensors:
        for (const auto& t : a.tensors()) tensor_inline(t, "", p->add_tensors());
        break;
      case AttrKind::Graphs: {
        int k = 0;
        for (const auto& g : a.graphs())
          build_graph(*g, p->add_graphs(), graph_name(*g, owner, fmt::format("{}_{}", name, k++)), false);
        break;
      }
    }
  }

  static std::string graph_name(const Graph& g, const std::string& owner, const std::string& attr) {
    return g.name().empty() ? owner + "/" + attr : g.name();
  }

  void node(const Node& n, onnx::GraphProto* gp) {
    auto* p = gp->add_node();
    std::string name = node_name(n);
    p->set_name(name);
    p->set_op_type(n.op_type());
    if (!n.domain().empty() && n.domain() != "ai.onnx") p->set_domain(n.domain());
    size_t ni = n.num_inputs(), no = n.num_outputs();
    while (ni > 0 && !n.input(ni - 1)) --ni;  // trailing omitted optionals are simply absent
    // ... except a Pad's constant_value, written as an explicit empty input: the zero Pads that
    // fuse_pad leaves in front of a pool must stay out of ONNX Runtime's PadFusion (fuse_pad.cpp).
    if (n.is("Pad") && n.num_inputs() == 3 && !n.input(2)) ni = 3;
    while (no > 0 && !n.output(no - 1)) --no;
    for (size_t i = 0; i < ni; ++i) p->add_input(n.input(i) ? names_(n.input(i)) : "");
    for (size_t i = 0; i < no; ++i) p->add_output(n.output(i) ? names_(n.output(i)) : "");
    for (const auto& [k, a] : n.attrs()) attribute(k, a, name, p->add_attribute());
    const SourceRange& r = n.loc();
    if (r.file && r.begin.known()) p->set_doc_string(fmt::format("{}:{}", r.file->path(), r.begin.line));
  }

  void build_graph(const Graph& g, onnx::GraphProto* gp, const std::string& name, bool is_main) {
    gp->set_name(name);
    for (size_t i = 0; i < g.num_inputs(); ++i)
      value_info(g.input(i), gp->add_input(), is_main, "graph input");
    if (is_main) {
      for (const Init& in : inits_) {
        const Tensor& t = *in.value->initializer();
        const std::string& n = names_(in.value);
        if (in.place == Place::Proto) {
          tensor_inline(t, n, gp->add_initializer());
        } else if (in.place == Place::External) {
          auto* p = gp->add_initializer();
          tensor_meta(t, n, p);
          p->set_data_location(onnx::TensorProto::EXTERNAL);
          auto kv = [p](const char* k, const std::string& v) {
            auto* e = p->add_external_data();
            e->set_key(k);
            e->set_value(v);
          };
          kv("location", external_location());
          kv("offset", std::to_string(in.offset));
          kv("length", std::to_string(t.nbytes()));
        }
      }
    }
    for (Node* n : g.nodes()) node(*n, gp);

    // Outputs: a graph output must be computed by a node of this graph, once (or, in the main graph,
    // be one of its inputs). Anything else (a region's input, an initializer, an outer value, a
    // repeat) goes through an Identity, which every runtime accepts.
    std::unordered_set<const Value*> seen;
    std::unordered_set<std::string> output_names;
    for (size_t i = 0; i < g.num_outputs(); ++i) {
      const Value* v = g.output(i);
      auto* vi = gp->add_output();
      bool own = v->graph() == &g && (v->producer() || (is_main && v->is_graph_input()));
      bool direct = own && seen.insert(v).second;
      std::string out_name = names_(v);
      if (!direct) {
        out_name = names_.fresh(names_(v));
        auto* id = gp->add_node();
        id->set_name(node_name_for_identity(name));
        id->set_op_type("Identity");
        id->add_input(names_(v));
        id->add_output(out_name);
      }
      value_info(v, vi, is_main, "graph output");
      vi->set_name(out_name);
      output_names.insert(out_name);
    }
    // value_info: every typed intermediate computed in this graph.
    for (Node* n : g.nodes()) {
      for (size_t i = 0; i < n->num_outputs(); ++i) {
        const Value* v = n->output(i);
        if (!v || v->type().is_unknown() || output_names.count(names_(v))) continue;
        value_info(v, gp->add_value_info(), false, "value");
      }
    }
  }

  std::string node_name_for_identity(const std::string& graph) {
    std::string base = graph + "/output";
    std::string name = base;
    for (int k = 1; node_names_.count(name); ++k) name = fmt::format("{}_{}", base, k);
    node_names_.insert(name);
    return name;
  }

  // --- files ----------------------------------------------------------------------------------

  std::string external_location() const {
    if (!opts_.external_file.empty()) return opts_.external_file;
    return std::filesystem::path(path_).filename().string() + ".data";
  }
  std::string external_path() const {
    return (std::filesystem::path(path_).parent_path() / external_location()).string();
  }

  void written(uint64_t n) {
    progress_done_ += n;
    if (opts_.progress) opts_.progress(progress_done_, progress_total_);
  }
  uint64_t progress_done_ = 0, progress_total_ = 0;

  Status write_external(WriteStats* stats) {
    bool any =
        std::any_of(inits_.begin(), inits_.end(), [](const Init& i) { return i.place == Place::External; });
    if (!any) return Status::ok();
    if (external_location().find('/') != std::string::npos)
      return Status::error(fmt::format("the external data file '{}' must be a file name, next to the model",
                                       external_location()));
    OutputFile out(external_path());
    if (Status s = out.open(); !s) return s;
    for (const Init& in : inits_) {
      if (in.place != Place::External) continue;
      if (Status s = out.pad_to(in.offset); !s) return s;
      if (Status s = out.write(in.value->initializer()->bytes()); !s) return s;
      written(in.value->initializer()->nbytes());
      if (stats) ++stats->external_tensors;
    }
    if (stats) {
      stats->external_bytes = out.offset();
      stats->kernel_copied_bytes += out.copied_in_kernel();
    }
    return out.commit();
  }

  Status write_model(const onnx::ModelProto& model, const onnx::GraphProto& graph, WriteStats* stats) {
    if (!error_.is_ok()) return error_;
    // The streamed initializers: metadata now, bytes at their place in the file.
    struct Entry {
      std::string head;  // tag, length, TensorProto metadata, raw_data tag and length
      const Bytes* bytes;
    };
    std::vector<Entry> entries;
    uint64_t graph_len = graph.ByteSizeLong();
    for (const Init& in : inits_) {
      if (in.place != Place::Stream) continue;
      const Tensor& t = *in.value->initializer();
      onnx::TensorProto meta;
      tensor_meta(t, names_(in.value), &meta);
      std::string m = meta.SerializeAsString();
      std::string raw_head = len_tag(onnx::TensorProto::kRawDataFieldNumber);
      put_varint(raw_head, t.nbytes());
      uint64_t tensor_len = m.size() + raw_head.size() + t.nbytes();
      std::string head = len_tag(onnx::GraphProto::kInitializerFieldNumber);
      put_varint(head, tensor_len);
      head += m;
      head += raw_head;
      graph_len += head.size() + t.nbytes();
      entries.push_back({std::move(head), &t.bytes()});
    }
    if (!error_.is_ok()) return error_;
    std::string model_head = model.SerializeAsString();
    model_head += len_tag(onnx::ModelProto::kGraphFieldNumber);
    put_varint(model_head, graph_len);
    uint64_t total = model_head.size() + graph_len;
    if (total > static_cast<uint64_t>(INT32_MAX))
      return Status::error(
          fmt::format("the model would be {} bytes, over protobuf's 2 GB limit, even with large "
                      "tensors in external data",
                      total));
    OutputFile out(path_);
    if (Status s = out.open(); !s) return s;
    if (Status s = out.write(model_head); !s) return s;
    if (Status s = out.write(graph.SerializeAsString()); !s) return s;
    for (const Entry& e : entries) {
      if (Status s = out.write(e.head); !s) return s;
      if (Status s = out.write(*e.bytes); !s) return s;
      written(e.bytes->size());
    }
    if (out.offset() != total) return Status::error("internal: the model's size does not match its layout");
    if (stats) {
      stats->model_bytes = total;
      stats->embedded_tensors = inits_.size() - stats->external_tensors;
      stats->kernel_copied_bytes += out.copied_in_kernel();
      stats->forced_external = forced_;
    }
    return out.commit();
  }

  const Graph& main_;
  std::string path_;
  const WriteOptions& opts_;
  NameTable names_;
  int ir_version_;
  std::set<std::string> domains_;
  std::vector<Init> inits_;
  std::unordered_set<std::string> node_names_;
  std::unordered_map<const ir::DimNode*, std::string> long_dims_;  // dim_param()
  bool forced_ = false;
  Status error_ = Status::ok();
};

}  // namespace

Status write_onnx(const ir::Graph& graph, const std::string& path, const WriteOptions& options,
                  WriteStats* stats) {
  if (stats) *stats = WriteStats{};
  Writer w(graph, path, options);
  return w.run(stats);
}

}  // namespace onnxify
