// The unpickler's values: 16-byte tagged handles. Strings are interned ids, containers live
// in an arena (see Unpickler), and the snapshot reducer's compact kinds (frames, stacks,
// trace events) replace containers once they are complete.
#pragma once

#include <cstdint>
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
  // Chunk parsers only (Unpickler::run_chunk): id names a memo entry defined before the chunk,
  // resolved when the chunk is spliced into the whole.
  External,
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
