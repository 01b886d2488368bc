// The snapshot's allocator_settings in words: what the Settings tab and --report print.
#include <doctest/doctest.h>

#include "core/allocator/allocator_settings.h"

using namespace snapscope;

TEST_CASE("allocator settings: PYTORCH_CUDA_ALLOC_CONF first, values a reader can act on") {
  // As elements.db stores them (JSON text), from a real expandable-segments run.
  const std::vector<std::pair<std::string, std::string>> raw = {
      {"expandable_segments", "true"},
      {"garbage_collection_threshold", "0.0"},
      {"max_split_size", "-1"},
      {"PYTORCH_CUDA_ALLOC_CONF", "\"expandable_segments:True\""},
      {"roundup_power2_divisions", R"({"1":0,"1024":0,"256":4,"512":2})"},
      {"some_future_key", "[1,2]"},
  };
  const std::vector<AllocatorSetting> settings = describe_allocator_settings(raw);
  REQUIRE(settings.size() == 6);
  CHECK(settings[0].key == "PYTORCH_CUDA_ALLOC_CONF");
  CHECK(settings[0].value == "expandable_segments:True");
  CHECK(settings[1].value == "true");
  CHECK_FALSE(settings[1].meaning.empty());
  CHECK(settings[2].value == "off");
  CHECK(settings[3].value == "unlimited");
  CHECK(settings[4].value == "256 MiB: 4, 512 MiB: 2");
  CHECK(settings[5].value == "[1,2]");
  CHECK(settings[5].meaning.empty());
  CHECK(allocator_settings_line(settings) ==
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; expandable_segments=true, "
        "garbage_collection_threshold=off, max_split_size=unlimited, roundup_power2_divisions=256 MiB: 4, "
        "512 MiB: 2, some_future_key=[1,2]");
}

TEST_CASE("allocator settings: an unset variable, no settings at all, and malformed JSON") {
  CHECK(describe_allocator_settings({{"PYTORCH_CUDA_ALLOC_CONF", "\"\""}})[0].value == "(not set)");
  CHECK(allocator_settings_line({}) == "not recorded");
  CHECK(describe_allocator_settings({{"max_split_size", "{oops"}})[0].value == "{oops");
  CHECK(describe_allocator_settings({{"roundup_power2_divisions", R"({"1":0})"}})[0].value == "off");
}
