#include "core/classify/category_rules.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "core/classify/category.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/util/regular_file.h"

namespace snapscope {
namespace {

constexpr size_t kMaxPatternBytes = 4096;
constexpr uint64_t kMaxRulesFileBytes = uint64_t{1} << 20;  // docs/RULES.md
constexpr size_t kMaxRules = 256;
constexpr size_t kMaxCategoryNameBytes = 64;

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// "Parameter" is the built-in "parameter", not a second category beside it.
std::string canonical_category(const std::string& name) {
  for (CategoryId id = 0; id < kBuiltinCategories; ++id) {
    const std::string_view builtin = builtin_category_name(static_cast<Category>(id));
    if (same_ignoring_case(name, builtin)) return std::string(builtin);
  }
  return name;
}

CategoryRule parse_rule(const nlohmann::json& entry, size_t number, const std::string& file) {
  const std::string where = file + ": rule " + std::to_string(number) + ": ";
  if (!entry.is_object()) throw InputError(where + "is not an object");
  CategoryRule rule;
  int targets = 0;
  for (const RuleTarget target : {RuleTarget::Frame, RuleTarget::Location, RuleTarget::Annotation}) {
    const auto found = entry.find(rule_target_name(target));
    if (found == entry.end()) continue;
    if (!found->is_string()) throw InputError(where + "\"" + rule_target_name(target) + "\" is not a string");
    rule.target = target;
    rule.pattern = found->get<std::string>();
    ++targets;
  }
  if (targets != 1) throw InputError(where + "needs exactly one of \"frame\", \"location\", \"annotation\"");
  if (rule.pattern.empty() || rule.pattern.size() > kMaxPatternBytes)
    throw InputError(where + "the pattern is empty or longer than 4096 bytes");
  const auto category = entry.find("category");
  if (category == entry.end() || !category->is_string() || category->get<std::string>().empty())
    throw InputError(where + "needs a \"category\" name");
  rule.category = canonical_category(category->get<std::string>());
  if (rule.category.size() > kMaxCategoryNameBytes)
    throw InputError(where + "the category name is longer than " + std::to_string(kMaxCategoryNameBytes) +
                     " bytes");
  for (const auto& [key, value] : entry.items()) {
    if (key != "category" && key != "frame" && key != "location" && key != "annotation")
      throw InputError(where + "unknown key \"" + key + "\"");
  }
  return rule;
}

}  // namespace

const char* rule_target_name(RuleTarget target) {
  switch (target) {
    case RuleTarget::Frame:
      return "frame";
    case RuleTarget::Location:
      return "location";
    case RuleTarget::Annotation:
      return "annotation";
  }
  return "frame";
}

CategoryRules parse_category_rules(std::string_view json_text, const std::string& file) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& error) {
    std::string message = error.what();
    if (const size_t colon = message.find(": "); colon != std::string::npos)
      message = message.substr(colon + 2);
    throw InputError(file + ": not valid JSON: " + message);
  }
  if (!document.is_object() || !document.contains("rules") || !document["rules"].is_array())
    throw InputError(file + ": expected an object with a \"rules\" array");
  CategoryRules rules;
  rules.file = file;
  if (document["rules"].size() > kMaxRules)
    throw InputError(file + ": more than " + std::to_string(kMaxRules) + " rules");
  CategoryNames names;  // checks the number of custom categories
  size_t number = 0;
  for (const nlohmann::json& entry : document["rules"]) {
    rules.rules.push_back(parse_rule(entry, ++number, file));
    try {
      names.intern(rules.rules.back().category);
    } catch (const std::invalid_argument& error) {
      throw InputError(file + ": rule " + std::to_string(number) + ": " + error.what());
    }
  }
  return rules;
}

CategoryRules load_category_rules(const std::string& path) {
  std::string error;
  const std::string text = read_regular_file(path, kMaxRulesFileBytes, error);
  if (!error.empty()) throw InputError(path + ": cannot read the rules file (" + error + ")");
  return parse_category_rules(text, path);
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative matcher with one backtrack point (the last '*'): linear for typical patterns.
  size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace snapscope
