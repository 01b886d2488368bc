// tree-csv: the top-down call tree of live memory (filtered frames, as the viewer shows it)
// flattened depth first, one row per node with its depth, so a spreadsheet can rebuild it.
#include <cstdio>

#include "core/analysis/call_tree.h"
#include "core/analysis/text_table.h"
#include "core/export/export_common.h"

namespace snapscope {

namespace {

std::string frame_cell(const CallTree& tree, const StackSource& stacks, uint32_t id, std::string_view field) {
  const CallTreeNode& node = tree.node(id);
  if (node.kind != CallTreeNodeKind::Frame) return "";
  const FrameRef frame = stacks.frame(node.frame);
  if (field == "function") return csv_field(frame.name);
  if (field == "file") return csv_field(known_file(frame));
  const auto line = known_line(frame);
  return line ? std::to_string(*line) : std::string();
}

void write_node(const CallTree& tree, const StackSource& stacks, uint32_t id, BufferedFile& out) {
  const CallTreeNode& node = tree.node(id);
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.4f", tree.percent_of_total(id));
  out << uint64_t{node.depth} << ',' << node.bytes << ',' << node.self_bytes << ',' << node.count << ','
      << std::string_view(percent) << ',' << std::string_view(frame_cell(tree, stacks, id, "function")) << ','
      << std::string_view(frame_cell(tree, stacks, id, "file")) << ','
      << std::string_view(frame_cell(tree, stacks, id, "line")) << ','
      << std::string_view(csv_field(tree.label(id, stacks))) << '\n';
  for (uint32_t child : node.children) write_node(tree, stacks, child, out);
}

}  // namespace

void write_tree_csv(const ExportInput& input, size_t state, const std::string& path) {
  const CallTree tree =
      build_call_tree(live_elements(*input.blocks, state), *input.stacks, {TreeDirection::TopDown, true});
  BufferedFile out(path);
  out << "depth,bytes,self_bytes,count,percent,function,file,line,label\n";
  write_node(tree, *input.stacks, CallTree::kRoot, out);
  out.close();
}

}  // namespace snapscope
