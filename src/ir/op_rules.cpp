#include "ir/op_rules.h"

#include <map>
#include <memory>
#include <mutex>

#include "ir/composite_ops.h"

namespace onnxify::ir {

namespace {
struct Registry {
  std::mutex mu;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<OpRule>, std::less<>> rules;
};
Registry& registry() {
  static Registry r;
  return r;
}
// The composite ops of composite_ops.def are built in: their rules are registered before the first
// lookup, so every user of the verifier knows them (src/torch may still replace a rule).
void ensure_builtin_rules() {
  static std::once_flag once;
  std::call_once(once, [] {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    for (OpRule& rule : composite_op_rules()) {
      auto key = std::make_pair(rule.domain, rule.op_type);
      r.rules[key] = std::make_unique<OpRule>(std::move(rule));
    }
  });
}
}  // namespace

void register_op_rule(OpRule rule) {
  ensure_builtin_rules();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto key = std::make_pair(rule.domain, rule.op_type);
  r.rules[key] = std::make_unique<OpRule>(std::move(rule));
}

const OpRule* find_op_rule(std::string_view domain, std::string_view op_type) {
  ensure_builtin_rules();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.rules.find(std::make_pair(std::string(domain), std::string(op_type)));
  return it == r.rules.end() ? nullptr : it->second.get();
}

std::vector<const OpRule*> all_op_rules() {
  ensure_builtin_rules();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<const OpRule*> out;
  for (const auto& [k, v] : r.rules) out.push_back(v.get());
  return out;
}

}  // namespace onnxify::ir
