// A bump allocator that owns every AST node, list and decoded string of one parsed module.
//
// Nodes are trivially destructible (pointers, spans, string_views, numbers), so the arena frees
// memory in blocks and never runs destructors. Allocation is a pointer bump; a module's whole tree
// lives in a handful of large blocks, which keeps the parser fast and the tree cache-friendly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace onnxify::syntax {

class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  Arena(Arena&&) = default;
  Arena& operator=(Arena&&) = default;

  void* allocate(size_t size, size_t align) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + (align - 1)) & ~(uintptr_t)(align - 1);
    if (p + size > reinterpret_cast<uintptr_t>(end_)) return allocate_slow(size, align);
    cur_ = reinterpret_cast<char*>(p + size);
    return reinterpret_cast<void*>(p);
  }

  template <class T, class... Args>
  T* make(Args&&... args) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    return new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
  }

  // Copies `items` into the arena and returns a span over the copy.
  template <class T>
  std::span<T> copy(std::span<const T> items) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (items.empty()) return {};
    T* p = static_cast<T*>(allocate(sizeof(T) * items.size(), alignof(T)));
    std::memcpy(static_cast<void*>(p), items.data(), sizeof(T) * items.size());
    return {p, items.size()};
  }

  std::string_view copy(std::string_view s) {
    if (s.empty()) return std::string_view("", 0);
    char* p = static_cast<char*>(allocate(s.size(), 1));
    std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
  }

  // Bytes handed out so far (for benchmarks and memory budgets).
  size_t bytes_allocated() const { return total_; }

 private:
  void* allocate_slow(size_t size, size_t align) {
    size_t want = size + align;
    size_t block = want > next_block_ ? want : next_block_;
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(block));  // no zeroing
    total_ += block;
    cur_ = blocks_.back().get();
    end_ = cur_ + block;
    if (next_block_ < (size_t{8} << 20)) next_block_ *= 2;  // grow geometrically up to 8 MiB blocks
    return allocate(size, align);
  }

  std::vector<std::unique_ptr<char[]>> blocks_;
  char* cur_ = nullptr;
  char* end_ = nullptr;
  size_t next_block_ = 64 * 1024;
  size_t total_ = 0;
};

}  // namespace onnxify::syntax
