// A hand-made JSON snapshot with private memory pools, for the "Allocated Memory (incl. Private
// Pools)" view's tests (unit and through the app). Where its expected layout comes from: see
// tests/unit/core/allocator/test_private_pool_view.cpp.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

namespace snapscope::test {

// Device 0: the default pool's segment; pool (1, 5) on stream 7 with a block live before the
// trace, a block freed without its alloc in the trace, a block bigger than its reserved memory
// and one allocation on stream 9 (its own envelope); pool (2, 9), expandable, growing by
// segment_map; an allocation at an address no end-of-trace segment holds (default pool).
inline nlohmann::json private_pools_snapshot() {
  constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;
  nlohmann::json events = nlohmann::json::array();
  int64_t time = 1000;
  const auto event = [&](const char* action, uint64_t addr, uint64_t size, uint64_t stream) {
    time += 10;
    events.push_back({{"action", action},
                      {"addr", addr},
                      {"size", size},
                      {"stream", stream},
                      {"time_us", time},
                      {"frames", nlohmann::json::array()}});
  };
  const auto free = [&](uint64_t addr, uint64_t size, uint64_t stream) {
    event("free_requested", addr, size, stream);
    event("free_completed", addr, size, stream);
  };
  event("alloc", 0x1000000, 1 * MiB, 0);  // A
  event("alloc", 0x2100000, 1 * MiB, 7);  // B, pool (1, 5)
  event("alloc", 0x2200000, 3 * MiB, 7);  // C: the pool's blocks exceed its reserved bytes
  event("alloc", 0x1100000, 2 * MiB, 0);  // D
  free(0x2200000, 3 * MiB, 7);
  event("alloc", 0x2200000, 1 * MiB, 7);  // E
  event("segment_map", 0x4000000, 2 * MiB, 7);
  event("alloc", 0x4000000, 1 * MiB, 7);  // F, pool (2, 9)
  event("segment_map", 0x4200000, 2 * MiB, 7);
  event("alloc", 0x4200000, 1536 * KiB, 7);  // G
  free(0x1100000, 2 * MiB, 0);
  event("free_completed", 0x2300000, 256 * KiB, 7);  // H: freed, never allocated in the trace
  event("alloc", 0x2380000, 256 * KiB, 9);           // J, pool (1, 5) on stream 9
  free(0x4200000, 1536 * KiB, 7);
  event("segment_unmap", 0x4300000, 1 * MiB, 7);
  event("alloc", 0x4500000, 1 * MiB, 7);  // L: no segment holds it
  event("segment_map", 0x4300000, 1 * MiB, 7);
  free(0x4500000, 1 * MiB, 7);
  event("alloc", 0x1100000, 512 * KiB, 0);  // I
  free(0x2380000, 256 * KiB, 9);
  free(0x2200000, 1 * MiB, 7);
  event("alloc", 0x1200000, 768 * KiB, 0);  // K
  const auto block = [](uint64_t address, uint64_t size, const char* state) {
    return nlohmann::json{{"address", address},
                          {"size", size},
                          {"requested_size", size},
                          {"state", state},
                          {"frames", nlohmann::json::array()}};
  };
  const auto segment = [](uint64_t address, uint64_t total, uint64_t stream, nlohmann::json pool,
                          bool expandable, nlohmann::json blocks) {
    return nlohmann::json{{"device", 0},
                          {"address", address},
                          {"total_size", total},
                          {"stream", stream},
                          {"segment_type", "large"},
                          {"segment_pool_id", std::move(pool)},
                          {"allocated_size", 0},
                          {"active_size", 0},
                          {"requested_size", 0},
                          {"is_expandable", expandable},
                          {"frames", nlohmann::json::array()},
                          {"blocks", std::move(blocks)}};
  };
  nlohmann::json segments = nlohmann::json::array();
  segments.push_back(
      segment(0x1000000, 8 * MiB, 0, {0, 0}, false,
              {block(0x1000000, 1 * MiB, "active_allocated"), block(0x1100000, 512 * KiB, "active_allocated"),
               block(0x1180000, 512 * KiB, "inactive"), block(0x1200000, 768 * KiB, "active_allocated"),
               block(0x12c0000, 8 * MiB - 2 * MiB - 768 * KiB, "inactive")}));
  segments.push_back(
      segment(0x2000000, 4 * MiB, 7, {1, 5}, false,
              {block(0x2000000, 512 * KiB, "active_allocated"), block(0x2080000, 512 * KiB, "inactive"),
               block(0x2100000, 1 * MiB, "active_allocated"), block(0x2200000, 2 * MiB, "inactive")}));
  segments.push_back(
      segment(0x4000000, 4 * MiB, 7, {2, 9}, true,
              {block(0x4000000, 1 * MiB, "active_allocated"), block(0x4100000, 3 * MiB, "inactive")}));
  return {
      {"segments", segments}, {"device_traces", {events}}, {"allocator_settings", nlohmann::json::object()}};
}

}  // namespace snapscope::test
