#include "core/analysis/call_tree_navigator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/analysis/source_location.h"

namespace snapscope {
namespace {

char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

std::string lowered(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(), lower);
  return result;
}

bool contains_lowered(std::string_view haystack, std::string_view lowered_needle) {
  const auto it = std::search(haystack.begin(), haystack.end(), lowered_needle.begin(), lowered_needle.end(),
                              [](char a, char b) { return lower(a) == b; });
  return it != haystack.end() || lowered_needle.empty();
}

}  // namespace

void CallTreeNavigator::focus(uint32_t node) {
  if (node >= tree_.size()) throw std::out_of_range("CallTreeNavigator::focus: no such node");
  if (node != root()) focus_.push_back(node);
}

bool CallTreeNavigator::unfocus() {
  if (focus_.empty()) return false;
  focus_.pop_back();
  return true;
}

bool CallTreeNavigator::matches_query(uint32_t node, std::string_view lowered_query) const {
  const CallTreeNode& data = tree_.node(node);
  if (data.kind == CallTreeNodeKind::Untraced) return contains_lowered(kUntracedLabel, lowered_query);
  if (data.kind != CallTreeNodeKind::Frame) return false;
  const FrameRef frame = source_.frame(data.frame);
  return contains_lowered(frame.name, lowered_query) || contains_lowered(frame.filename, lowered_query);
}

std::vector<uint32_t> CallTreeNavigator::search(std::string_view query) const {
  std::vector<uint32_t> found;
  if (query.empty()) return found;
  const std::string needle = lowered(query);
  // Explicit stack: deep recursive stacks (hundreds of frames) must not exhaust the call stack.
  std::vector<uint32_t> pending(tree_.node(root()).children.rbegin(), tree_.node(root()).children.rend());
  while (!pending.empty()) {
    const uint32_t node = pending.back();
    pending.pop_back();
    if (matches_query(node, needle)) found.push_back(node);
    const std::vector<uint32_t>& children = tree_.node(node).children;
    pending.insert(pending.end(), children.rbegin(), children.rend());
  }
  return found;
}

void CallTreeNavigator::set_query(std::string_view query) {
  matches_ = search(query);
  cursor_ = 0;
}

uint32_t CallTreeNavigator::next_match() {
  if (matches_.empty()) return kNoIndex;
  cursor_ = (cursor_ + 1) % matches_.size();
  return matches_[cursor_];
}

uint32_t CallTreeNavigator::previous_match() {
  if (matches_.empty()) return kNoIndex;
  cursor_ = (cursor_ + matches_.size() - 1) % matches_.size();
  return matches_[cursor_];
}

}  // namespace snapscope
