// The cache of what runs of GETs reduced to: a run is found only by its exact bytes (its APPENDS
// included, so a shorter run never answers for a longer one), and only while the memo it was
// read from is unchanged.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/pickle/get_run_cache.h"
#include "core/pickle/memo.h"

using namespace snapscope::pickle;

namespace {

constexpr uint8_t kBinGet = 'h';
constexpr uint8_t kAppends = 'e';

// BINGETs of `indices`, then APPENDS.
std::vector<uint8_t> run_of(std::initializer_list<uint8_t> indices) {
  std::vector<uint8_t> bytes;
  for (uint8_t index : indices) {
    bytes.push_back(kBinGet);
    bytes.push_back(index);
  }
  bytes.push_back(kAppends);
  return bytes;
}

uint64_t key_of(const std::vector<uint8_t>& run) { return GetRunCache::hash({run.data(), run.size() - 1}); }

}  // namespace

TEST_CASE("get run cache: a run is found by its exact bytes, what follows them aside") {
  MemoValues memo(16);
  GetRunCache cache;
  cache.check(&memo, 0);
  const auto run = run_of({1, 2, 3});
  CHECK_FALSE(cache.find(key_of(run), run).has_value());
  CHECK_FALSE(cache.find(0, run).has_value());  // no key is 0: it marks an empty way
  CHECK(key_of(run) != 0);
  cache.add(key_of(run), run, Value::handle(Kind::Stack, 7));

  auto followed = run;
  followed.insert(followed.end(), {kBinGet, 9, 's'});  // the dict's next key and more
  const auto hit = cache.find(key_of(run), followed);
  REQUIRE(hit.has_value());
  CHECK(hit->reduced.kind == Kind::Stack);
  CHECK(hit->reduced.id == 7);
  CHECK(hit->length == run.size());

  auto other = run_of({1, 2, 4});  // one index differs: not found even under the same key
  CHECK_FALSE(cache.find(key_of(run), other).has_value());
  // A run that starts like the cached one but goes on is not it.
  const auto longer = run_of({1, 2, 3, 4});
  CHECK_FALSE(cache.find(key_of(run), longer).has_value());
  CHECK_FALSE(cache.find(key_of(longer), longer).has_value());
  // Bytes that end before the run does.
  CHECK_FALSE(cache.find(key_of(run), {run.data(), run.size() - 1}).has_value());
}

TEST_CASE("get run cache: runs under one key are told apart, and an overwritten memo entry empties it") {
  MemoValues memo(16);
  memo.push_back(Value::handle(Kind::Frame, 1));
  memo.push_back(Value::handle(Kind::Container, 3, 1));  // a container's placeholder
  GetRunCache cache;
  cache.check(&memo, 0);
  const auto a = run_of({0, 0});
  const auto b = run_of({0, 1});
  const uint64_t shared_key = 42;
  cache.add(shared_key, a, Value::handle(Kind::Stack, 1));
  cache.add(shared_key, b, Value::handle(Kind::Stack, 2));
  CHECK(cache.find(shared_key, a).value().reduced.id == 1);
  CHECK(cache.find(shared_key, b).value().reduced.id == 2);

  // Replacing a container's placeholder (the container reduced) changes no value read before.
  memo.set(1, Value::handle(Kind::Frame, 9));
  cache.check(&memo, 0);
  CHECK(cache.find(shared_key, a).has_value());
  // Overwriting a value does.
  memo.set(0, Value::handle(Kind::Frame, 5));
  cache.check(&memo, 0);
  CHECK_FALSE(cache.find(shared_key, a).has_value());
  CHECK_FALSE(cache.find(shared_key, b).has_value());

  // Another memo, or another chunk's base, starts empty too.
  cache.add(shared_key, a, Value::handle(Kind::Stack, 1));
  cache.check(&memo, 100);
  CHECK_FALSE(cache.find(shared_key, a).has_value());
  MemoValues other(16);
  cache.add(shared_key, a, Value::handle(Kind::Stack, 1));
  cache.check(&other, 100);
  CHECK_FALSE(cache.find(shared_key, a).has_value());
}

TEST_CASE("get run cache: runs too long are not kept") {
  GetRunCache cache;
  std::vector<uint8_t> run;
  while (run.size() <= GetRunCache::kMaxRunBytes) {
    run.push_back(kBinGet);
    run.push_back(1);
  }
  run.push_back(kAppends);
  cache.add(key_of(run), run, Value::handle(Kind::Stack, 1));
  CHECK_FALSE(cache.find(key_of(run), run).has_value());
}
