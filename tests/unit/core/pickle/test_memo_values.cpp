// The memo keeps values in 5-byte slots and a side table: every kind must come back exactly as
// it went in, and the side table must not grow with values that pass through it.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "core/pickle/memo.h"

using namespace snapscope::pickle;

namespace {

void check_same(const Value& back, const Value& v) {
  CHECK(back.kind == v.kind);
  CHECK(back.aux == v.aux);
  CHECK(back.u == v.u);  // all 8 bytes of the union, a handle's unused half included
}

const std::vector<Value> kEveryKind = {
    Value::none(),
    Value::boolean(true),
    Value::boolean(false),
    Value::integer(std::numeric_limits<int64_t>::min()),
    Value::integer(-1),
    Value::integer(std::numeric_limits<int64_t>::max()),
    Value::uinteger(std::numeric_limits<uint64_t>::max()),
    Value::uinteger(uint64_t{1} << 63),
    Value::floating(Kind::Float, -0.0),
    Value::floating(Kind::Float, 1e308),
    Value::floating(Kind::BigInt, 3.0e30),
    Value::handle(Kind::String, 0xFFFFFFFFu),
    Value::handle(Kind::Bytes, 7),
    Value::handle(Kind::Container, 0xFFFFFFFEu, 0xFFFFFFFFu),  // a slot's generation
    Value::handle(Kind::Container, 5, 0),
    Value::handle(Kind::EmptyList, 0),
    Value::handle(Kind::Frame, 12345),
    Value::handle(Kind::Stack, 1u << 31),
    Value::handle(Kind::Event, 99),
    Value::handle(Kind::EventRun, 100, 65536),
};

}  // namespace

TEST_CASE("memo values: numbers keep all 64 bits, handles their id and aux") {
  MemoValues memo(64);
  for (const Value& v : kEveryKind) memo.push_back(v);
  REQUIRE(memo.size() == kEveryKind.size());
  for (size_t i = 0; i < kEveryKind.size(); ++i) check_same(memo.get(i), kEveryKind[i]);
}

TEST_CASE("memo values: handles take no side-table entry, numbers and generations one each") {
  MemoValues memo(8);
  memo.push_back(Value::handle(Kind::Event, 1));
  memo.push_back(Value::handle(Kind::Container, 2, 0));
  memo.push_back(Value::none());
  CHECK(memo.wide_in_use() == 0);
  CHECK_FALSE(memo.data()[0].wide());
  memo.push_back(Value::handle(Kind::Container, 2, 3));
  memo.push_back(Value::integer(-5));
  CHECK(memo.wide_in_use() == 2);
  CHECK(memo.data()[3].wide());
}

TEST_CASE("memo values: overwriting a slot frees or reuses its side-table entry") {
  MemoValues memo(8);
  memo.push_back(Value::handle(Kind::Container, 7, 9));
  memo.push_back(Value::integer(1));
  // A container reduced to an event: its entry is freed, and the next wide value takes it.
  memo.set(0, Value::handle(Kind::Event, 42));
  check_same(memo.get(0), Value::handle(Kind::Event, 42));
  CHECK(memo.wide_in_use() == 1);
  memo.push_back(Value::uinteger(~uint64_t{0}));
  CHECK(memo.wide_in_use() == 2);
  check_same(memo.get(2), Value::uinteger(~uint64_t{0}));
  check_same(memo.get(1), Value::integer(1));
  // Wide over wide keeps one entry; narrow over narrow takes none.
  memo.set(1, Value::floating(Kind::Float, 2.5));
  memo.set(0, Value::handle(Kind::Stack, 3));
  CHECK(memo.wide_in_use() == 2);
  check_same(memo.get(1), Value::floating(Kind::Float, 2.5));
  // Narrow over wide, then wide over narrow, many times: the side table does not grow.
  for (uint32_t round = 0; round < 1000; ++round) {
    memo.set(1, Value::handle(Kind::Event, round));
    memo.set(1, Value::handle(Kind::Container, round, round + 1));
  }
  CHECK(memo.wide_in_use() == 2);
  check_same(memo.get(1), Value::handle(Kind::Container, 999, 1000));
  check_same(memo.get(2), Value::uinteger(~uint64_t{0}));
}
