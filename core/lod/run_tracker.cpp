#include "core/lod/run_tracker.h"

#include <algorithm>

namespace snapscope {

size_t RunTracker::first_at_or_above(uint32_t position) const {
  return static_cast<size_t>(
      std::lower_bound(open_.begin(), open_.end(), position,
                       [](const Run& run, uint32_t p) { return run.piece.position < p; }) -
      open_.begin());
}

void RunTracker::close(const Run& run, double x) {
  const RunPiece& p = run.piece;
  out_.add({run.start, x, p.bottom, p.bottom, p.height, p.color_key, p.elem});
}

void RunTracker::replace_from(uint32_t from, std::span<const RunPiece> fresh, double x) {
  size_t keep = first_at_or_above(from);
  merged_.assign(open_.begin(), open_.begin() + static_cast<std::ptrdiff_t>(keep));
  size_t old = keep;
  for (const RunPiece& piece : fresh) {
    while (old < open_.size() && open_[old].piece.position < piece.position) close(open_[old++], x);
    bool continues = old < open_.size() && open_[old].piece.position == piece.position &&
                     open_[old].piece.bottom == piece.bottom && open_[old].piece.height == piece.height &&
                     open_[old].piece.color_key == piece.color_key;
    if (continues) {
      merged_.push_back(open_[old++]);
      continue;
    }
    if (old < open_.size() && open_[old].piece.position == piece.position) close(open_[old++], x);
    merged_.push_back({piece, x});
  }
  while (old < open_.size()) close(open_[old++], x);
  open_.swap(merged_);
}

void RunTracker::close_from(uint32_t from, double x) {
  size_t keep = first_at_or_above(from);
  for (size_t i = keep; i < open_.size(); ++i) close(open_[i], x);
  open_.resize(keep);
}

}  // namespace snapscope
