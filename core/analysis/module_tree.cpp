#include "core/analysis/module_tree.h"

#include <algorithm>

#include "core/analysis/text_table.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

struct Totals {
  uint64_t bytes = 0, self_bytes = 0, count = 0;
};

void add_rows(const ModuleInstances& modules, const std::vector<Totals>& totals,
              const std::vector<std::vector<uint32_t>>& children, uint32_t node, uint32_t depth,
              const std::string& parent_path, ModuleTree& tree) {
  std::vector<uint32_t> kids = children[node];
  std::sort(kids.begin(), kids.end(), [&](uint32_t a, uint32_t b) {
    if (totals[a].bytes != totals[b].bytes) return totals[a].bytes > totals[b].bytes;
    return modules.nodes()[a].label < modules.nodes()[b].label;
  });
  for (uint32_t kid : kids) {
    ModuleRow row;
    row.node = kid;
    row.depth = depth;
    row.label = modules.nodes()[kid].label;
    row.path = parent_path.empty() ? row.label : parent_path + " > " + row.label;
    row.bytes = totals[kid].bytes;
    row.self_bytes = totals[kid].self_bytes;
    row.count = totals[kid].count;
    const std::string path = row.path;
    tree.rows.push_back(std::move(row));
    add_rows(modules, totals, children, kid, depth + 1, path, tree);
  }
}

}  // namespace

ModuleTree build_module_tree(std::span<const LiveElement> live, const ModuleInstances& modules,
                             size_t state) {
  const std::vector<ModuleNode>& nodes = modules.nodes();
  std::vector<Totals> totals(nodes.size());
  ModuleTree tree;
  tree.state = state;
  for (const LiveElement& element : live) {
    tree.live_bytes += element.size;
    uint32_t node = modules.node_of(element.elem);
    totals[node].self_bytes += element.size;
    for (;; node = nodes[node].parent) {
      totals[node].bytes += element.size;
      ++totals[node].count;
      if (node == kModuleRoot) break;
    }
  }
  // Only the nodes holding live memory become rows.
  std::vector<std::vector<uint32_t>> children(nodes.size());
  for (uint32_t node = 1; node < nodes.size(); ++node)
    if (totals[node].count > 0) children[nodes[node].parent].push_back(node);
  add_rows(modules, totals, children, kModuleRoot, 0, "", tree);
  return tree;
}

std::vector<uint32_t> module_members(std::span<const LiveElement> live, const ModuleInstances& modules,
                                     uint32_t node) {
  const std::vector<ModuleNode>& nodes = modules.nodes();
  std::vector<uint32_t> members;
  for (const LiveElement& element : live) {
    for (uint32_t at = modules.node_of(element.elem);; at = nodes[at].parent) {
      if (at == node) {
        members.push_back(element.elem);
        break;
      }
      if (at == kModuleRoot) break;
    }
  }
  return members;
}

std::string module_tree_text(const ModuleTree& tree, size_t max_rows) {
  TextTable text({"Mem", "Self", "Count", "Module"});
  const size_t shown = max_rows == 0 ? tree.rows.size() : std::min(max_rows, tree.rows.size());
  for (size_t i = 0; i < shown; ++i) {
    const ModuleRow& row = tree.rows[i];
    text.add_row({format_bytes(double(row.bytes)), format_bytes(double(row.self_bytes)),
                  format_grouped(row.count), std::string(2 * row.depth, ' ') + row.label});
  }
  std::string rendered = text.render();
  if (shown < tree.rows.size())
    rendered += "(" + std::to_string(tree.rows.size() - shown) + " more module rows)\n";
  return rendered;
}

std::string module_tree_csv(const ModuleTree& tree) {
  std::string csv = "depth,bytes,self_bytes,count,module,path\n";
  for (const ModuleRow& row : tree.rows) {
    csv += std::to_string(row.depth) + ',' + std::to_string(row.bytes) + ',' +
           std::to_string(row.self_bytes) + ',' + std::to_string(row.count) + ',' + csv_field(row.label) +
           ',' + csv_field(row.path) + '\n';
  }
  return csv;
}

std::vector<const ModuleRow*> module_rows_to_depth(const ModuleTree& tree, uint32_t max_depth) {
  std::vector<const ModuleRow*> rows;
  for (const ModuleRow& row : tree.rows)
    if (row.depth <= max_depth) rows.push_back(&row);
  return rows;
}

}  // namespace snapscope
