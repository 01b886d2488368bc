// Snapshot's allocator_settings live in a BoxedJson: it must behave as the JSON value it holds.
#include <doctest/doctest.h>

#include <utility>

#include <nlohmann/json.hpp>

#include "core/snapshot/model.h"

using namespace snapscope;

TEST_CASE("boxed json: null by default, copied deeply, moved and assigned like a value") {
  Snapshot snapshot;
  CHECK(snapshot.allocator_settings->is_null());
  *snapshot.allocator_settings = {{"max_split_size", -1}};

  BoxedJson copy = snapshot.allocator_settings;  // a deep copy: changing it leaves the original alone
  (*copy)["max_split_size"] = 512;
  CHECK((*snapshot.allocator_settings)["max_split_size"] == -1);
  CHECK((*copy)["max_split_size"] == 512);

  BoxedJson moved = std::move(copy);
  CHECK((*moved)["max_split_size"] == 512);
  copy = snapshot.allocator_settings;  // a moved-from box can be assigned again
  CHECK((*copy)["max_split_size"] == -1);
  const BoxedJson copied_from_moved = BoxedJson(std::move(moved));
  CHECK((*copied_from_moved)["max_split_size"] == 512);

  BoxedJson box(nlohmann::json::array({1, 2}));
  const BoxedJson& same = box;
  box = same;  // self-assignment keeps the value
  CHECK(*box == nlohmann::json::array({1, 2}));
}
