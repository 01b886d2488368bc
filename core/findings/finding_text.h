// Phrases the findings share: a moment ("event #19335, 0.56 s in"), a category breakdown, the
// top allocation sites of a moment.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/stack_source.h"
#include "core/classify/classifier.h"
#include "core/timeline/timeline.h"

namespace snapscope {

std::string moment_phrase(const Timeline& timeline, size_t state);
// "in the forward, inside ProfilerStep#3": the phase of `state`'s action and the annotations
// open there, outermost first.
std::string where_in_phases(const Classification& classification, size_t state);
// "optimizer state 25.38 GiB (49.7%), parameter 12.69 GiB (24.9%), ..." largest first, zeros left out.
std::string category_breakdown(const CategoryNames& names, std::span<const uint64_t> bytes);
// "optimizers.py:82 (step) 12.69 GiB, ..." the n largest locations live in `state`.
std::string top_sites(const Timeline& timeline, const StackSource& stacks, size_t state, size_t n);
// The largest allocation live in `state`, if any.
std::optional<uint32_t> largest_live(const Timeline& timeline, size_t state);
std::string percent(uint64_t part, uint64_t whole);

}  // namespace snapscope
