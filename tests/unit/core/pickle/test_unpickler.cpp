// Opcode-level tests of the safe unpickler: protocols 0-5 (CPython-written bytes, hand bytes,
// and PickleWriter round trips), refusals, and every kind of malformed input.
#include <doctest/doctest.h>

#include <string>

#include "core/pickle/opcodes.h"
#include "core/pickle/pickle_writer.h"
#include "core/pickle/unpickler.h"
#include "unit/core/pickle/test_unpickler_cpython.h"

using namespace snapscope;
using namespace snapscope::pickle;

namespace {

std::string from_hex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  }
  return out;
}

std::string unpickle(std::string_view bytes, UnpicklerLimits limits = {}) {
  StringTable strings;
  MemorySource source(bytes);
  Unpickler unpickler(source, strings, nullptr, limits);
  return repr(unpickler.run(), unpickler);
}

// The error text of a pickle that must be rejected ("" if it was accepted).
std::string error_of(std::string_view bytes, UnpicklerLimits limits = {}) {
  try {
    unpickle(bytes, limits);
  } catch (const PickleError& e) {
    return e.what();
  }
  return "";
}

std::string bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out += static_cast<char>(v);
  return out;
}

const std::string kBaseRepr =
    "{'ints': [0, 1, -1, 255, 256, 65535, 65536, -2147483648, 2147483648, 9223372036854775807, "
    "-9223372036854775808, 9223372036854775808, 18446744073709551615, ~1180591620717411303424], "
    "'f': [1.5, -0.25], 'b': [True, False, None], 's': ['', 'h\xc3\xa9llo', 'a\\x0ab\\\\c', "
    "'\xe2\x82\xac\xf0\x9f\x98\x80'], 't': [(), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4)], "
    "'sh': [['x'], ['x']]";

}  // namespace

TEST_CASE("CPython pickles of protocols 0-5 decode to the same object") {
  for (const auto& fixture : test::kCpythonFixtures) {
    INFO("protocol " << fixture.protocol);
    std::string expected = kBaseRepr;
    if (fixture.protocol >= 3) expected += ", 'by': [b'\\x00\\xff', b'ab']";
    if (fixture.protocol >= 4) expected += ", 'sets': [set(), {7}, frozenset({8})]";
    expected += "}";
    CHECK(unpickle(from_hex(fixture.hex)) == expected);
  }
}

