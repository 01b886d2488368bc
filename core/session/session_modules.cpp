// Session: live memory at the cursor by nn.Module call (the Modules tab). Two background results:
// the module placement of every allocation (once per device, it reads every stack) and the tree
// at the cursor (a pass over the live set), each started when the other or the catalog lands.
#include <chrono>
#include <thread>

#include "core/analysis/live_elements.h"
#include "core/analysis/state_mapping.h"
#include "core/session/session.h"

namespace snapscope {

std::optional<Session::ModuleTreeKey> Session::module_tree_key() const {
  const DeviceDocument* shown = device();
  if (shown == nullptr || timeline() == nullptr || !cursor.placed()) return std::nullopt;
  // Module calls are read from allocations: a segments cursor is mapped through its event.
  const size_t state =
      settings.kind == TimelineKind::Blocks
          ? cursor.state()
          : state_after_event(shown->blocks, event_of_state(shown->segments, cursor.state()));
  return ModuleTreeKey{&shown->blocks, state};
}

const SessionModuleTree* Session::module_tree() {
  module_tree_wanted_ = module_tree_key();
  if (!module_tree_wanted_) return nullptr;
  start_module_tree();
  const bool same_device = module_tree_ && module_tree_->blocks == module_tree_wanted_->blocks;
  return same_device ? module_tree_.get() : nullptr;
}

bool Session::module_tree_current() const { return !module_tree_pending(); }

bool Session::module_tree_pending() const {
  if (!module_tree_wanted_ || module_tree_shown_ == module_tree_wanted_) return false;
  // Asked for on a device no longer shown: nothing builds it.
  const DeviceDocument* shown = device();
  if (shown == nullptr || &shown->blocks != module_tree_wanted_->blocks) return false;
  // Without stacks (the database or catalog failed) no tree can come.
  return database_writing() || catalog_.running() || catalog_.get() != nullptr;
}

const SessionModuleTree* Session::module_tree_now() {
  const SessionModuleTree* tree = module_tree();
  while (module_tree_pending()) {
    poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  tree = module_tree();
  const bool cursors =
      tree != nullptr && module_tree_wanted_ && tree->tree.state == module_tree_wanted_->state;
  return cursors ? tree : nullptr;
}

void Session::start_module_tree() {
  if (!module_tree_wanted_ || module_tree_shown_ == module_tree_wanted_ || module_tree_build_.running())
    return;
  const ModuleTreeKey wanted = *module_tree_wanted_;
  const std::shared_ptr<const SessionModules>& index = module_index_.get();
  if (!index || index->blocks != wanted.blocks) {
    if (module_index_key_ != wanted.blocks) {
      start_module_index(*wanted.blocks);
    } else if (!module_index_.running()) {
      // It failed: show what was there rather than wait forever.
      module_tree_error_ = "modules: " + module_index_.error();
      module_tree_shown_ = wanted;
    }
    return;
  }
  module_tree_building_ = wanted;
  module_tree_build_.start(
      [index, wanted](const std::atomic<bool>&) {
        auto result = std::make_shared<SessionModuleTree>();
        result->blocks = wanted.blocks;
        result->modules = index;
        result->live = live_elements(*wanted.blocks, wanted.state);
        result->tree = build_module_tree(result->live, index->instances, wanted.state);
        return std::shared_ptr<const SessionModuleTree>(std::move(result));
      },
      ready_);
}

void Session::start_module_index(const Timeline& blocks) {
  const DeviceDocument* shown = device();
  // The catalog's landing retries; the database's, when the catalog came from memory first.
  if (!catalog_.get() || !database_settled_ || shown == nullptr || &shown->blocks != &blocks) return;
  module_index_key_ = &blocks;
  module_index_.start(
      [db = document_->elements_db().string(), index = shown->device, &blocks,
       catalog = catalog_.get()](const std::atomic<bool>&) {
        // Backward allocations name their forward module through the alloc event's forward stack.
        ForwardFramesByEvent forward;
        for (auto& [event, text] : ElementsDbReader(db).forward_frames_events(index))
          forward.emplace(event, std::move(text));
        const std::span<const ReplayElement> elements = blocks.input().elements;
        return std::make_shared<const SessionModules>(
            blocks, ModuleInstances(elements, *catalog, forward_frames_by_alloc(elements, forward)));
      },
      ready_);
}

}  // namespace snapscope
