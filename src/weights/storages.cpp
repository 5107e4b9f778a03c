// Storages shared by the torch loaders: unpacking the persistent ids that name them, and binding
// their bytes to the tensors that view them.
#include <fmt/core.h>

#include "support/diagnostic.h"
#include "weights/loaders.h"

namespace onnxify::weights {

namespace {

[[noreturn]] void fail(std::string msg) { throw Diagnostic::error(std::move(msg)); }

// Python 2 era files may hold these as bytes; torch.load decodes them as ASCII.
std::string text_field(const Value& v, const char* what) {
  if (v.is(Kind::Str)) return v.as_str();
  if (v.is(Kind::Bytes)) return std::string(v.as_bytes().view());
  fail(fmt::format("a storage's {} is a {}, not a string", what, v.type_name()));
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace

StorageRef parse_storage_ref(const Value& pid, size_t fields) {
  if (!pid.is(Kind::Tuple) || pid.seq().items.empty())
    fail(fmt::format("a persistent id is a {}, not a tuple", pid.type_name()));
  const auto& f = pid.seq().items;
  std::string type = text_field(f[0], "persistent id type");
  if (type == "module")
    fail(
        "the checkpoint pickles a whole nn.Module (persistent id 'module'); save model.state_dict() instead");
  if (type != "storage") fail(fmt::format("unknown persistent id type '{}'", type));
  if (f.size() != fields)
    fail(fmt::format("a storage persistent id has {} fields; this format has {}", f.size(), fields));
  if (!f[1].is(Kind::Global) || f[1].global().id >= 0)
    fail(fmt::format("a storage persistent id names a {} instead of a storage class", f[1].type_name()));
  StorageRef r;
  r.dtype = f[1].global().storage_dtype;
  r.key = text_field(f[2], "key");
  text_field(f[3], "location");  // 'cpu', 'cuda:0', …: onnxify reads every storage from the file
  if (!f[4].is_int() || f[4].as_int() < 0)
    fail(fmt::format("storage '{}' has a bad element count ({})", r.key, repr(f[4])));
  r.numel = f[4].as_int();
  if (__builtin_mul_overflow(static_cast<uint64_t>(r.numel), element_size(r.dtype), &r.nbytes))
    fail(fmt::format("storage '{}' claims more bytes than fit in 64 bits", r.key));
  if (fields > 5) r.view_metadata = f[5];
  return r;
}

Value contiguous_tensor(Heap& heap, const std::string& key, DType dtype, const std::vector<int64_t>& shape,
                        Bytes data) {
  auto* s = heap.make<StorageObject>();
  s->dtype = dtype;
  s->key = key;
  s->numel = static_cast<int64_t>(data.size() / element_size(dtype));
  s->data = std::move(data);
  s->loaded = true;
  auto* t = heap.make<TensorObject>();
  t->storage = s;
  t->tensor.dtype = dtype;
  t->tensor.shape = shape;
  t->tensor.strides.assign(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) t->tensor.strides[i - 1] = t->tensor.strides[i] * std::max<int64_t>(shape[i], 1);
  return Value::object(Kind::Tensor, t);
}

void bind_tensors(Heap& heap) {
  for (StorageObject* s : heap.storages()) {
    if (!s->view_of) continue;
    StorageObject* root = s->view_of;
    if (!root->loaded) continue;  // reported below, through the tensors that use it
    uint64_t begin, size;
    if (__builtin_mul_overflow(static_cast<uint64_t>(s->view_offset), element_size(root->dtype), &begin) ||
        __builtin_mul_overflow(static_cast<uint64_t>(s->numel), element_size(s->dtype), &size) ||
        begin > root->data.size() || size > root->data.size() - begin)
      fail(fmt::format("storage view '{}' lies outside its storage '{}'", s->key, root->key));
    s->data = root->data.slice(begin, size);
    s->loaded = true;
  }
  for (TensorObject* t : heap.tensors()) {
    if (!t->storage->loaded)
      fail(fmt::format("a tensor uses storage '{}', but the file holds no data for it", t->storage->key));
    t->tensor.storage = t->storage->data;
    std::string why = check_bounds(t->tensor);
    if (!why.empty())
      fail(fmt::format("a {} tensor of shape {} in storage '{}' {}", name(t->tensor.dtype),
                       shape_text(t->tensor.shape), t->storage->key, why));
  }
}

}  // namespace onnxify::weights
