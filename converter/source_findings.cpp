#include "converter/source_findings.h"

#include <filesystem>

#include "core/allocator/db_event_source.h"
#include "core/analysis/trace_overflow.h"
#include "core/snapshot/model.h"

namespace snapscope {
namespace {

bool from_directory(const AnalysisSource& source) { return source.snapshot == nullptr; }

std::string elements_db_of(const AnalysisSource& source) {
  return (std::filesystem::path(source.file) / "elements.db").string();
}

std::unique_ptr<AllocatorHistory> load_history(const AnalysisSource& source) {
  if (from_directory(source)) return allocator_history_from_db(elements_db_of(source), source.device);
  return allocator_history_from_snapshot(*source.snapshot, source.device);  // outlived by the snapshot
}

std::optional<std::string> overflow_warning(const AnalysisSource& source) {
  if (from_directory(source)) return trace_overflow_warning_in_db(elements_db_of(source));
  return trace_overflow_warning(*source.snapshot->allocator_settings);
}

}  // namespace

Classification classify_source(const AnalysisSource& source, const CategoryRules* rules) {
  return classify_allocations({*source.blocks, *source.stacks, source.annotations, rules});
}

std::vector<Finding> source_findings(const AnalysisSource& source, const Classification& classification) {
  const std::unique_ptr<AllocatorHistory> history = load_history(source);
  FindingsInput input{*source.blocks, classification, *source.stacks, history.get(),
                      overflow_warning(source)};
  return find_findings(input);
}

nlohmann::json categories_json(const Classification& classification, const Timeline& timeline, size_t state) {
  const std::vector<uint64_t> bytes = category_bytes_at(classification, timeline, state);
  nlohmann::json categories = nlohmann::json::object();
  for (size_t id = 0; id < bytes.size(); ++id)
    categories[std::string(classification.names.name(static_cast<CategoryId>(id)))] = bytes[id];
  return categories;
}

}  // namespace snapscope
