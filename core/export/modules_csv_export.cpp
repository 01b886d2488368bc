// modules-csv: the moment's live memory (or the bytes allocated in --range) by nn.Module call, as
// the report's --by module: one row per module call (subtree totals), depth-first.
#include "core/analysis/live_elements.h"
#include "core/analysis/module_tree.h"
#include "core/export/export_common.h"

namespace snapscope {

ModuleInstances export_module_instances(const ExportInput& input) {
  const std::span<const ReplayElement> elements = input.blocks->input().elements;
  static const ForwardFramesByEvent kNone;
  return ModuleInstances(
      elements, *input.stacks,
      forward_frames_by_alloc(elements, input.forward_frames ? *input.forward_frames : kNone));
}

void write_modules_csv(const ExportInput& input, const ExportRequest& request, const std::string& path) {
  // Bytes allocated in the range (freed or not), or the live bytes at the moment.
  const std::vector<LiveElement> elements = request.range ? allocated_in_range(*input.blocks, *request.range)
                                                          : live_elements(*input.blocks, request.state);
  const ModuleTree tree = build_module_tree(elements, export_module_instances(input), request.state);
  BufferedFile out(path);
  out << std::string_view(module_tree_csv(tree));
  out.close();
}

}  // namespace snapscope
