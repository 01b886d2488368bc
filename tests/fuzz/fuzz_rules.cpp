// libFuzzer harness: a category rules file (docs/RULES.md) -> parse_category_rules -> every
// rule's glob against a few texts. Only InputError is an acceptable failure; a parsed file holds
// at most 256 rules, each category name at most 64 bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "core/classify/category_rules.h"
#include "core/snapshot/snapshot_reader.h"
#include "fuzz_fixture.h"

using namespace snapscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  CategoryRules rules;
  try {
    rules = parse_category_rules(fuzz::as_text(data, size), "fuzz-rules.json");
  } catch (const InputError&) {
    return 0;
  }
  if (rules.rules.size() > 256) std::abort();
  for (const CategoryRule& rule : rules.rules) {
    if (rule.category.empty() || rule.category.size() > 64) std::abort();
    for (const char* text : {"", "model.py:12 (forward)", "/x/data/loader.py:3 (next)", "Optimizer.step#Adam",
                             "untraced / pre-existing"}) {
      (void)glob_match(rule.pattern, text);
    }
  }
  return 0;
}
