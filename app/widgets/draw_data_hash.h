// A fingerprint of one frame's ImGui draw data (vertices, indices, commands, clip rectangles and
// textures): equal fingerprints mean the frame would paint the same pixels, given the same
// texture contents.
#pragma once

#include <cstdint>

struct ImDrawData;

namespace snapscope {

uint64_t hash_draw_data(const ImDrawData& data);

}  // namespace snapscope
