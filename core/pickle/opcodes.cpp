#include "core/pickle/opcodes.h"

#include <array>

namespace snapscope::pickle {

namespace {

struct NameTable {
  std::array<std::string_view, 256> names{};
  constexpr NameTable() {
#define SNAPSCOPE_OPCODE(op) names[op] = #op;
    SNAPSCOPE_OPCODE(MARK)
    SNAPSCOPE_OPCODE(STOP)
    SNAPSCOPE_OPCODE(POP) SNAPSCOPE_OPCODE(POP_MARK) SNAPSCOPE_OPCODE(DUP) SNAPSCOPE_OPCODE(
        FLOAT) SNAPSCOPE_OPCODE(INT) SNAPSCOPE_OPCODE(BININT) SNAPSCOPE_OPCODE(BININT1) SNAPSCOPE_OPCODE(LONG)
        SNAPSCOPE_OPCODE(BININT2) SNAPSCOPE_OPCODE(NONE) SNAPSCOPE_OPCODE(PERSID) SNAPSCOPE_OPCODE(
            BINPERSID) SNAPSCOPE_OPCODE(REDUCE) SNAPSCOPE_OPCODE(STRING) SNAPSCOPE_OPCODE(BINSTRING)
            SNAPSCOPE_OPCODE(SHORT_BINSTRING) SNAPSCOPE_OPCODE(UNICODE) SNAPSCOPE_OPCODE(
                BINUNICODE) SNAPSCOPE_OPCODE(APPEND) SNAPSCOPE_OPCODE(BUILD) SNAPSCOPE_OPCODE(GLOBAL)
                SNAPSCOPE_OPCODE(DICT) SNAPSCOPE_OPCODE(EMPTY_DICT) SNAPSCOPE_OPCODE(
                    APPENDS) SNAPSCOPE_OPCODE(GET) SNAPSCOPE_OPCODE(BINGET) SNAPSCOPE_OPCODE(INST)
                    SNAPSCOPE_OPCODE(LONG_BINGET) SNAPSCOPE_OPCODE(LIST) SNAPSCOPE_OPCODE(
                        EMPTY_LIST) SNAPSCOPE_OPCODE(OBJ) SNAPSCOPE_OPCODE(PUT) SNAPSCOPE_OPCODE(BINPUT)
                        SNAPSCOPE_OPCODE(LONG_BINPUT) SNAPSCOPE_OPCODE(SETITEM) SNAPSCOPE_OPCODE(
                            TUPLE) SNAPSCOPE_OPCODE(EMPTY_TUPLE) SNAPSCOPE_OPCODE(SETITEMS)
                            SNAPSCOPE_OPCODE(BINFLOAT) SNAPSCOPE_OPCODE(PROTO) SNAPSCOPE_OPCODE(
                                NEWOBJ) SNAPSCOPE_OPCODE(EXT1) SNAPSCOPE_OPCODE(EXT2) SNAPSCOPE_OPCODE(EXT4)
                                SNAPSCOPE_OPCODE(TUPLE1) SNAPSCOPE_OPCODE(TUPLE2) SNAPSCOPE_OPCODE(TUPLE3)
                                    SNAPSCOPE_OPCODE(NEWTRUE) SNAPSCOPE_OPCODE(NEWFALSE) SNAPSCOPE_OPCODE(
                                        LONG1) SNAPSCOPE_OPCODE(LONG4) SNAPSCOPE_OPCODE(BINBYTES)
                                        SNAPSCOPE_OPCODE(SHORT_BINBYTES) SNAPSCOPE_OPCODE(SHORT_BINUNICODE)
                                            SNAPSCOPE_OPCODE(BINUNICODE8) SNAPSCOPE_OPCODE(BINBYTES8)
                                                SNAPSCOPE_OPCODE(EMPTY_SET) SNAPSCOPE_OPCODE(ADDITEMS)
                                                    SNAPSCOPE_OPCODE(FROZENSET) SNAPSCOPE_OPCODE(NEWOBJ_EX)
                                                        SNAPSCOPE_OPCODE(STACK_GLOBAL)
                                                            SNAPSCOPE_OPCODE(MEMOIZE) SNAPSCOPE_OPCODE(FRAME)
                                                                SNAPSCOPE_OPCODE(BYTEARRAY8)
                                                                    SNAPSCOPE_OPCODE(NEXT_BUFFER)
                                                                        SNAPSCOPE_OPCODE(READONLY_BUFFER)
#undef SNAPSCOPE_OPCODE
  }
};

constexpr NameTable kNames;

}  // namespace

std::string_view opcode_name(uint8_t code) { return kNames.names[code]; }

}  // namespace snapscope::pickle
