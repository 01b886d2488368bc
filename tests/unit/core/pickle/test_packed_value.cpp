// The memo keeps values packed in 9 bytes: every kind must come back exactly as it went in.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "core/pickle/value.h"

using namespace snapscope::pickle;

namespace {

void check_round_trip(const Value& v) {
  const Value back = PackedValue::pack(v).unpack();
  CHECK(back.kind == v.kind);
  CHECK(back.aux == v.aux);
  CHECK(back.u == v.u);  // all 8 bytes of the union, a handle's unused half included
}

}  // namespace

TEST_CASE("packed values: numbers keep all 64 bits, handles their id and aux") {
  const std::vector<Value> values = {
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
      Value::handle(Kind::EmptyList, 0),
      Value::handle(Kind::Frame, 12345),
      Value::handle(Kind::Stack, 1u << 31),
      Value::handle(Kind::Event, 99),
      Value::handle(Kind::EventRun, 100, 65536),
  };
  for (const Value& v : values) check_round_trip(v);
  CHECK(PackedValue::pack(Value::handle(Kind::Container, 3, 4)).kind() == Kind::Container);
}
