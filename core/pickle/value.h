// The unpickler's values: 16-byte tagged handles. Strings are interned ids, containers live
// in an arena (see Unpickler), and the snapshot reducer's compact kinds (frames, stacks,
// trace events) replace containers once they are complete.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace snapscope::pickle {

enum class Kind : uint8_t {
  None,
  Bool,       // i: 0 or 1
  Int,        // i: fits int64
  UInt,       // u: in [2^63, 2^64): e.g. CUDA addresses written with a 9-byte LONG1
  BigInt,     // d: approximation of an integer beyond 64 bits
  Float,      // d
  String,     // id: StringId in the snapshot's StringTable
  Bytes,      // id: index into Unpickler::bytes()
  Container,  // id: arena slot, aux: slot generation (detects stale references)
  EmptyList,  // a finished empty list (no arena slot needed)
  // Reduced kinds, produced by a ContainerReducer:
  Frame,     // id: FrameId
  Stack,     // id: StackId
  Event,     // id: index into the reducer's event pool
  EventRun,  // list items only: events [id, id + aux)
};

struct Value {
  Kind kind = Kind::None;
  uint32_t aux = 0;
  union {
    int64_t i;
    uint64_t u;
    double d;
    uint32_t id;
  };
  Value() : i(0) {}

  static Value none() { return Value(); }
  static Value boolean(bool b) { return with_int(Kind::Bool, b ? 1 : 0); }
  static Value integer(int64_t v) { return with_int(Kind::Int, v); }
  static Value uinteger(uint64_t v) {
    Value out;
    out.kind = Kind::UInt;
    out.u = v;
    return out;
  }
  static Value floating(Kind kind, double v) {
    Value out;
    out.kind = kind;
    out.d = v;
    return out;
  }
  static Value handle(Kind kind, uint32_t id, uint32_t aux = 0) {
    Value out;
    out.kind = kind;
    out.id = id;
    out.aux = aux;
    return out;
  }

 private:
  static Value with_int(Kind kind, int64_t v) {
    Value out;
    out.kind = kind;
    out.i = v;
    return out;
  }
};
static_assert(sizeof(Value) == 16);

// A Value in 9 bytes, for the memo: a multi-GB snapshot memoises tens of millions of values
// (every event dict and frames list), and at 16 bytes each the memo was a third of the
// reader's peak memory. Lossless: a number's 8 bytes, or a handle's id and aux, follow the kind.
struct PackedValue {
  uint8_t bytes[9];

  static PackedValue pack(const Value& v) {
    PackedValue out;
    out.bytes[0] = static_cast<uint8_t>(v.kind);
    const uint64_t payload = has_number(v.kind) ? v.u : (uint64_t{v.aux} << 32) | v.id;
    std::memcpy(out.bytes + 1, &payload, sizeof payload);
    return out;
  }
  Value unpack() const {
    Value out;
    out.kind = static_cast<Kind>(bytes[0]);
    uint64_t payload;
    std::memcpy(&payload, bytes + 1, sizeof payload);
    if (has_number(out.kind)) {
      out.u = payload;
    } else {
      out.id = static_cast<uint32_t>(payload);
      out.aux = static_cast<uint32_t>(payload >> 32);
    }
    return out;
  }
  Kind kind() const { return static_cast<Kind>(bytes[0]); }

 private:
  // The kinds whose payload is the union's 8 bytes; the others are handles (id, aux).
  static bool has_number(Kind kind) { return kind < Kind::String; }
};
static_assert(sizeof(PackedValue) == 9);

enum class ContainerKind : uint8_t { List, Dict, Tuple, Set, FrozenSet };

struct Container {
  ContainerKind kind = ContainerKind::List;
  uint16_t depth = 1;  // nesting depth of the deepest item chain, this container included
  uint32_t generation = 0;
  uint32_t memo_slot = UINT32_MAX;  // first memo slot holding this container (rewritten on reduce)
  bool has_more_memo_slots = false;
  bool reduced = false;       // replaced during the current opcode; recycled right after it
  bool pushed_again = false;  // GET/DUP put another reference on the stack
  Value replacement;
  std::vector<Value> items;  // dicts: key, value, key, value...
};

}  // namespace snapscope::pickle
