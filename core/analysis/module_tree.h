// "Which module holds memory": live allocations summed over the tree of module calls
// (ModuleInstances), beside the groups outside any module, backward and untraced. Every row
// counts its subtree; the top-level rows sum exactly to the live bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/live_elements.h"
#include "core/analysis/module_instances.h"

namespace snapscope {

struct ModuleRow {
  uint32_t node = kModuleRoot;  // ModuleInstances::nodes() index
  uint32_t depth = 0;           // 0 for top-level rows
  std::string label;
  std::string path;         // the labels from the top down, joined by " > "
  uint64_t bytes = 0;       // this call and the calls below it
  uint64_t self_bytes = 0;  // allocated in this call's own forward
  uint64_t count = 0;       // allocations, subtree included
};

struct ModuleTree {
  size_t state = 0;
  uint64_t live_bytes = 0;
  std::vector<ModuleRow> rows;  // depth-first; siblings bytes descending, then label ascending
};

ModuleTree build_module_tree(std::span<const LiveElement> live, const ModuleInstances& modules, size_t state);

// The live elements whose allocation lies in `node`'s call or the calls below it.
std::vector<uint32_t> module_members(std::span<const LiveElement> live, const ModuleInstances& modules,
                                     uint32_t node);

// "Mem  Self  Count  Module", the module column indented by depth; max_rows > 0 shows that many
// rows and says how many more there are.
std::string module_tree_text(const ModuleTree& tree, size_t max_rows = 0);
// Exact bytes, one row per node: depth,bytes,self_bytes,count,module,path.
std::string module_tree_csv(const ModuleTree& tree);
// The top-level rows and their children, for a summary: "label: bytes" pairs in row order.
std::vector<const ModuleRow*> module_rows_to_depth(const ModuleTree& tree, uint32_t max_depth);

}  // namespace snapscope
