// C++ operations on the builtin containers and strings (their Python methods live in types_*.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "eval/interp.h"

namespace onnxify::eval {

// ---- str ------------------------------------------------------------------------------------------
int64_t str_hash(Str* s);
int64_t bytes_hash(std::string_view s);
Value new_str(Interp& I, std::string_view s);
Value new_str(Interp& I, std::string&& s);
inline bool str_eq(const Str* a, const Str* b) {
  return a == b || (a->s.size() == b->s.size() && (a->hash == -1 || b->hash == -1 || a->hash == b->hash) &&
                    a->s == b->s);
}
// Decodes one UTF-8 code point at s[i] and advances i (invalid bytes decode as U+FFFD).
uint32_t utf8_next(std::string_view s, size_t& i);
void utf8_append(std::string& out, uint32_t cp);
int64_t utf8_length(std::string_view s, bool* ascii = nullptr);
// The end of the run of ASCII bytes of s that starts at byte i (8 bytes at a time: most text is ASCII).
size_t ascii_run_end(std::string_view s, size_t i);
// Byte offset of code point `cp_index` in s.
size_t utf8_offset(const Str* s, int64_t cp_index);
// repr() of a str, with CPython's quote choice and escapes.
std::string str_repr(std::string_view s);

// ---- dict -----------------------------------------------------------------------------------------
// Lookups return Null when the key is absent. Keys may be any hashable value; str keys (the common
// case: namespaces, instance dicts) take a path that never calls back into Python.
Value dict_get(Interp& I, Dict* d, const Value& key);
Value dict_get_str(Dict* d, Str* key);
inline Value dict_get(Interp& I, Dict* d, std::string_view key) { return dict_get_str(d, I.intern(key)); }
void dict_set(Interp& I, Dict* d, const Value& key, Value v);
void dict_set_str(Interp& I, Dict* d, Str* key, Value v);
inline void dict_set(Interp& I, Dict* d, std::string_view key, Value v) {
  dict_set_str(I, d, I.intern(key), std::move(v));
}
bool dict_del(Interp& I, Dict* d, const Value& key);  // false when absent
Value dict_pop(Interp& I, Dict* d, const Value& key);  // Null when absent
void dict_clear(Interp& I, Dict* d);
Ref<Dict> dict_copy(Interp& I, Dict* d, Type* type = nullptr);
void dict_update(Interp& I, Dict* d, const Value& other);  // dict.update(other) for mappings/pairs
// Index of the entry for key (hash precomputed), or -1.
int64_t dict_find(Interp& I, Dict* d, const Value& key, int64_t hash);
int64_t dict_find_str(Dict* d, Str* key);
// Position of the i-th live entry at or after `pos`, or -1 (for iteration that survives mutation).
inline int64_t dict_next_live(Dict* d, int64_t pos) {
  while (pos < static_cast<int64_t>(d->entries.size())) {
    if (!d->entries[pos].key.is_null()) return pos;
    ++pos;
  }
  return -1;
}
Ref<Dict> new_dict_ref(Interp& I);

// ---- set ------------------------------------------------------------------------------------------
bool set_add(Interp& I, Set* s, const Value& key);  // false if already present
bool set_contains(Interp& I, Set* s, const Value& key);
bool set_discard(Interp& I, Set* s, const Value& key);  // false if absent
void set_update(Interp& I, Set* s, const Value& iterable);
Ref<Set> set_copy(Interp& I, Set* s, Type* type);
void set_clear(Interp& I, Set* s);
Value new_frozenset(Interp& I, const Value& iterable);

// ---- tuple / list ---------------------------------------------------------------------------------
Ref<Tuple> new_tuple_ref(Interp& I, std::vector<Value> items);
Ref<List> new_list_ref(Interp& I, std::vector<Value> items = {});
void list_append(Interp& I, List* l, Value v);
// Charges a list's capacity to the memory budget (after growing it by other means).
void list_track(Interp& I, List* l, size_t old_capacity);
Value tuple_pair(Interp& I, Value a, Value b);
// An iterator's next tuple (enumerate, zip, dict items), made in `cache` and reused there when the
// previous one is no longer held by anyone else, as CPython's iterators do: `for i, x in
// enumerate(xs)` unpacks and drops each tuple, so one tuple serves the whole loop.
Value iter_tuple(Interp& I, Value& cache, Value a, Value b);
Value iter_tuple(Interp& I, Value& cache, std::vector<Value>&& items);

// ---- sequences --------------------------------------------------------------------------------------
// Normalizes an index like CPython (negative from the end); false when out of range.
inline bool norm_index(int64_t& i, int64_t n) {
  if (i < 0) i += n;
  return i >= 0 && i < n;
}
// slice.indices(): start/stop/step clipped to a sequence of length n; returns the length.
int64_t slice_indices(Interp& I, Slice* s, int64_t n, int64_t* start, int64_t* stop, int64_t* step);
Value new_slice(Interp& I, Value start, Value stop, Value step);
Value new_range(Interp& I, int64_t start, int64_t stop, int64_t step);
// Lexicographic comparison of two sequences (tuple/list), CPython semantics.
Value seq_compare(Interp& I, const std::vector<Value>& a, const std::vector<Value>& b, int op);

}  // namespace onnxify::eval
