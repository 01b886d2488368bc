#include "core/cursor/stack_catalog.h"

#include <stdexcept>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/elements_db/elements_db_reader.h"

namespace snapscope {

StackCatalog::StackCatalog(std::vector<std::string> strings, std::vector<Frame> frames,
                           std::vector<uint64_t> stack_begin, std::vector<FrameId> stack_frames)
    : strings_(std::move(strings)),
      frames_(std::move(frames)),
      stack_begin_(std::move(stack_begin)),
      stack_frames_(std::move(stack_frames)) {
  if (stack_begin_.empty()) stack_begin_.push_back(0);
}

std::span<const FrameId> StackCatalog::stack_frames(StackId stack) const {
  if (size_t{stack} + 1 >= stack_begin_.size()) return {};
  return std::span<const FrameId>(stack_frames_)
      .subspan(stack_begin_[stack], stack_begin_[stack + 1] - stack_begin_[stack]);
}

FrameRef StackCatalog::frame(FrameId id) const {
  if (id >= frames_.size()) return {};
  const Frame& ids = frames_[id];
  return FrameRef{string(ids.name),
                  string(ids.filename),
                  ids.line,
                  string(ids.fx_node_op),
                  string(ids.fx_node_name),
                  string(ids.fx_node_target),
                  string(ids.fx_original_trace)};
}

std::shared_ptr<const StackCatalog> catalog_from_snapshot(const Snapshot& snapshot) {
  std::vector<std::string> strings;
  strings.reserve(snapshot.strings.size());
  for (StringId id = 0; id < snapshot.strings.size(); ++id) strings.emplace_back(snapshot.strings.view(id));
  std::vector<Frame> frames;
  frames.reserve(snapshot.frames.size());
  for (FrameId id = 0; id < snapshot.frames.size(); ++id) frames.push_back(snapshot.frames.get(id));
  std::vector<uint64_t> begin{0};
  std::vector<FrameId> stack_frames;
  for (StackId id = 0; id < snapshot.stacks.size(); ++id) {
    const std::span<const FrameId> frames_of = snapshot.stacks.frames(id);
    stack_frames.insert(stack_frames.end(), frames_of.begin(), frames_of.end());
    begin.push_back(stack_frames.size());
  }
  return std::make_shared<StackCatalog>(std::move(strings), std::move(frames), std::move(begin),
                                        std::move(stack_frames));
}

std::shared_ptr<const StackCatalog> catalog_from_elements_db(const std::string& path) {
  try {
    StackTables tables = ElementsDbReader(path).stack_tables();
    return std::make_shared<StackCatalog>(std::move(tables.strings), std::move(tables.frames),
                                          std::move(tables.stack_begin), std::move(tables.stack_frames));
  } catch (const InputError&) {
    throw;
  } catch (const std::runtime_error& failure) {
    throw InputError(failure.what());  // SQLite errors already name the file
  }
}

}  // namespace snapscope
