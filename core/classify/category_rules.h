// User rules: a small JSON file mapping frame, location or annotation patterns to a category,
// built-in or custom (docs/RULES.md). Rules are tried in file order before the built-in evidence;
// the first that matches an allocation decides its category.
//
//   {"rules": [
//     {"frame": "*kv_cache*", "category": "kv cache"},
//     {"location": "*/data/loader.py:*", "category": "temporary"},
//     {"annotation": "Optimizer.step*", "category": "optimizer state"}
//   ]}
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace snapscope {

enum class RuleTarget : uint8_t {
  Frame,       // any frame of the allocation's stack: "file:line (function)" or the raw name
  Location,    // the allocation's location (the innermost user frame, as the tables show it)
  Annotation,  // an annotation range (record_function, ...) open when it was allocated
};
const char* rule_target_name(RuleTarget target);

struct CategoryRule {
  RuleTarget target = RuleTarget::Frame;
  std::string pattern;  // glob: '*' any run of characters, '?' one character
  std::string category;
};

struct CategoryRules {
  std::string file;  // where they were read from, for reasons ("rule 2 of rules.json")
  std::vector<CategoryRule> rules;
  bool empty() const { return rules.empty(); }
};

// Throws InputError("<file>: <what is wrong>") for unreadable or malformed rules.
CategoryRules parse_category_rules(std::string_view json_text, const std::string& file);
CategoryRules load_category_rules(const std::string& path);

// Whole-string glob match, case-sensitive.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace snapscope
