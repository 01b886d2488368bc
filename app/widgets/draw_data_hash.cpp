#include "app/widgets/draw_data_hash.h"

#include <imgui.h>

#include <cstring>

namespace snapscope {
namespace {

// Word-at-a-time mixing: a full frame is a few MB of vertices, hashed well under a millisecond.
uint64_t mix(uint64_t hash, const void* bytes, size_t size) {
  const auto* in = static_cast<const unsigned char*>(bytes);
  constexpr uint64_t kPrime = 0x100000001b3ULL;
  size_t at = 0;
  for (; at + 8 <= size; at += 8) {
    uint64_t word = 0;
    std::memcpy(&word, in + at, 8);
    hash = (hash ^ word) * kPrime;
    hash ^= hash >> 29;
  }
  for (; at < size; ++at) hash = (hash ^ in[at]) * kPrime;
  return (hash ^ size) * kPrime;
}

}  // namespace

uint64_t hash_draw_data(const ImDrawData& data) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  hash = mix(hash, &data.DisplayPos, sizeof(data.DisplayPos));
  hash = mix(hash, &data.DisplaySize, sizeof(data.DisplaySize));
  for (int list = 0; list < data.CmdListsCount; ++list) {
    const ImDrawList& draw_list = *data.CmdLists[list];
    hash = mix(hash, draw_list.VtxBuffer.Data, static_cast<size_t>(draw_list.VtxBuffer.size_in_bytes()));
    hash = mix(hash, draw_list.IdxBuffer.Data, static_cast<size_t>(draw_list.IdxBuffer.size_in_bytes()));
    for (const ImDrawCmd& command : draw_list.CmdBuffer) {
      hash = mix(hash, &command.ClipRect, sizeof(command.ClipRect));
      hash = mix(hash, &command.TextureId, sizeof(command.TextureId));
      const unsigned counts[4] = {command.VtxOffset, command.IdxOffset, command.ElemCount,
                                  command.UserCallback != nullptr ? 1u : 0u};
      hash = mix(hash, counts, sizeof(counts));
    }
  }
  return hash;
}

}  // namespace snapscope