TEST_CASE("PickleWriter round trips through the unpickler for every protocol") {
  for (int protocol = 0; protocol <= 5; ++protocol) {
    INFO("protocol " << protocol);
    std::string out;
    PickleWriter w(out, protocol, PickleWriter::Memo::Auto);
    w.begin_dict();
    w.str("addr");
    w.uint(0xFFFF'FFFF'FFFF'FF00ull);
    w.str("neg");
    w.integer(-70000);
    w.str("list");
    w.begin_list();
    for (int i = 0; i < 1500; ++i) w.integer(i % 3);  // more than one APPENDS batch
    w.end_list();
    w.str("name");
    w.str("caf\xc3\xa9");
    uint32_t memo = w.last_memo();
    w.str("again");
    w.get(memo);
    w.str("t");
    w.begin_tuple();
    w.floating(0.5);
    w.boolean(true);
    w.none();
    w.end_tuple();
    w.end_dict();
    w.finish();
    std::string list = "[";
    for (int i = 0; i < 1500; ++i) list += (i ? ", " : "") + std::to_string(i % 3);
    list += "]";
    CHECK(unpickle(out) == "{'addr': 18446744073709551360, 'neg': -70000, 'list': " + list +
                               ", 'name': 'caf\xc3\xa9', 'again': 'caf\xc3\xa9', 't': (0.5, True, None)}");
  }
}

TEST_CASE("hand-written opcodes: stack manipulation, memo and text forms") {
  // MARK 1 2 POP_MARK -> nothing; 3 DUP TUPLE2 -> (3, 3)
  CHECK(unpickle(bytes({'(', 'K', 1, 'K', 2, '1', 'K', 3, '2', 0x86, '.'})) == "(3, 3)");
  // POP drops the top value; POP on an empty frame drops the MARK
  CHECK(unpickle(bytes({'K', 1, 'K', 2, '0', '(', '0', '.'})) == "1");
  CHECK(unpickle("I01\n.") == "True");
  CHECK(unpickle("I00\n.") == "False");
  CHECK(unpickle("I-42\n.") == "-42");
  CHECK(unpickle("L18446744073709551615L\n.") == "18446744073709551615");
  CHECK(unpickle("F-2.5\n.") == "-2.5");
  CHECK(unpickle("S'a\\x41\\n\\101'\n.") == "'aA\\x0aA'");
  CHECK(unpickle("S\"q\"\n.") == "'q'");
  CHECK(unpickle(bytes({'U', 2, 0xE9, 'x', '.'})) == "'\xc3\xa9x'");     // Latin-1 Python 2 str
  CHECK(unpickle("V\\u00e9\\\\u0041\n.") == "'\xc3\xa9\\\\\\\\u0041'");  // even backslashes: no escape
  CHECK(unpickle("(lp0\nI7\naI8\nag0\n.") == "[7, 8]");
  CHECK(unpickle("(I1\nI2\ndp0\n.") == "{1: 2}");
  CHECK(unpickle(bytes({0x95, 2, 0, 0, 0, 0, 0, 0, 0, 'N', '.'})) == "None");  // FRAME
  CHECK(unpickle(bytes({0x8a, 0, '.'})) == "0");                               // LONG1 of length 0
  CHECK(unpickle(bytes({0x8b, 2, 0, 0, 0, 0xff, 0x7f, '.'})) == "32767");      // LONG4
  CHECK(unpickle(bytes({'K', 5, 'r', 0xff, 0xff, 0xff, 0x7f, 'j', 0xff, 0xff, 0xff, 0x7f, '.'})) == "5");
}

TEST_CASE("runs of memo GETs: containers, sparse memo slots, the buffer's end and the stack limit") {
  // [7, inner, 7, 7, inner, 7, 7, 7]: BINGET and LONG_BINGET runs that meet a container (memo 1),
  // a slot far past the dense memo (4096, by LONG_BINPUT) and the last bytes before APPENDS.
  const std::string list =
      bytes({']', '(', 'K', 7,   'q', 0,    ']', 'q', 1,   'h', 0,    'j', 0, 0,   0, 0,   'h',
             1,   'h', 0,   'r', 0,   0x10, 0,   0,   'j', 0,   0x10, 0,   0, 'h', 0, 'e', '.'});
  CHECK(unpickle(list) == "[7, [], 7, 7, [], 7, 7, 7]");
  // The same inner list twice: reducing it rewrites both stack slots, including the one a run pushed.
  CHECK(unpickle(bytes({']', '(', ']', 'q', 0, 'h', 0, 'h', 0, 'e', '.'})) == "[[], [], []]");
  // A run stops at the stack limit and the next GET reports it, naming its own offset.
  const std::string run =
      bytes({'(', 'K', 1, 'q', 0, 'h', 0, 'h', 0, 'h', 0, 'h', 0, 'h', 0, 'h', 0, 'h', 0, 'l', '.'});
  CHECK(unpickle(run) == "[1, 1, 1, 1, 1, 1, 1, 1]");
  CHECK(error_of(run, UnpicklerLimits{.max_stack = 4}) == "too many values on the stack at byte 11");
  // A GET of an index never stored fails in or out of a run.
  CHECK(error_of(bytes({'K', 1, 'q', 0, 'h', 0, 'h', 3, 'h', 0, 'h', 0, '.'})) ==
        "memo index 3 is not defined at byte 6");
}

TEST_CASE("9-byte LONG1 values in [2^63, 2^64) are exact unsigned addresses") {
  // 0x8000_0000_0000_0010 and 0xFFFF_FFFF_FFFF_FFFF, as CPython writes them.
  CHECK(unpickle(bytes({0x8a, 9, 0x10, 0, 0, 0, 0, 0, 0, 0x80, 0, '.'})) == "9223372036854775824");
  CHECK(unpickle(bytes({0x8a, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, '.'})) ==
        "18446744073709551615");
  CHECK(unpickle(bytes({0x8a, 8, 0, 0, 0, 0, 0, 0, 0, 0x80, '.'})) == "-9223372036854775808");
}

TEST_CASE("opcodes that could run code are refused with their name and offset") {
  struct Case {
    int op;
    const char* name;
  };
  const Case cases[] = {{'c', "GLOBAL"},    {0x93, "STACK_GLOBAL"}, {'R', "REDUCE"},
                        {'b', "BUILD"},     {'i', "INST"},          {'o', "OBJ"},
                        {0x81, "NEWOBJ"},   {0x92, "NEWOBJ_EX"},    {'P', "PERSID"},
                        {'Q', "BINPERSID"}, {0x82, "EXT1"},         {0x83, "EXT2"},
                        {0x84, "EXT4"},     {0x97, "NEXT_BUFFER"},  {0x98, "READONLY_BUFFER"}};
  for (const Case& c : cases) {
    INFO(c.name);
    std::string pickle = bytes({0x80, 4, 'N', c.op}) + "os\nsystem\n.";
    CHECK(error_of(pickle) == "refusing opcode " + std::string(c.name) +
                                  " (it could run code; only plain data is accepted) at byte 3");
  }
  CHECK(error_of(bytes({'N', 0xff, '.'})) == "unknown opcode 0xff at byte 1");
  // A first byte no pickle starts with: some other file, not corruption at an offset.
  CHECK(error_of("# notes\n") ==
        "not a pickle file (it starts with byte 0x23 '#', which no pickle starts with)");
  CHECK(error_of(bytes({0xff, 0x00})) ==
        "not a pickle file (it starts with byte 0xff, which no pickle starts with)");
  CHECK(error_of(bytes({0x80, 6, 'N', '.'})) == "unsupported pickle protocol 6 at byte 0");
}

TEST_CASE("a refused opcode has no side effect: nothing after it is read or interned") {
  StringTable strings;
  size_t before = strings.size();
  std::string pickle = "cos\nsystem\n(S'echo pwned'\ntR.";
  MemorySource source(pickle);
  Unpickler unpickler(source, strings);
  CHECK_THROWS_AS(unpickler.run(), PickleError);
  CHECK(strings.size() == before);
}

TEST_CASE("truncation at every byte of a valid pickle is an error, never a crash") {
  for (const auto& fixture : test::kCpythonFixtures) {
    std::string full = from_hex(fixture.hex);
    for (size_t cut = 0; cut < full.size(); ++cut) {
      INFO("protocol " << fixture.protocol << " cut at " << cut);
      std::string message = error_of(std::string_view(full).substr(0, cut));
      CHECK(message.find("unexpected end of input") != std::string::npos);
    }
  }
}

TEST_CASE("malformed input gives one-line errors with offsets") {
  CHECK(error_of(bytes({'h', 3, '.'})) == "memo index 3 is not defined at byte 0");
  CHECK(error_of(bytes({'j', 0, 0, 0, 0x10, '.'})) == "memo index 268435456 is not defined at byte 0");
  CHECK(error_of(bytes({'a', '.'})) == "stack underflow in APPEND at byte 0");
  CHECK(error_of(bytes({'.'})) == "stack underflow in STOP at byte 0");
  CHECK(error_of(bytes({']', '(', 'N', 'u', '.'})) == "SETITEMS on the wrong kind of container at byte 3");
  CHECK(error_of(bytes({'(', 'e', '.'})) == "stack underflow in APPENDS at byte 1");
  CHECK(error_of(bytes({'e', '.'})) == "no MARK for APPENDS at byte 0");
  CHECK(error_of(bytes({'}', '(', 'N', 'u', '.'})) == "SETITEMS with an odd number of items at byte 3");
  CHECK(error_of(bytes({'N', 'q', 0, ']', 'h', 0, 'a', 'K', 1, '.'})) == "");  // append None: fine
  CHECK(error_of(bytes({']', 'q', 0, 'h', 0, 'a', '.'})) == "a container cannot contain itself at byte 5");
  CHECK(error_of("I12x\n.") == "bad integer text in INT at byte 0");
  CHECK(error_of("Sabc\n.") == "the STRING argument must be quoted at byte 0");
  CHECK(error_of("V\\u12\n.") == "truncated \\u escape in UNICODE at byte 0");
  CHECK(error_of(bytes({'N', 'N'})) == "unexpected end of input before STOP at byte 2");
}

TEST_CASE("absurd declared lengths fail before any allocation") {
  // BINUNICODE8 / BINBYTES8 claiming 2^62 bytes, LONG4 claiming 2 GB, BINSTRING negative.
  CHECK(error_of(bytes({0x8d, 0, 0, 0, 0, 0, 0, 0, 0x40, 'a', '.'})) ==
        "unexpected end of input in BINUNICODE8 at byte 0");
  CHECK(error_of(bytes({0x8e, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, '.'})) ==
        "unexpected end of input in BINBYTES8 at byte 0");
  CHECK(error_of(bytes({0x8b, 0, 0, 0, 0x7f, '.'})) == "unexpected end of input in LONG4 at byte 0");
  CHECK(error_of(bytes({0x8b, 0, 0, 0, 0x80, '.'})) == "negative length in LONG4 at byte 0");
  CHECK(error_of(bytes({'T', 0, 0, 0, 0x80, '.'})) == "negative length in BINSTRING at byte 0");
  // A memo index far beyond the memo is stored sparsely, not by resizing the memo.
  CHECK(unpickle(bytes({'N', 'r', 0xfe, 0xff, 0xff, 0xff, 'j', 0xfe, 0xff, 0xff, 0xff, '.'})) == "None");
}

TEST_CASE("invalid UTF-8 is rejected") {
  CHECK(error_of(bytes({0x8c, 2, 0xc3, 0x28, '.'})) == "invalid UTF-8 in SHORT_BINUNICODE at byte 0");
  CHECK(error_of(bytes({'X', 3, 0, 0, 0, 0xed, 0xa0, 0x80, '.'})) == "invalid UTF-8 in BINUNICODE at byte 0");
  CHECK(error_of(bytes({0x8c, 2, 0xc0, 0x80, '.'})) == "invalid UTF-8 in SHORT_BINUNICODE at byte 0");
  CHECK(is_valid_utf8("plain ascii, long enough for the fast path"));
  CHECK(is_valid_utf8("\xf0\x9f\x98\x80"));
  CHECK_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(is_valid_utf8("\xe2\x82"));          // truncated sequence
}

TEST_CASE("deep nesting is capped") {
  // 2000 nested lists with EMPTY_LIST / APPEND (no MARKs).
  std::string lists(2000, ']');
  std::string appends(1999, 'a');
  CHECK(error_of(lists + appends + ".") == "nesting deeper than 1000 at byte 2999");
  // Nested MARKs.
  CHECK(error_of(std::string(1001, '(') + ".") == "nesting deeper than 1000 at byte 1000");
  // 900 levels are fine.
  CHECK(error_of(std::string(900, ']') + std::string(899, 'a') + ".") == "");
  // Limits are configurable.
  UnpicklerLimits small;
  small.max_depth = 3;
  CHECK(error_of("]]]]aaa.", small) == "nesting deeper than 3 at byte 6");
}

TEST_CASE("opcode names match pickletools") {
  CHECK(opcode_name(BINUNICODE) == "BINUNICODE");
  CHECK(opcode_name(MEMOIZE) == "MEMOIZE");
  CHECK(opcode_name(0xff).empty());
}

TEST_CASE("Unpickler: repr of shared containers nested 60 deep stops at 16 KiB (found by fuzzing)") {
  // list_i = [list_(i-1), list_(i-1)]: 2^60 elements as text from ~400 bytes of pickle.
  std::string pickle = "]q";
  pickle += '\0';
  for (int i = 1; i <= 60; ++i) {
    pickle += "](h";
    pickle += static_cast<char>(i - 1);
    pickle += 'h';
    pickle += static_cast<char>(i - 1);
    pickle += "eq";
    pickle += static_cast<char>(i);
  }
  pickle += '.';
  const std::string text = unpickle(pickle);
  CHECK(text.size() == kDefaultReprBytes + 3);
  CHECK(text.starts_with("[[[[[[[["));
  CHECK(text.ends_with("..."));
  StringTable strings;
  MemorySource source(pickle);
  Unpickler unpickler(source, strings, nullptr, {});
  CHECK(repr(unpickler.run(), unpickler, 100).size() == 103);  // a caller's own cap (dict keys)
}

TEST_CASE("the memo cap grows with the input: an entry per 16 bytes, at least 2^27, below 2^32") {
  CHECK(UnpicklerLimits::for_input(std::nullopt).max_memo == size_t{1} << 27);  // gzip: unknown
  CHECK(UnpicklerLimits::for_input(1000).max_memo == size_t{1} << 27);
  // The 12.2 GB gpt_train_step_ctx128 scaled by run-bench --big needs more than 2^27 entries.
  CHECK(UnpicklerLimits::for_input(uint64_t{12'201'668'595}).max_memo == 762'604'287);
  CHECK(UnpicklerLimits::for_input(uint64_t{1} << 40).max_memo == UINT32_MAX - 1);
  // Past the cap, the input is refused at the MEMOIZE that would pass it.
  UnpicklerLimits two;
  two.max_memo = 2;
  CHECK(error_of("N\x94\x94.", two) == "");
  CHECK(error_of("N\x94\x94\x94.", two) == "too many memo entries at byte 3");
}
