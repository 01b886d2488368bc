// speedscope (https://www.speedscope.app) sampled profiles of memory: one sample per call-tree
// leaf-or-self node, its stack the filtered frames from the outermost one down, its weight the
// bytes whose stack ends there. Built from the viewer's top-down call tree, so the profile's
// total weight is exactly the tree's root bytes.
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/analysis/call_tree.h"
#include "core/analysis/source_location.h"
#include "core/analysis/state_mapping.h"
#include "core/export/export_common.h"

namespace snapscope {

namespace {

constexpr std::string_view kSchema = "https://www.speedscope.app/file-format-schema.json";

// speedscope's shared frame table: one entry per distinct call-tree frame.
class FrameTable {
 public:
  explicit FrameTable(const StackSource& stacks) : stacks_(stacks) {}

  size_t index_of(const CallTreeNode& node) {
    const uint64_t key = node.kind == CallTreeNodeKind::Frame ? uint64_t{node.frame} : kUntracedKey;
    auto [it, inserted] = index_.try_emplace(key, frames_.size());
    if (inserted) frames_.push_back(describe(node));
    return it->second;
  }
  nlohmann::json take() { return std::move(frames_); }

 private:
  static constexpr uint64_t kUntracedKey = uint64_t{1} << 40;  // above every FrameId

  nlohmann::json describe(const CallTreeNode& node) const {
    if (node.kind != CallTreeNodeKind::Frame) return {{"name", std::string(kUntracedLabel)}};
    const FrameRef frame = stacks_.frame(node.frame);
    nlohmann::json out = {{"name", frame.name.empty() ? std::string("??") : std::string(frame.name)}};
    if (!known_file(frame).empty()) out["file"] = std::string(known_file(frame));
    if (const auto line = known_line(frame)) out["line"] = *line;
    return out;
  }

  const StackSource& stacks_;
  nlohmann::json frames_ = nlohmann::json::array();
  std::unordered_map<uint64_t, size_t> index_;
};

// Depth first from the root, children by bytes descending: speedscope's "time order" view then
// shows the largest stacks first.
void append_samples(const CallTree& tree, uint32_t id, FrameTable& frames, std::vector<size_t>& stack,
                    nlohmann::json& samples, nlohmann::json& weights) {
  const CallTreeNode& node = tree.node(id);
  if (id != CallTree::kRoot) stack.push_back(frames.index_of(node));
  if (node.self_bytes > 0 && id != CallTree::kRoot) {
    samples.push_back(stack);
    weights.push_back(node.self_bytes);
  }
  for (uint32_t child : node.children) append_samples(tree, child, frames, stack, samples, weights);
  if (id != CallTree::kRoot) stack.pop_back();
}

void write_profile(const ExportInput& input, std::span<const LiveElement> elements, const std::string& title,
                   const std::string& path) {
  const CallTree tree = build_call_tree(elements, *input.stacks, {TreeDirection::TopDown, true});
  FrameTable frames(*input.stacks);
  nlohmann::json samples = nlohmann::json::array(), weights = nlohmann::json::array();
  std::vector<size_t> stack;
  append_samples(tree, CallTree::kRoot, frames, stack, samples, weights);
  nlohmann::json profile = {{"type", "sampled"},
                            {"name", title},
                            {"unit", "bytes"},
                            {"startValue", 0},
                            {"endValue", tree.total_bytes()},
                            {"samples", std::move(samples)},
                            {"weights", std::move(weights)}};
  const nlohmann::json file = {{"$schema", kSchema},
                               {"shared", {{"frames", frames.take()}}},
                               {"profiles", nlohmann::json::array({std::move(profile)})},
                               {"name", title},
                               {"activeProfileIndex", 0},
                               {"exporter", "snapscope"}};
  BufferedFile out(path);
  out << std::string_view(file.dump()) << '\n';
  out.close();
}

std::string device_text(const ExportInput& input) { return device_name(input.device); }

}  // namespace

void write_speedscope_live(const ExportInput& input, size_t state, const std::string& path) {
  const int64_t event = event_of_state(*input.blocks, state);
  const std::string moment = event < 0 ? "before any event" : "after event " + std::to_string(event);
  const std::string title = display_name(input) + ": live memory " + moment + " (" + device_text(input) + ")";
  write_profile(input, live_elements(*input.blocks, state), title, path);
}

void write_speedscope_allocated(const ExportInput& input, EventRange range, const std::string& path) {
  const bool whole = range.first <= 0 && range.last == INT64_MAX;
  const std::string span =
      whole ? "the whole trace" : "events " + std::to_string(range.first) + ".." + std::to_string(range.last);
  const std::string title =
      display_name(input) + ": bytes allocated over " + span + " (" + device_text(input) + ")";
  write_profile(input, allocated_in_range(*input.blocks, range), title, path);
}

}  // namespace snapscope
